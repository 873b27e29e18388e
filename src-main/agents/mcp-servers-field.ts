import { formatPath, isPlainObject, MCP_SERVER_NAME_HINT, MCP_SERVER_NAME_RE, type AgentMcpServer } from '../../src-shared'
import { parseServerDefinition } from '../config'

type Warn = (field: string, reason: string) => void

/**
 * `mcpServers:` as Claude Code writes it — a list of names and `{name: definition}` mappings, a mapping of name →
 * definition (or null), or "a, b" — as the servers the agent may use. Inline definitions are honoured only in the
 * person's own agent files: one in a workspace's file would start a program from a cloned repository without the
 * person's trust, so it counts as a reference to a configured server of that name (`.mcp.json` is covered by trust).
 */
export function readMcpServersField(value: unknown, source: 'user' | 'project', warn: Warn): AgentMcpServer[] {
  const servers: AgentMcpServer[] = []
  const add = (name: string, definition: unknown, field: string) => {
    if (!MCP_SERVER_NAME_RE.test(name)) return warn(field, `invalid server name ${JSON.stringify(name)}: ${MCP_SERVER_NAME_HINT}; ignored`)
    if (servers.some((s) => s.name === name)) return
    if (definition === undefined || definition === null || definition === true) return void servers.push({ name })
    if (source === 'project') {
      warn(field, `inline MCP server definitions are not started from a workspace's agent file (it would run a program without your trust); define "${name}" in .mcp.json, which trust covers, and it is used from there`)
      return void servers.push({ name })
    }
    const checked = parseServerDefinition(name, definition, field)
    for (const n of checked.notes) warn(n.path, n.reason)
    if (!checked.config) {
      for (const e of checked.errors) warn(e.path, `${e.reason}; this server is not available to the agent`)
      return
    }
    servers.push({ name, definition: checked.config })
  }
  if (typeof value === 'string') {
    for (const name of value.split(',').map((s) => s.trim()).filter(Boolean)) add(name, undefined, 'mcpServers')
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const field = formatPath(['mcpServers', i])
      if (typeof item === 'string') add(item, undefined, field)
      else if (isPlainObject(item) && Object.keys(item).length === 1) {
        const [name, definition] = Object.entries(item)[0]
        add(name, definition, formatPath(['mcpServers', name]))
      } else warn(field, 'must be a server name or {name: {command: …} | {url: …}}; ignored')
    })
  } else if (isPlainObject(value)) {
    for (const [name, definition] of Object.entries(value)) add(name, definition, formatPath(['mcpServers', name]))
  } else if (value !== null && value !== undefined) {
    warn('mcpServers', `must be a list of server names (got ${JSON.stringify(value)}); ignored`)
  }
  return servers
}
