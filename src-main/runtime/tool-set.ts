import type { AgentInfo } from '../../src-shared'
import { evaluateRuleset, fromCompact, type Ruleset } from '../permissions'
import { BUILTIN_TOOLS, planExitTool, type ToolDef } from '../tools'

// A subject no real pattern matches: only catch-all rules (`*`, `**`) apply to it.
const PROBE = '\u0000any'

/**
 * Tools offered to a run. A tool every level of the chain denies outright is left out of the catalog — the
 * model would only waste steps on it — but the permission check still runs on every call regardless.
 */
export function toolsForRun(agent: AgentInfo, chain: Ruleset[], extra: ToolDef[]): ToolDef[] {
  const candidates: ToolDef[] = [...BUILTIN_TOOLS]
  if (Object.hasOwn(agent.permission, 'plan_exit')) candidates.push(planExitTool)
  candidates.push(...extra)
  return candidates.filter((tool) => !chain.some((rules) => deniesOutright(rules, tool.name)))
}

export function deniesOutright(rules: Ruleset, tool: string): boolean {
  const catchAll = evaluateRuleset(rules, tool, PROBE, 'other')
  if (catchAll?.action !== 'deny') return false
  // A narrower allow/ask for this tool (e.g. `docs/**: allow`) keeps it usable.
  const onlyThisTool: Ruleset = rules.filter((r) => r.action !== 'deny')
  return !onlyThisTool.some((r) => evaluateRuleset([r], tool, r.pattern, 'other') !== undefined)
}

export function agentRules(agent: AgentInfo): Ruleset {
  return fromCompact(agent.permission)
}
