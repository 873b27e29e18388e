import type { McpAction, McpServerInfo } from '../../src-shared'
import { describeServerTarget, type McpServerEntry } from '../config'
import type { ToolDef } from '../tools'
import type { ToolListing } from './list-tools'
import { mcpToolDef } from './mcp-tool'
import { McpServer, ServerUnavailable } from './server'
import { ToolCache } from './tool-cache'

export interface McpPoolOptions {
  dataDir: string
  /** what `${VAR}` references read, and what stdio servers inherit a safe part of */
  env: NodeJS.ProcessEnv
}

/** The MCP tools a run is offered, and why the servers it may see but cannot use are unavailable. */
export interface McpCatalog {
  tools: ToolDef[]
  /** server name → why its tools are not offered (needs trust, a bad definition, a failed start) */
  unavailable: Map<string, string>
}

/**
 * The host's MCP servers: one per workspace and definition, started the first time a run there needs its tools
 * (or offered from the tool list cached by an earlier start, and then started by the first call), shared by every
 * session of the workspace, stopped with the host.
 */
export class McpPool {
  private readonly servers = new Map<string, McpServer>()
  /** workspace + name → the key of its current definition (an edited definition replaces the old server) */
  private readonly current = new Map<string, string>()
  private readonly cache: ToolCache
  private readonly defs = new WeakMap<ToolListing, ToolDef[]>()
  private disposed = false

  constructor(private readonly o: McpPoolOptions) {
    this.cache = new ToolCache(o.dataDir)
  }

  /**
   * The tools of the servers a run may see. Servers whose tools are known are not started; others are started now,
   * together, each within its start timeout. Never throws: a server that cannot be used is named in `unavailable`.
   */
  async toolsFor(workdir: string, entries: readonly McpServerEntry[], signal?: AbortSignal): Promise<McpCatalog> {
    const unavailable = new Map<string, string>()
    const listings = await Promise.all(
      entries.map(async (entry): Promise<[McpServer, ToolListing] | null> => {
        const blocked = whyUnusable(entry, workdir)
        if (blocked) {
          unavailable.set(entry.name, blocked)
          return null
        }
        const server = this.serverFor(workdir, entry)
        const known = server.knownTools()
        if (known) return [server, known]
        try {
          await server.ensureStarted({ signal, wait: false })
        } catch (err) {
          unavailable.set(entry.name, err instanceof Error ? err.message : String(err))
          return null
        }
        const listing = server.knownTools()
        return listing ? [server, listing] : null
      }),
    )
    const tools = listings.flatMap((l) => (l ? this.toolDefs(l[0], l[1]) : []))
    return { tools, unavailable }
  }

  private toolDefs(server: McpServer, listing: ToolListing): ToolDef[] {
    let defs = this.defs.get(listing)
    if (!defs) {
      defs = listing.tools.map((t) => mcpToolDef(server, t))
      this.defs.set(listing, defs)
    }
    return defs
  }

  private serverFor(workdir: string, entry: McpServerEntry): McpServer {
    if (!entry.config) throw new Error(`MCP server ${entry.name} has no usable definition`)
    const key = ToolCache.key(workdir, entry.name, entry.config)
    const slot = `${workdir}\n${entry.name}`
    const existing = this.servers.get(key)
    if (existing) return existing
    // The definition changed since this server was made: the old process goes, the new definition starts fresh.
    const previous = this.current.get(slot)
    if (previous) {
      void this.servers.get(previous)?.dispose()
      this.servers.delete(previous)
    }
    const server = new McpServer({ name: entry.name, workdir, config: entry.config, source: entry.source }, { dataDir: this.o.dataDir, env: this.o.env, onListing: (l) => this.cache.set(key, l) }, this.cache.get(key))
    this.servers.set(key, server)
    this.current.set(slot, key)
    return server
  }

  /** Starts every usable server that is not running (as `agentry mcp list` checks them); failures are in their state. */
  async startAll(workdir: string, entries: readonly McpServerEntry[]): Promise<void> {
    await Promise.all(
      entries.map(async (entry) => {
        if (whyUnusable(entry, workdir)) return
        await this.serverFor(workdir, entry)
          .ensureStarted({ wait: false })
          .catch((err: unknown) => {
            if (!(err instanceof ServerUnavailable)) throw err
          })
      }),
    )
  }

  /** Every server configured for the workspace, as Settings and `agentry mcp list` show it. */
  list(workdir: string, entries: readonly McpServerEntry[]): McpServerInfo[] {
    return entries.map((entry) => {
      const notes = [...entry.notes]
      const blocked = whyUnusable(entry, workdir)
      if (blocked || !entry.config) {
        const status = !entry.config ? 'invalid' : entry.needsTrust ? 'needs_trust' : 'disabled'
        const cached = entry.config ? this.cache.get(ToolCache.key(workdir, entry.name, entry.config)) : null
        return {
          name: entry.name,
          status,
          transport: entry.config && 'url' in entry.config ? (entry.config.type === 'sse' ? 'sse' : 'http') : 'stdio',
          target: entry.config ? describeServerTarget(entry.config) : '',
          source: entry.source,
          tools: (cached?.tools ?? []).map((t) => ({ name: t.name, fullName: t.fullName, description: t.description })),
          resources: null,
          prompts: null,
          lastError: blocked,
          problems: notes,
          logFile: null,
          pid: null,
          startedAt: null,
          restarts: 0,
        }
      }
      const info = this.serverFor(workdir, entry).info()
      return { ...info, source: entry.source, problems: [...notes, ...info.problems] }
    })
  }

  /** Start, stop or restart one server (Settings, `agentry mcp`). A server that may not start says why. */
  async control(workdir: string, entry: McpServerEntry, action: McpAction): Promise<McpServerInfo> {
    const blocked = whyUnusable(entry, workdir)
    if (blocked) throw new ServerUnavailable(blocked)
    const server = this.serverFor(workdir, entry)
    if (action === 'stop') await server.stop(true)
    else {
      try {
        await (action === 'start' ? server.startByPerson() : server.restart())
      } catch (err) {
        // A start that fails is reported in the server's state (lastError), which is what the caller shows.
        if (!(err instanceof ServerUnavailable)) throw err
      }
    }
    return this.list(workdir, [entry])[0]
  }

  /** Stops every server (the host is stopping); later needs are refused. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    await Promise.all([...this.servers.values()].map((s) => s.dispose()))
    this.servers.clear()
  }
}

/** Why a configured server may not be used at all, or null. */
function whyUnusable(entry: McpServerEntry, workdir: string): string | null {
  if (!entry.config) return `MCP server "${entry.name}" cannot be used: ${entry.errors.join('; ') || 'its definition is invalid'}`
  if (entry.needsTrust) {
    return `MCP server "${entry.name}" is defined in ${entry.source.file}, a workspace file you have not trusted, so it is not started (it would ${'command' in entry.config ? 'run' : 'connect to'}: ${describeServerTarget(entry.config)}). If that is what you want, run "agentry trust --workdir ${workdir}" or trust the workspace in Settings.`
  }
  if (entry.config.disabled) return `MCP server "${entry.name}" is disabled in ${entry.source.file} (disabled: true)`
  return null
}
