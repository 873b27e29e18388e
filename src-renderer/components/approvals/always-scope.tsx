import '../../styles/inbox.css'
import type { AlwaysScope } from '../../../src-shared'

/**
 * How far an "Always allow" reaches, worded the same in the conversation and in the inbox. A grant flows down to the
 * agents the asking one starts, never up to its parent or across to another conversation (src-shared AlwaysScope).
 */
export const SCOPES: { value: AlwaysScope; label: string; reach: string }[] = [
  {
    value: 'run',
    label: 'This run',
    reach: 'Until this run ends: the asking agent and the agents it starts, never its parent or other conversations.',
  },
  {
    value: 'session',
    label: 'This session',
    reach: 'From now on in this session and the agents it starts, never its parent or other conversations.',
  },
  {
    value: 'workspace',
    label: 'This workspace',
    reach: 'From now on in every conversation of this workspace, and the agents they start.',
  },
]

export function AlwaysScopeField({ id, scope, onChange }: { id: string; scope: AlwaysScope; onChange: (s: AlwaysScope) => void }) {
  const reach = SCOPES.find((s) => s.value === scope)?.reach
  return (
    <>
      <label className="label" htmlFor={id}>
        Scope
      </label>
      <select id={id} className="select" data-testid="always-scope" aria-describedby={`${id}-reach`} value={scope} onChange={(e) => onChange(e.target.value as AlwaysScope)}>
        {SCOPES.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </select>
      <div id={`${id}-reach`} className="muted small always-reach" data-testid="always-reach">
        {reach}
      </div>
    </>
  )
}
