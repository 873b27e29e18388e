import type { AgentInfo } from '../../src-shared'

/**
 * The host's own helpers: titles, summaries and compaction run through the host only. Whatever file defines them (a
 * person may override their prompts), a model never sees them as agents it could call.
 */
export const HELPER_AGENTS: readonly string[] = Object.freeze(['title', 'summary', 'compaction'])

export function isHelperAgent(name: string): boolean {
  return HELPER_AGENTS.includes(name)
}

/** Agents the `task` tool may call: mode `subagent` or `all` (hidden ones included), never a host helper. */
export function callableSubagents(all: readonly AgentInfo[]): AgentInfo[] {
  return all.filter((a) => (a.mode === 'subagent' || a.mode === 'all') && !isHelperAgent(a.name))
}

/** Agents a person can pick for a session: mode `primary` or `all`, and not hidden. */
export function pickerAgents(all: readonly AgentInfo[]): AgentInfo[] {
  return all.filter((a) => (a.mode === 'primary' || a.mode === 'all') && !a.hidden)
}
