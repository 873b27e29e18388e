import type { McpFileProblem, McpServerEntry } from '../config'
import { ServerUnavailable } from '../mcp'
import { agentOwnServers } from '../runtime'
import { HostError, type HostCalls } from '../../src-shared'
import type { CallDeps } from './calls'

/** MCP servers of a workspace as Settings and `agentry mcp list` show them; start, stop and restart. */
export function mcpCalls(d: CallDeps): Pick<HostCalls, 'mcp.list' | 'mcp.control'> {
  const pool = d.mcp
  /** What the workspace configures, plus servers the person's agent files define for themselves. */
  const entries = (root: string): { servers: McpServerEntry[]; problems: McpFileProblem[] } => {
    const loaded = d.config(root)
    const own = agentOwnServers(d.registry.resolve(root).agents).filter((o) => !loaded.mcp.some((e) => e.name === o.name))
    return { servers: [...loaded.mcp, ...own], problems: loaded.mcpProblems }
  }
  return {
    'mcp.list': async ({ workspaceRoot, start }) => {
      const root = d.workspaces.realFolder(workspaceRoot ?? d.workspaces.defaultRoot)
      const { servers, problems } = entries(root)
      if (start) await pool.startAll(root, servers)
      return { workspaceRoot: root, servers: pool.list(root, servers), problems }
    },
    'mcp.control': async ({ workspaceRoot, name, action }) => {
      const root = d.workspaces.realFolder(workspaceRoot)
      const entry = entries(root).servers.find((e) => e.name === name)
      if (!entry) throw new HostError('not_found', `No MCP server "${name}" is configured for ${root}. Add it under mcp: in config.yaml or to the workspace's .mcp.json.`)
      try {
        return { server: await pool.control(root, entry, action) }
      } catch (err) {
        if (err instanceof ServerUnavailable) throw new HostError('conflict', err.message)
        throw err
      }
    },
  }
}
