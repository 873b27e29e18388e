import type { AgentFolderInfo, AgentInfo, AgentListEntry, AgentLoadError, Config } from '../../src-shared'
import { fromCompact } from '../permissions'
import { resolveAgentModel } from './agent-model'
import type { ResolvedAgents } from './agent-registry'
import { offeredTools } from './offered-tools'

export interface AgentListing {
  agents: AgentListEntry[]
  errors: AgentLoadError[]
  folders: AgentFolderInfo[]
  disabled: { name: string; file: string }[]
}

/** What `agents.list` and `agentry agents` show: every agent with what its file means here, and the problems. */
export function listAgents(resolved: ResolvedAgents, config: Config): AgentListing {
  return {
    agents: resolved.agents.map((a) => describeAgent(a, config)),
    errors: resolved.errors,
    folders: resolved.folders,
    disabled: resolved.disabled,
  }
}

/** One agent's effective model (and how it was resolved), offered tools and permission rules. */
export function describeAgent(agent: AgentInfo, config: Config): AgentListEntry {
  const { modelRef: _ref, warning, ...resolvedModel } = resolveAgentModel(agent.model, config)
  const { prompt: _prompt, ...listed } = agent
  return {
    ...listed,
    warnings: warning ? [...agent.warnings, { field: 'model', reason: warning }] : agent.warnings,
    resolvedModel,
    offeredTools: offeredTools(agent),
    permissionRules: fromCompact(agent.permission),
  }
}
