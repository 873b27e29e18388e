import { useEffect, useState } from 'react'
import type { CallOutput } from '../../../src-shared'
import { loadContainerStatus } from '../../state/settings-actions'
import type { UiError } from '../../state/ui-error'
import { ErrorNote } from '../common/error-note'

type Status = CallOutput<'containers.status'>

/** Where children with `isolation: container` run: the engine's answer, the image and the limits (issue 29). */
export function ContainersSection() {
  const [status, setStatus] = useState<Status | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  const [checking, setChecking] = useState(false)
  const check = async () => {
    setChecking(true)
    const r = await loadContainerStatus()
    setChecking(false)
    if (r.ok) {
      setStatus(r.data)
      setError(null)
    } else setError(r.error)
  }
  useEffect(() => void check(), [])
  return (
    <section className="card" data-testid="settings-containers" data-ok={status?.ok ?? ''}>
      <h2>Containers</h2>
      <p className="muted small">
        A subagent with <code>isolation: container</code> (in its agent file, or asked for by the calling agent) runs its commands in a container of its own on
        this engine: the workspace mounted at the same path, no network unless a rule allows it, removed when it ends. Set the engine, image and limits under{' '}
        <code>containers:</code> in your config.yaml.
      </p>
      {status && (
        <dl className="kv small" data-testid="containers-status">
          <dt>Engine</dt>
          <dd>
            {status.kind ? (
              <>
                <span className="pill ok">{status.kind} {status.version}</span> <code>{status.engine}</code>
              </>
            ) : (
              <>
                <span className="pill warn">not reachable</span> <code>{status.engine}</code>
              </>
            )}
          </dd>
          <dt>Image</dt>
          <dd>
            <code>{status.image.name}</code> {status.kind ? (status.image.present ? 'present' : 'missing') : ''}
          </dd>
          <dt>Limits per child</dt>
          <dd>
            {status.limits.cpus} {status.limits.cpus === 1 ? 'CPU' : 'CPUs'} · {status.limits.memoryMb} MB memory · {status.limits.pids} processes
          </dd>
        </dl>
      )}
      {status?.message && (
        <div className="callout warn" data-testid="containers-problem">
          {status.message}
        </div>
      )}
      <button type="button" className="btn small" data-testid="containers-check" disabled={checking} onClick={() => void check()}>
        {checking ? 'Checking…' : 'Check again'}
      </button>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}
