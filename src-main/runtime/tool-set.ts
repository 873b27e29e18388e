import type { AgentInfo, Config, ModelRef } from '../../src-shared'
import { deniesOutright } from '../agents'
import { nativeToolsFor, type NativeTool } from '../models'
import { fromCompact, type Ruleset } from '../permissions'
import { BUILTIN_TOOLS, planExitTool, type ToolDef } from '../tools'
import { decideFor, type RuleSources } from './authorize'
import type { RunLevel } from './level'

export { deniesOutright }

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

export function agentRules(agent: AgentInfo): Ruleset {
  return fromCompact(agent.permission)
}

/** Tools of higher layers that may join a run (`task`, from the subagents module). */
const HIGHER_LAYER_TOOLS = ['task']
const KNOWN_TOOLS = new Set([...BUILTIN_TOOLS.map((t) => t.name), planExitTool.name, ...HIGHER_LAYER_TOOLS])

/** Names of the tools the provider of `ref` runs itself (see models/native-tools). */
export function nativeToolNames(ref: ModelRef, config: Config): string[] {
  return nativeToolsFor(ref, config).map((t) => t.name)
}

/** Does a tool of this name exist for a run offered these native tools? (A rule may name any tool; listings may not.) */
export function toolExists(name: string, native: string[]): boolean {
  return KNOWN_TOOLS.has(name) || native.includes(name)
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
