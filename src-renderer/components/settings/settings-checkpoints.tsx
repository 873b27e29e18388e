import { useEffect, useState } from 'react'
import type { CallOutput } from '../../../src-shared'
import { formatBytes } from '../../lib/format'
import { loadCheckpointSpace, pruneCheckpoints } from '../../state/changes-actions'
import type { UiError } from '../../state/ui-error'
import { ErrorNote } from '../common/error-note'

type Space = CallOutput<'checkpoints.space'>

/** Checkpoints (undo): on or off, the space their store takes in the data folder, and Prune. */
export function CheckpointsSection() {
  const [space, setSpace] = useState<Space | null>(null)
  const [freed, setFreed] = useState<number | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    void loadCheckpointSpace().then((r) => {
      if (!live) return
      if (r.ok) setSpace(r.data)
      else setError(r.error)
    })
    return () => {
      live = false
    }
  }, [])

  const prune = async () => {
    setBusy(true)
    setError(null)
    setFreed(null)
    const r = await pruneCheckpoints()
    setBusy(false)
    if (!r.ok) return setError(r.error)
    setSpace(r.data)
    setFreed(r.data.freedBytes ?? 0)
  }

  return (
    <section className="card" data-testid="settings-checkpoints" aria-labelledby="checkpoints-title">
      <h2 id="checkpoints-title">Checkpoints</h2>
      {space && (
        <p className="small" data-testid="checkpoints-enabled" data-enabled={space.enabled}>
          {space.enabled ? (
            <>
              <span className="pill ok">On</span> The workspace is recorded before and after every turn, so you can rewind, redo and revert what agents
              changed (the Changes panel of a session).
            </>
          ) : (
            <>
              <span className="pill warn">Off</span> New turns are not recorded and cannot be undone. Turn it on with <code>checkpoints: {'{ enabled: true }'}</code> in{' '}
              <code>config.yaml</code>.
            </>
          )}
        </p>
      )}
      <div className="row">
        <span data-testid="checkpoints-space">
          {space ? (
            <>
              {formatBytes(space.bytes)} used in {space.workspaces} workspace{space.workspaces === 1 ? '' : 's'}
            </>
          ) : (
            !error && <span className="muted">Measuring…</span>
          )}
        </span>
        <span className="spacer" />
        <button className="btn small" data-testid="checkpoints-prune" disabled={busy || !space} onClick={() => void prune()}>
          {busy ? 'Pruning…' : 'Prune'}
        </button>
      </div>
      <p className="muted small">Prune drops the checkpoints no session keeps any more (deleted sessions) and packs the rest. Undo keeps working.</p>
      <div role="status" className="small" data-testid="checkpoints-freed">
        {freed !== null && `Pruned: ${formatBytes(freed)} freed.`}
      </div>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}
