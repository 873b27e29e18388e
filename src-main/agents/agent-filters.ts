import type { AgentInfo } from '../../src-shared'

/** Agents the `task` tool may call: mode `subagent` or `all` (hidden ones included). */
export function callableSubagents(all: readonly AgentInfo[]): AgentInfo[] {
  return all.filter((a) => a.mode === 'subagent' || a.mode === 'all')
}

/** Agents a person can pick for a session: mode `primary` or `all`, and not hidden. */
export function pickerAgents(all: readonly AgentInfo[]): AgentInfo[] {
  return all.filter((a) => (a.mode === 'primary' || a.mode === 'all') && !a.hidden)
}
