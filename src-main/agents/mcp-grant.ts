import { parseMcpToolName, type AgentInfo, type AgentMcpServer } from '../../src-shared'

/**
 * Which MCP servers an agent file lets the agent see: every server its caller has, unless the file names servers —
 * in `mcpServers`, or through `mcp__server__tool` entries of a `tools:` allow-list — and then only those (still only
 * where its caller has them). `own`: servers the file defines itself (the person's own files only).
 */
export interface McpGrant {
  /** null: every server the caller has */
  names: ReadonlySet<string> | null
  own: (AgentMcpServer & { definition: NonNullable<AgentMcpServer['definition']> })[]
}

const EVERY: McpGrant = { names: null, own: [] }

export function mcpGrantOf(agent: AgentInfo): McpGrant {
  const tools = agent.mcpTools ?? []
  if (agent.mcpServers === undefined && tools.length === 0) return EVERY
  const names = new Set<string>()
  for (const s of agent.mcpServers ?? []) names.add(s.name)
  for (const t of tools) {
    const server = parseMcpToolName(t)?.server ?? t.replace(/^mcp__/, '').replace(/_+$/, '')
    // `mcp__*` names no server in particular: every server the caller has.
    if (/[*?[\]{}]/.test(server)) return { names: null, own: ownServers(agent) }
    names.add(server)
  }
  return { names, own: ownServers(agent) }
}

function ownServers(agent: AgentInfo): McpGrant['own'] {
  return (agent.mcpServers ?? []).flatMap((s) => (s.definition ? [{ name: s.name, definition: s.definition }] : []))
}
