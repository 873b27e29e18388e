import type { McpServerConfig, McpServerInfo, McpServerSource } from '../../src-shared'
import { isStdioServer } from '../../src-shared'
import { ToolError, type ToolResult } from '../tools'
import { describeServerTarget } from '../config'
import { createConnection, type Connection } from './connect'
import { expandServerEnv } from './expand-env'
import { acceptTools, type ToolListing } from './list-tools'
import { ServerLog } from './server-log'
import { toToolResult } from './tool-result'

export const DEFAULT_CALL_TIMEOUT_S = 60
export const DEFAULT_START_TIMEOUT_S = 30
/** Crash restarts wait 250 ms, 500 ms, 1 s, … up to 30 s; after this many in a row the server waits for a need. */
const MAX_AUTO_RESTARTS = 5
const MAX_BACKOFF_MS = 30_000
/** A server that ran this long (or answered a call) is healthy again: the backoff starts over. */
const STABLE_MS = 30_000
// JSON-RPC codes the SDK uses for its own failures (ErrorCode in the SDK's types).
const CONNECTION_CLOSED = -32000
const REQUEST_TIMEOUT = -32001

export interface ServerSpec {
  name: string
  workdir: string
  config: McpServerConfig
  source: McpServerSource
}

export interface ServerDeps {
  dataDir: string
  env: NodeJS.ProcessEnv
  /** a fresh tool list (after a start or a `list_changed`), to keep for the next host */
  onListing(listing: ToolListing): void
}

/** Why a server cannot be used right now; its message is what the model and the person read. */
export class ServerUnavailable extends Error {
  override readonly name = 'ServerUnavailable'
}

type Status = 'idle' | 'starting' | 'running' | 'error' | 'stopped'

/**
 * One MCP server of one workspace: started on first need, restarted with backoff after a crash, stopped with the
 * host. Calls in flight when it crashes fail with a tool error naming the server; the next need starts it again.
 */
export class McpServer {
  private status: Status = 'idle'
  private connection?: Connection
  private starting?: Promise<void>
  private listing: ToolListing | null
  private resources: string[] | null = null
  private prompts: string[] | null = null
  private lastError: string | null = null
  private failures = 0
  private nextAttemptAt = 0
  private restartTimer?: NodeJS.Timeout
  private startedAt: number | null = null
  private restarts = 0
  /** it crashed: the next successful start counts as a restart, whoever triggers it (the timer or a call) */
  private crashedSinceStart = false
  private stoppedByPerson = false
  private disposed = false
  /** bumped by every start; a call knows which process it went to */
  private generation = 0
  private crashed = new Map<number, string>()
  readonly log: ServerLog

  constructor(
    readonly spec: ServerSpec,
    private readonly deps: ServerDeps,
    cached: ToolListing | null,
  ) {
    this.listing = cached
    this.log = new ServerLog(deps.dataDir, spec.name, spec.workdir)
  }

  get name(): string {
    return this.spec.name
  }

  /** The tools as last listed (by this host or a previous one), without starting anything. */
  knownTools(): ToolListing | null {
    return this.listing
  }

  /**
   * Starts the server unless it runs. `wait`: a need that may wait out a crash backoff (a tool call); without it a
   * server in backoff is unavailable at once (a run's tool catalog does not wait for it).
   */
  async ensureStarted(o: { signal?: AbortSignal; wait: boolean }): Promise<void> {
    if (this.disposed) throw new ServerUnavailable(`MCP server "${this.name}" is shutting down with the host`)
    if (this.stoppedByPerson) throw new ServerUnavailable(`MCP server "${this.name}" was stopped (Settings › MCP servers or agentry mcp); start it there to use its tools`)
    if (this.status === 'running' && this.connection) return
    if (!this.starting) {
      const wait = this.nextAttemptAt - Date.now()
      if (wait > 0 && !o.wait) throw new ServerUnavailable(`MCP server "${this.name}" is not available: ${this.lastError ?? 'it failed'} (next attempt in ${Math.ceil(wait / 1000)} s)`)
      if (wait > 0) await sleep(wait, o.signal)
    }
    this.starting ??= this.start().finally(() => (this.starting = undefined))
    await abortable(this.starting, o.signal)
  }

  private async start(): Promise<void> {
    clearTimeout(this.restartTimer)
    const { spec } = this
    this.status = 'starting'
    const expanded = expandServerEnv(spec.config, this.deps.env)
    if (!expanded.ok) return this.failed(`MCP server "${spec.name}" (${spec.source.file}) cannot start: ${expanded.reason}`, false)
    const generation = ++this.generation
    if (isStdioServer(expanded.config)) this.log.open(`start: ${describeServerTarget(spec.config)} (in ${spec.workdir})`)
    let connection: Connection
    try {
      connection = await createConnection({
        config: expanded.config,
        workdir: spec.workdir,
        env: this.deps.env,
        log: this.log,
        onToolsChanged: (tools) => void acceptTools(spec.name, tools).then((l) => this.setListing(l)),
        onClose: () => this.closed(generation),
      })
    } catch (err) {
      return this.failed(`MCP server "${spec.name}" cannot start: ${messageOf(err)}`, true)
    }
    const startMs = (spec.config.startTimeoutSeconds ?? DEFAULT_START_TIMEOUT_S) * 1000
    this.connection = connection
    try {
      await connection.client.connect(connection.transport, { timeout: startMs })
      const listing = await acceptTools(spec.name, await this.listAll(connection, startMs))
      this.setListing(listing)
      await this.listExtras(connection, startMs)
    } catch (err) {
      // Said before closing: closing a process that never answered ends it by a signal we sent, not its own exit.
      const message = this.startError(err, connection, startMs)
      this.connection = undefined
      await connection.client.close().catch((e: unknown) => this.log.note(`close after a failed start: ${messageOf(e)}`))
      return this.failed(message, true)
    }
    this.status = 'running'
    this.startedAt = Date.now()
    this.lastError = null
    if (this.crashedSinceStart) this.restarts++
    this.crashedSinceStart = false
  }

  private async listAll(c: Connection, timeout: number) {
    const tools = []
    let cursor: string | undefined
    do {
      const page = await c.client.listTools(cursor ? { cursor } : undefined, { timeout })
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor)
    return tools
  }

  /** Resources and prompts are listed where the server offers them (shown; tools are what runs use). */
  private async listExtras(c: Connection, timeout: number): Promise<void> {
    const caps = c.client.getServerCapabilities() ?? {}
    try {
      this.resources = caps.resources ? (await c.client.listResources(undefined, { timeout })).resources.map((r) => r.uri) : null
      this.prompts = caps.prompts ? (await c.client.listPrompts(undefined, { timeout })).prompts.map((p) => p.name) : null
    } catch (err) {
      this.log.note(`listing resources or prompts failed: ${messageOf(err)}`)
    }
  }

  private setListing(listing: ToolListing): void {
    this.listing = listing
    this.deps.onListing(listing)
  }

  private startError(err: unknown, c: Connection, startMs: number): string {
    const exit = c.process?.exit
    const head = `MCP server "${this.name}" (${describeServerTarget(this.spec.config)})`
    let what: string
    if (exit) what = `exited ${exitText(exit)} before it answered initialize`
    else if (codeOf(err) === REQUEST_TIMEOUT) what = `did not answer initialize within ${startMs / 1000} s (startTimeoutSeconds); it was stopped`
    else what = `failed to start: ${messageOf(err)}`
    return `${head} ${what}.${this.stderrTail()}`
  }

  private stderrTail(): string {
    return isStdioServer(this.spec.config) ? this.log.tailText() : ''
  }

  private failed(message: string, countsAsCrash: boolean): never {
    this.status = 'error'
    this.lastError = message
    if (countsAsCrash) {
      this.failures++
      this.nextAttemptAt = Date.now() + backoffMs(this.failures)
    }
    throw new ServerUnavailable(message)
  }

  /** The connection ended: on purpose (stop), or the server died — then calls in flight fail and it restarts later. */
  private closed(generation: number): void {
    if (generation !== this.generation || this.status !== 'running') return
    const exit = this.connection?.process?.exit
    this.connection = undefined
    const ranMs = this.startedAt ? Date.now() - this.startedAt : 0
    if (ranMs > STABLE_MS) this.failures = 0
    this.failures++
    this.nextAttemptAt = Date.now() + backoffMs(this.failures)
    const message = `MCP server "${this.name}" ${exit ? `exited ${exitText(exit)}` : 'closed the connection'} unexpectedly.${this.stderrTail()}`
    this.crashed.set(generation, message)
    this.crashedSinceStart = true
    this.status = 'error'
    this.lastError = message
    this.startedAt = null
    if (this.failures <= MAX_AUTO_RESTARTS && !this.disposed && !this.stoppedByPerson) {
      this.restartTimer = setTimeout(() => {
        this.ensureStarted({ wait: false }).catch((err: unknown) => this.log.note(`restart failed: ${messageOf(err)}`))
      }, Math.max(0, this.nextAttemptAt - Date.now()))
      this.restartTimer.unref()
    }
  }

  /** Calls one tool; every failure is a ToolError the model can read (which server, which tool, what happened). */
  async call(tool: string, args: Record<string, unknown>, o: { signal: AbortSignal }): Promise<ToolResult> {
    await this.ensureStarted({ signal: o.signal, wait: true }).catch((err: unknown) => {
      if (o.signal.aborted) throw err
      throw new ToolError(messageOf(err))
    })
    const connection = this.connection
    if (!connection) throw new ToolError(`MCP server "${this.name}" stopped before ${tool} could be sent; call it again`)
    const generation = this.generation
    const timeoutS = this.spec.config.timeoutSeconds ?? DEFAULT_CALL_TIMEOUT_S
    try {
      const result = await connection.client.callTool({ name: tool, arguments: args }, undefined, { signal: o.signal, timeout: timeoutS * 1000 })
      if (this.startedAt && Date.now() - this.startedAt > STABLE_MS) this.failures = 0
      return toToolResult(result, { server: this.name, tool })
    } catch (err) {
      if (ToolError.isInstance(err) || o.signal.aborted) throw err
      const crash = this.crashed.get(generation)
      if (crash) throw new ToolError(`${crash}\nThe call to ${tool} did not complete; the server is being restarted — call the tool again.`)
      if (codeOf(err) === REQUEST_TIMEOUT) {
        throw new ToolError(`MCP server "${this.name}" did not answer ${tool} within ${timeoutS} s (timeoutSeconds in its definition, ${this.spec.source.file}); the call was cancelled.`)
      }
      if (codeOf(err) === CONNECTION_CLOSED) throw new ToolError(`MCP server "${this.name}" closed the connection during ${tool}: ${messageOf(err)}`)
      throw new ToolError(`MCP server "${this.name}" answered ${tool} with an error: ${messageOf(err)}`)
    }
  }

  /** Stops the server; `byPerson`: it stays stopped (runs get a tool error saying so) until started again. */
  async stop(byPerson: boolean): Promise<void> {
    clearTimeout(this.restartTimer)
    this.stoppedByPerson = byPerson
    await this.starting?.catch(() => undefined)
    const connection = this.connection
    this.connection = undefined
    this.generation++
    this.status = byPerson ? 'stopped' : 'idle'
    this.startedAt = null
    if (connection) await connection.client.close()
    this.log.close()
  }

  async startByPerson(): Promise<void> {
    this.stoppedByPerson = false
    this.nextAttemptAt = 0
    await this.ensureStarted({ wait: false })
  }

  async restart(): Promise<void> {
    await this.stop(false)
    this.failures = 0
    this.nextAttemptAt = 0
    this.restarts++
    await this.ensureStarted({ wait: false })
  }

  async dispose(): Promise<void> {
    this.disposed = true
    await this.stop(false)
  }

  info(): Omit<McpServerInfo, 'source' | 'problems'> & { problems: string[] } {
    const config = this.spec.config
    return {
      name: this.name,
      status: this.status,
      transport: isStdioServer(config) ? 'stdio' : config.type === 'sse' ? 'sse' : 'http',
      target: describeServerTarget(config),
      tools: (this.listing?.tools ?? []).map((t) => ({ name: t.name, fullName: t.fullName, description: t.description })),
      resources: this.resources,
      prompts: this.prompts,
      lastError: this.lastError,
      problems: this.listing?.skipped ?? [],
      logFile: isStdioServer(config) ? this.log.file : null,
      pid: this.connection?.process?.pid ?? null,
      startedAt: this.startedAt,
      restarts: this.restarts,
    }
  }
}

function backoffMs(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.max(0, failures - 1))
}

function exitText(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return exit.signal ? `(killed by ${exit.signal})` : `with code ${exit.code}`
}

function codeOf(err: unknown): number | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'number' ? err.code : undefined
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return abortable(new Promise((resolve) => setTimeout(resolve, ms).unref()), signal)
}

/** Rejects with the signal's reason when it aborts first; the work itself goes on (a start others may wait for). */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      },
    )
  })
}
