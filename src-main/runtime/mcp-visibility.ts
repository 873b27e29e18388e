import { parseMcpToolName, type AgentInfo, type ClientMcpServer } from '../../src-shared'
import { mcpGrantOf } from '../agents'
import type { McpServerEntry } from '../config'
import type { McpCatalog } from '../mcp'
import { evaluateRuleset, matchTool, type Ruleset } from '../permissions'
import type { RunLevel, RunSettings } from './level'

/** Where a run gets its MCP tools: the host's pool of servers (see mcp/). */
export interface McpToolSource {
  toolsFor(workdir: string, entries: readonly McpServerEntry[], signal?: AbortSignal): Promise<McpCatalog>
}

/**
 * The MCP servers a run may see: the workspace's configured servers, narrowed at every level from the root down by
 * what each agent's file grants (see agents' mcpGrantOf) — so a subagent sees only servers its manifest grants and
 * its parent has. A server an agent's file (the person's own) defines inline is that agent's: visible to it and, as
 * far as they grant it, to its children. Tools are still judged by the chain of rules like any other tool.
 */
export function visibleMcpServers(level: Pick<RunLevel, 'agentPath' | 'settings'>): McpServerEntry[] {
  let visible: McpServerEntry[] = level.settings.config.mcp
  for (const name of level.agentPath) {
    const agent = level.settings.agents.find((a) => a.name === name)
    if (!agent) continue
    const grant = mcpGrantOf(agent)
    if (grant.names) visible = visible.filter((e) => grant.names?.has(e.name))
    for (const own of agentOwnServers([agent])) if (!visible.some((e) => e.name === own.name)) visible = [...visible, own]
  }
  return visible
}

/**
 * A run's settings with the MCP servers its front end passed (an editor over ACP) added as the person's own
 * (`scope: 'client'`, no trust needed); one of them replaces a configured server of the same name, since it is what
 * the person's editor runs for this conversation. Visibility, rules and the pool then treat them like any other.
 */
export function withClientMcpServers(settings: RunSettings, servers: readonly ClientMcpServer[] | undefined): RunSettings {
  if (!servers?.length) return settings
  const names = new Set(servers.map((s) => s.name))
  const replaced = settings.config.mcp.filter((e) => names.has(e.name))
  const client: McpServerEntry[] = servers.map((s) => ({
    name: s.name,
    config: s.config,
    source: { file: s.from, scope: 'client' },
    needsTrust: false,
    errors: [],
    notes: replaced.filter((e) => e.name === s.name).map((e) => `replaces the server of the same name in ${e.source.file} for this conversation`),
  }))
  return { ...settings, config: { ...settings.config, mcp: [...settings.config.mcp.filter((e) => !names.has(e.name)), ...client] } }
}

/** The servers agent files (the person's own) define inline, as configured servers of their agent. */
export function agentOwnServers(agents: readonly AgentInfo[]): McpServerEntry[] {
  return agents.flatMap((agent) =>
    mcpGrantOf(agent).own.map((own) => ({
      name: own.name,
      config: own.definition,
      source: { file: agent.source.file ?? agent.name, scope: 'agent' as const, agent: agent.name },
      needsTrust: false,
      errors: [],
      notes: [],
    })),
  )
}

// A tool name no real rule names: only catch-alls (and globs over the server's tools) apply to it.
const PROBE = '\u0000'

/**
 * Whether some level's rules deny every tool of a server (e.g. `explore`'s `*: deny`, or `mcp__github__*: deny`), so
 * the server need not even start for this run. A rule that could allow or ask for one of its tools keeps it.
 */
export function serverDeniedOutright(chain: Ruleset[], server: string): boolean {
  const probe = `mcp__${server}__${PROBE}`
  return chain.some((rules) => {
    const catchAll = evaluateRuleset(rules, probe, PROBE, 'other')
    if (catchAll?.action !== 'deny') return false
    const later = rules.slice(rules.lastIndexOf(catchAll) + 1)
    return !later.some((r) => r.action !== 'deny' && (matchTool(r.tool, probe) || parseMcpToolName(r.tool)?.server === server))
  })
}

/** The tool error for a call to a tool of a server the run may see but cannot use (needs trust, failed to start…). */
export function unavailableToolMessage(catalog: McpCatalog | undefined, toolName: string): string | undefined {
  const server = parseMcpToolName(toolName)?.server
  const reason = server ? catalog?.unavailable.get(server) : undefined
  return reason ? `${toolName} is not available: ${reason}` : undefined
}
