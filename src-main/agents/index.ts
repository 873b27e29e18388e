export { BUILTIN_AGENTS, DEFAULT_AGENT } from './builtins'
export { parseManifest, type ManifestResult } from './parse-manifest'
export { AgentRegistry, projectAgentsDir, userAgentsDir, type ResolvedAgents } from './agent-registry'
export { callableSubagents, pickerAgents } from './agent-filters'
