import { useState } from 'react'
import type { CallOutput } from '../../../src-shared'
import { setReadOnlyAutoAllow, setSandboxEnabled } from '../../state/settings-actions'
import type { UiError } from '../../state/ui-error'
import { ErrorNote } from '../common/error-note'

type Settings = CallOutput<'settings.get'>

const KIND: Record<string, string> = { bwrap: 'bubblewrap', seatbelt: 'macOS Seatbelt' }

/** The OS sandbox for bash: on/off (the person's own config.yaml), what it does here, and a clear warning when off. */
export function SandboxSection({ settings }: { settings: Settings }) {
  const { enabled, state, writable, readOnlyAutoAllow } = settings.sandbox
  const [error, setError] = useState<UiError | null>(null)
  const [busy, setBusy] = useState(false)
  const save = async (change: () => Promise<UiError | null>) => {
    setBusy(true)
    setError(null)
    setError(await change())
    setBusy(false)
  }
  const toggle = (next: boolean) => save(() => setSandboxEnabled(next))
  const confined = state.mode === 'bwrap' || state.mode === 'seatbelt'
  return (
    <section className="card" data-testid="settings-sandbox" data-mode={state.mode}>
      <h2>Sandbox</h2>
      <label className="check">
        <input type="checkbox" data-testid="sandbox-enabled" checked={enabled} disabled={busy} onChange={(e) => void toggle(e.target.checked)} /> Run bash
        commands in the OS sandbox
      </label>
      {confined && (
        <p className="muted small" data-testid="sandbox-status">
          Active ({KIND[state.mode] ?? state.mode}): commands write only inside the workspace, a temp folder{writable.length > 0 ? <> and <code>{writable.join(', ')}</code></> : null};
          protected configuration stays read-only; network is {state.network ? 'on (a "network" rule allows it)' : <>off (add <code>"network": "allow"</code> to permissions.jsonc to turn it on)</>}.
        </p>
      )}
      {!enabled && (
        <div className="callout warn" data-testid="sandbox-off-warning">
          <div className="callout-title">The sandbox is off</div>
          Bash commands run with your full permissions: they can write anywhere you can and reach the network. Only the permission rules stand
          between an agent and your files.
        </div>
      )}
      {enabled && state.mode === 'unavailable' && (
        <div className="callout warn" data-testid="sandbox-unavailable">
          <div className="callout-title">No sandbox on this machine</div>
          {state.reason}. Only the permission rules guard bash commands.
        </div>
      )}
      <label className="check">
        <input type="checkbox" data-testid="read-only-auto-allow" checked={readOnlyAutoAllow} disabled={busy} onChange={(e) => void save(() => setReadOnlyAutoAllow(e.target.checked))} />{' '}
        Run read-only commands without asking
      </label>
      <p className="muted small">
        <code>ls</code>, <code>cat</code>, <code>git status</code>, <code>git diff</code>, <code>rg</code> and other commands that only read files in the
        workspace. Agentry reads the whole line first: anything that writes, runs other programs or reads outside the workspace still asks, and your own
        rules for a command come first.
      </p>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}
