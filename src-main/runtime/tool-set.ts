import type { AgentInfo } from '../../src-shared'
import { deniesOutright } from '../agents'
import { fromCompact, type Ruleset } from '../permissions'
import { BUILTIN_TOOLS, planExitTool, type ToolDef } from '../tools'

export { deniesOutright }

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

export function agentRules(agent: AgentInfo): Ruleset {
  return fromCompact(agent.permission)
}
