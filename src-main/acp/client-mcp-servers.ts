import { RequestError, type McpServer } from '@agentclientprotocol/sdk/unstable'
import { ClientMcpServer, MCP_SERVER_NAME_HINT, MCP_SERVER_NAME_RE, type McpServerConfig } from '../../src-shared'

/**
 * The MCP servers an editor passes with `session/new`, `load` or `resume`, as Agentry's server definitions
 * (`McpServerConfig`): they go with every prompt of that session and its runs use them with `scope: 'client'` (see
 * runtime's withClientMcpServers). A definition Agentry cannot use is refused with invalid params naming the server.
 */
export function clientMcpServers(servers: readonly McpServer[] | undefined, from: string): ClientMcpServer[] {
  return (servers ?? []).map((server, i) => {
    if (!MCP_SERVER_NAME_RE.test(server.name)) {
      throw RequestError.invalidParams({ mcpServers: i }, `MCP server "${server.name}": Agentry names its tools mcp__<server>__<tool>, so rename it: ${MCP_SERVER_NAME_HINT}`)
    }
    // MCP over ACP (the unstable schema's "acp" transport) is not advertised (mcpCapabilities has no `acp`).
    if ('type' in server && server.type === 'acp') throw RequestError.invalidParams({ mcpServers: i }, `MCP server "${server.name}": MCP over ACP is not supported; pass a stdio, HTTP or SSE server`)
    const pairs = (list: { name: string; value: string }[]) => Object.fromEntries(list.map((p) => [p.name, p.value]))
    const config: McpServerConfig =
      'command' in server
        ? { type: 'stdio', command: server.command, args: server.args, ...(server.env.length ? { env: pairs(server.env) } : {}) }
        : { type: server.type, url: server.url, ...(server.headers.length ? { headers: pairs(server.headers) } : {}) }
    const parsed = ClientMcpServer.safeParse({ name: server.name, config, from })
    if (!parsed.success) throw RequestError.invalidParams({ mcpServers: i }, `MCP server "${server.name}" cannot be used: ${parsed.error.issues.map((x) => `${x.path.join('.') || 'definition'}: ${x.message}`).join('; ')}`)
    return parsed.data
  })
}
