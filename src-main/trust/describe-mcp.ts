import { isStdioServer, type McpServerConfig } from '../../src-shared'
import { describeServerTarget } from '../config'

/**
 * One line saying exactly what a server definition would run or where it would connect, with the environment
 * variables and headers it sets (values as written: `${GITHUB_TOKEN}` names a variable of yours it would receive).
 */
export function describeMcpServer(name: string, config: McpServerConfig): string {
  const off = config.disabled ? ' (disabled in the file)' : ''
  if (isStdioServer(config)) {
    const env = Object.entries(config.env ?? {}).map(([k, v]) => `${k}=${v}`)
    const cwd = config.cwd ? ` in ${config.cwd}` : ''
    return `starts MCP server ${name}: runs \`${describeServerTarget(config)}\`${cwd}${env.length ? ` with ${env.join(', ')}` : ''}${off}`
  }
  const headers = Object.entries(config.headers ?? {}).map(([k, v]) => `${k}: ${v}`)
  return `connects MCP server ${name} to ${config.url}${headers.length ? ` sending ${headers.join(', ')}` : ''}${off}`
}
