import { useState } from 'react'
import type { CallOutput } from '../../../src-shared'
import { revokeRule } from '../../state/settings-actions'
import { useSettings } from '../../state/settings-store'
import type { UiError } from '../../state/ui-error'
import { ErrorNote } from '../common/error-note'

/** Static permission files (where to edit) and runtime "Always allow" rules (revocable). */
export function RulesSection({ settings }: { settings: CallOutput<'settings.get'> }) {
  const rules = useSettings((s) => s.rules)
  const [error, setError] = useState<UiError | null>(null)

  const revoke = async (id: string) => {
    const failed = await revokeRule(id)
    if (failed) setError(failed)
  }

  return (
    <section className="card" data-testid="settings-rules">
      <h2>Permission rules</h2>
      <div className="label">Static rules (edit these files; changes apply from the next prompt. The workspace’s file may only tighten yours unless you trust the workspace below)</div>
      <ul className="files">
        {settings.permissionsFiles.map((f) => (
          <li key={f} className="mono small">{f}</li>
        ))}
      </ul>
      {settings.permissionErrors.map((e, i) => (
        <div key={i} className="callout error" data-testid="permission-error">
          <code>{e.file}</code>: {e.reason} — treated as "ask for everything" until fixed.
        </div>
      ))}
      <div className="label">Rules from "Always allow" answers</div>
      {rules.length === 0 && <div className="muted small" data-testid="rules-empty">None yet.</div>}
      {rules.length > 0 && (
        <table className="table" data-testid="rules-table">
          <thead>
            <tr>
              <th>Tool</th>
              <th>Pattern</th>
              <th>Action</th>
              <th>Scope</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.id} data-testid="rule-row" data-rule-id={r.id}>
                <td className="mono">{r.tool}</td>
                <td className="mono" data-testid="rule-pattern">{r.pattern}</td>
                <td>{r.action}</td>
                <td className="small">
                  {r.scope}
                  <div className="muted mono" title={r.scopeKey}>{r.scopeKey}</div>
                </td>
                <td>
                  <button className="btn small danger" data-testid="rule-revoke" onClick={() => void revoke(r.id)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}
