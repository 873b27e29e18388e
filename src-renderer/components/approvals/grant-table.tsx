import type { ListedRule } from '../../../src-shared'
import '../../styles/permissions.css'

/** Where a grant reaches, in the approval's words (This run / session / workspace), with the conversation's title when asked. */
export function grantReach(r: ListedRule, o: { conversation: boolean }): string {
  if (r.scope === 'workspace') return 'This workspace: every conversation'
  const reach = r.scope === 'run' ? 'This run, until it ends' : 'This session, from now on'
  if (!o.conversation) return reach
  return `${reach} — ${r.conversation ? `“${r.conversation.title || 'Untitled'}”` : 'a conversation no longer here'}`
}

/**
 * "Always allow" grants with a Revoke each. `conversation`: name the conversation of each (Settings lists every
 * conversation's; the conversation's own list does not need to).
 */
export function GrantTable({ rules, conversation, onRevoke }: { rules: ListedRule[]; conversation: boolean; onRevoke(id: string): void }) {
  return (
    <table className="table grant-table" data-testid="rules-table">
      <thead>
        <tr>
          <th scope="col">Tool</th>
          <th scope="col">Allowed without asking</th>
          <th scope="col">Where</th>
          <th scope="col">
            <span className="sr-only">Revoke</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rules.map((r) => (
          <tr key={r.id} data-testid="rule-row" data-rule-id={r.id} data-scope={r.scope}>
            <td className="mono">{r.tool}</td>
            <td className="mono" data-testid="rule-pattern">
              {r.pattern}
            </td>
            <td className="small" data-testid="rule-where" title={r.scope === 'workspace' ? r.scopeKey : undefined}>
              {grantReach(r, { conversation })}
            </td>
            <td className="grant-actions">
              <button className="btn small danger" data-testid="rule-revoke" aria-label={`Revoke ${r.tool} ${r.pattern}`} onClick={() => onRevoke(r.id)}>
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
