import { useCallback, useEffect, useState } from 'react'
import type { WorkspaceTrust } from '../../../src-shared'
import { loadTrust, setWorkspaceTrust } from '../../state/settings-actions'
import { useSettings } from '../../state/settings-store'
import type { UiError } from '../../state/ui-error'
import { useWorkspace } from '../../state/workspace-store'
import { loadSettings } from '../../state/workspace-actions'
import { ErrorNote } from '../common/error-note'

const STATUS: Record<WorkspaceTrust['status'], { label: string; pill: string }> = {
  trusted: { label: 'Trusted', pill: 'ok' },
  untrusted: { label: 'Not trusted', pill: '' },
  changed: { label: 'Changed since trusted — not trusted', pill: 'warn' },
}

/**
 * The open workspace's trust: exactly which of its files trust covers, what each changes (rules it would loosen,
 * providers it redefines, env vars it names as keys), and Trust / Revoke. Untrusted, a workspace may only tighten.
 */
export function TrustSection() {
  const root = useWorkspace((s) => s.root)
  // Reloaded with the rest of Settings (Refresh, or a visit): the files may have changed on disk.
  const settings = useSettings((s) => s.settings)
  const [trust, setTrust] = useState<WorkspaceTrust | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  const [busy, setBusy] = useState(false)

  const load = useCallback(async () => {
    if (!root) return
    const r = await loadTrust(root)
    if (r.ok) setTrust(r.data.trust)
    else setError(r.error)
  }, [root])
  useEffect(() => {
    void load()
  }, [load, settings])

  const set = async (trusted: boolean) => {
    if (!root || !trust) return
    setBusy(true)
    setError(null)
    // The files as shown: if one changed meanwhile, the host refuses and we show the new state.
    const r = await setWorkspaceTrust(root, trusted, trust.files.map((f) => ({ path: f.path, sha256: f.sha256 })))
    if (r.ok) setTrust(r.data.trust)
    else {
      setError(r.error)
      await load()
    }
    setBusy(false)
    await loadSettings()
  }

  if (!root) return null
  const present = trust?.files.filter((f) => f.sha256 !== null) ?? []
  return (
    <section className="card" data-testid="settings-trust" data-trust-status={trust?.status}>
      <div className="card-head">
        <h2>Workspace trust</h2>
        {trust && <span className={`pill ${STATUS[trust.status].pill}`} data-testid="trust-status">{STATUS[trust.status].label}</span>}
      </div>
      <p className="muted small">
        <code>{root}</code>: until you trust it, this workspace's files may only tighten your rules, and providers it defines or
        redirects get none of your keys. Trust covers these exact files; if one changes, trust it again.
      </p>
      {trust?.problem && <div className="callout error">{trust.problem}</div>}
      {trust && present.length === 0 && <div className="muted small" data-testid="trust-no-files">This workspace has no configuration files of its own.</div>}
      {present.map((f) => (
        <div key={f.path} className="trust-file" data-testid="trust-file" data-path={f.path}>
          <div className="mono small">
            {f.path} <span className="muted">sha256 {f.sha256?.slice(0, 12)}…</span>
            {f.changedSinceTrust && <span className="pill warn"> changed since trusted</span>}
          </div>
          {f.changes.length === 0 && <div className="muted small">Nothing beyond your own settings.</div>}
          <ul className="issues">
            {f.changes.map((c, i) => (
              <li key={i} data-testid="trust-change" data-kind={c.kind} data-needs-trust={String(c.needsTrust)}>
                <strong>{c.kind}</strong> {c.text} <span className="muted small">({c.needsTrust ? 'only when trusted' : 'applies anyway'})</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {trust && trust.agents.length > 0 && (
        <p className="muted small">
          Agents from this workspace ({trust.agents.map((a) => a.name).join(', ')}) are bounded by your rules whether or not you trust it.
        </p>
      )}
      <div className="row">
        {trust && trust.status !== 'trusted' && present.length > 0 && (
          <button className="btn" data-testid="trust-workspace" disabled={busy} onClick={() => void set(true)}>
            Trust these files
          </button>
        )}
        {trust && trust.status !== 'untrusted' && (
          <button className="btn danger" data-testid="revoke-trust" disabled={busy} onClick={() => void set(false)}>
            Revoke trust
          </button>
        )}
      </div>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}
