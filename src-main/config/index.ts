export { resolveDataDir } from './data-dir'
export { loadConfig, readConfigLayer, userConfigPath, projectConfigPath, type ConfigIssue, type LoadedConfig } from './load-config'
export { limitWorkspaceProviders, type KeyLimit, type WorkspaceProvider } from './workspace-layer'
export { formatConfigIssues } from './format-issues'
export { writeConfigValue, type ConfigPatch } from './write-config'
// Shared with other loaders of user-written YAML (agent manifests) so every file reports
// problems the same way: file, dotted path, plain-words reason.
export { describeZodIssues, formatPath, isPlainObject, type FieldProblem } from './zod-issues'
export { parseYamlText, type YamlResult, type YamlSyntaxError } from './yaml-text'
export { describeServerTarget, MCP_JSON_FILE, mergeMcpLayers, parseMcpSection, parseServerDefinition, readMcpJson, type McpFileProblem, type McpLayer, type McpServerEntry } from './mcp-servers'
