import type { AgentInfo, Config, ModelRef } from '../../src-shared'
import { callableSubagents, deniesOutright, isHelperAgent } from '../agents'
import { nativeToolsFor, type NativeTool } from '../models'
import { fromCompact, type Ruleset } from '../permissions'
import { BUILTIN_TOOLS, planExitTool, type ToolDef } from '../tools'
import { decideFor, type RuleSources } from './authorize'
import type { RunLevel } from './level'

export { callableSubagents, deniesOutright, isHelperAgent }

// A subject no real pattern matches: only catch-all rules (`*`, `**`) apply to it.
const PROBE = '\u0000any'

/** Tools that talk to the person; a subagent gets them only when its own file names them. */
const PERSON_TOOLS = new Set(['question', 'todo'])

/**
 * Tools offered to a run. A tool every level of the chain denies outright is left out of the catalog — the
 * model would only waste steps on it — but the permission check still runs on every call regardless. A subagent
 * (depth > 0) does not get `question` or `todo` unless its own file names them: parallel children must not each open
 * a dialog, and their plans are not the person's to-do list.
 */
export function toolsForRun(agent: AgentInfo, chain: Ruleset[], extra: ToolDef[], depth = 0): ToolDef[] {
  const candidates: ToolDef[] = BUILTIN_TOOLS.filter((t) => depth === 0 || !PERSON_TOOLS.has(t.name) || Object.hasOwn(agent.permission, t.name))
  if (Object.hasOwn(agent.permission, 'plan_exit')) candidates.push(planExitTool)
  candidates.push(...extra)
  return candidates.filter((tool) => !chain.some((rules) => deniesOutright(rules, tool.name)))
}

export function agentRules(agent: AgentInfo): Ruleset {
  return fromCompact(agent.permission)
}

/**
 * A subagent's own rules under `subagents.tools` of the configuration: a tool in `deny` is denied; with `allow`,
 * every tool not in it is denied and the listed ones keep exactly what the agent's rules say of them (the agent's
 * catch-all rules are copied onto each listed tool, in place, so the last-match order is unchanged). A policy can
 * only take tools away: it never allows what the agent or the parent would not.
 */
export function subagentRules(agent: AgentInfo, config: Config): Ruleset {
  const own = agentRules(agent)
  const policy = config.subagents.tools
  // Session tools are off for subagents by default: only an explicit allow in the policy turns them on.
  const sessionDeny: Ruleset = SESSION_TOOLS.filter((t) => !policy?.allow?.includes(t)).map((tool) => ({ tool, pattern: '*', action: 'deny' }))
  if (!policy) return [...own, ...sessionDeny]
  let rules: Ruleset = own
  if (policy.allow) {
    const allowed = policy.allow
    rules = [{ tool: '*', pattern: '*', action: 'deny' }]
    for (const r of own) {
      if (r.tool === '*') rules.push(...allowed.map((tool) => ({ ...r, tool })))
      else if (allowed.includes(r.tool)) rules.push(r)
    }
  }
  return [...rules, ...sessionDeny, ...(policy.deny ?? []).map((tool) => ({ tool, pattern: '*', action: 'deny' as const }))]
}

/** Tools for reaching other sessions: off for subagents unless `subagents.tools.allow` names them. */
export const SESSION_TOOLS = ['sessions_list', 'sessions_history', 'sessions_send', 'sessions_wait'] as const

/** Names of the tools the provider of `ref` runs itself (see models/native-tools). */
export function nativeToolNames(ref: ModelRef, config: Config): string[] {
  return nativeToolsFor(ref, config).map((t) => t.name)
}

/**
 * The native tools a run is offered: its provider has them, and its rules allow the tool outright. The provider runs
 * them without asking anyone, so a rule that would ask — or allows only some subjects — keeps them out.
 */
export function offeredNativeTools(level: RunLevel, rules: Pick<RuleSources, 'runtimeRules'>): NativeTool[] {
  return nativeToolsFor(level.modelRef, level.settings.config.config).filter(
    (t) => decideFor(level, rules, { tool: t.name, kind: 'host', subjects: [PROBE] }).action === 'allow',
  )
}
