export { McpPool, type McpCatalog, type McpPoolOptions } from './pool'
export { ServerUnavailable, DEFAULT_CALL_TIMEOUT_S, DEFAULT_START_TIMEOUT_S } from './server'
export { expandServerEnv } from './expand-env'
export { toToolResult } from './tool-result'
