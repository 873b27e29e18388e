import type { AgentInfo } from '../../src-shared'
import { evaluateRuleset, fromCompact, type Ruleset } from '../permissions'
import { AGENTRY_TOOLS } from './tool-names'

// A subject no real pattern matches: only catch-all rules (`*`, `**`) apply to it.
const PROBE = '\u0000any'

/**
 * A tool these rules deny outright (every subject), so offering it would only waste the model's steps.
 * A narrower allow/ask for the tool (e.g. `docs/**: allow`) keeps it usable.
 */
export function deniesOutright(all: Ruleset, tool: string): boolean {
  // Rules naming another tool literally cannot apply: leave them out before any glob is compiled.
  const rules = all.filter((r) => r.tool === tool || /[*?[\]{}!]/.test(r.tool))
  const catchAll = evaluateRuleset(rules, tool, PROBE, 'other')
  if (catchAll?.action !== 'deny') return false
  // The last match wins, so only an allow/ask for this tool *after* that deny can win for some subject
  // (`{"*": allow, bash: deny}` denies bash outright; `{"*": deny, bash: {"git *": allow}}` does not).
  const later = rules.slice(rules.lastIndexOf(catchAll) + 1)
  return !later.some((r) => r.action !== 'deny' && evaluateRuleset([r], tool, r.pattern, 'other') !== undefined)
}

// Most agents share a handful of permission maps (`*: allow`, one allow-list…): work each out once.
const byPermission = new Map<string, string[]>()

/** The tools an agent is offered by its own rules (a caller's rules can only narrow this further). */
export function offeredTools(agent: AgentInfo): string[] {
  const key = JSON.stringify(agent.permission)
  const known = byPermission.get(key)
  if (known) return [...known]
  const rules = fromCompact(agent.permission)
  // plan_exit is offered only to agents that name it (the built-in plan agent).
  const candidates = AGENTRY_TOOLS.filter((t) => t !== 'plan_exit' || Object.hasOwn(agent.permission, 'plan_exit'))
  const offered = candidates.filter((t) => !deniesOutright(rules, t))
  if (byPermission.size > 1000) byPermission.clear()
  byPermission.set(key, offered)
  return [...offered]
}
