import path from 'node:path'
import {
  agent,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type AgentConnection,
  type ClientCapabilities,
  type PromptResponse,
} from '@agentclientprotocol/sdk/unstable'
import type { AgentListEntry, ClientMcpServer, SessionRecord } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'
import type { EditorFiles } from '../tools'
import { AcpSession, type SessionPorts } from './acp-session'
import { CommandAnnouncer } from './commands-update'
import { clientMcpServers } from './client-mcp-servers'
import { toRequestError } from './errors'
import { HostLink, type HostHandle } from './host-link'
import { configOptions, currentAgent, MODEL_OPTION, modeState, modelRefText, pickableAgents } from './modes'
import { replayUpdates, type ViewOptions } from './view'

export interface AcpServerOptions {
  /** what the editor writes (the agent's stdin) */
  input: ReadableStream<Uint8Array>
  /** where the protocol goes (the agent's stdout): nothing else may write there */
  output: WritableStream<Uint8Array>
  /** the data dir's host: attached to a running one, or this process's own */
  connectHost(): Promise<HostHandle>
  /** diagnostics (stderr) */
  log(message: string): void
  version: string
}

export interface AcpServer {
  /** for this process's own host: the editor that shows a conversation's files, if it offers them */
  editorFiles(rootSessionId: string): EditorFiles | undefined
  /** start connecting to the host before the editor asks for anything (a faster first answer) */
  warmUp(): void
  /** resolves when the editor closed the connection (or it broke) */
  readonly closed: Promise<void>
  /** stop: sessions stop what they started, the host is released */
  close(): Promise<void>
}

const SESSIONS_PAGE = 50

/**
 * `agentry acp`: an Agent Client Protocol agent on stdio, built on the ACP SDK's agent app (handlers per method, the
 * SDK's NDJSON stream: it answers malformed JSON, unknown methods and bad params with JSON-RPC errors). Every session
 * is an Agentry session on the same host the app and the CLI use, through the same bridge calls.
 */
export function serveAcp(o: AcpServerOptions): AcpServer {
  const sessions = new Map<string, AcpSession>()
  let caps: ClientCapabilities = {}
  let lastWrite: Promise<void> = Promise.resolve()

  const link = new HostLink(o.connectHost, (reason) => {
    o.log(reason)
    for (const s of sessions.values()) s.hostLost(reason)
    // Reconnect now, so background work of the editor's sessions keeps reaching it.
    void link.get().then(
      (handle) => {
        o.log(handle.attached ? 'attached to the running Agentry host' : 'running the Agentry host in this process again')
        for (const s of sessions.values()) void s.ensureFollowing().catch((err: unknown) => o.log(String(err)))
      },
      (err: unknown) => o.log(`could not reach an Agentry host: ${err instanceof Error ? err.message : String(err)}`),
    )
  })

  const viewOptions = (workdir: string): ViewOptions => ({ workdir, notices: Boolean(caps.session?.notices), childSessions: Boolean(caps.subagents) })
  const ports: SessionPorts = {
    link,
    notify(sessionId, update) {
      const sent = connection.client.notify(methods.client.session.update, { sessionId, update })
      lastWrite = sent.catch((err: unknown) => o.log(`could not send an update: ${err instanceof Error ? err.message : String(err)}`))
    },
    flush: () => lastWrite,
    requestPermission(request, signal) {
      return connection.client.request(methods.client.session.requestPermission, request, { cancellationSignal: signal, stopWaitingOnCancel: true })
    },
    log: o.log,
  }

  const host = async (): Promise<BridgeClient> => (await link.get()).api
  // The sessions' slash commands (issue 27), as the editor's completion lists them: sent when a session opens, and
  // again after a prompt when the command files changed meanwhile.
  const commands = new CommandAnnouncer((id, u) => sessions.has(id) && ports.notify(id, u), o.log)
  /** The conversation a child session shown to the editor belongs to. */
  const ownerOfChild = (sessionId: string): AcpSession | undefined => [...sessions.values()].find((s) => s.hasChild(sessionId))
  /**
   * A child session is the agent's: the editor watches it and may cancel its work, nothing else (the RFD's restricted
   * methods). Asking more of one is an error that says where to go instead.
   */
  const refuseChild = (sessionId: string, method: string): void => {
    const owner = ownerOfChild(sessionId)
    if (!owner) return
    throw RequestError.invalidParams(
      { sessionId, rootSessionId: owner.id },
      `${sessionId} is a subagent's session: its parent agent talks to it, so ${method} is not available for it; send your message to its conversation ${owner.id}, or stop the subagent with session/cancel`,
    )
  }
  const session = (sessionId: string, method: string): AcpSession => {
    const s = sessions.get(sessionId)
    if (s) return s
    refuseChild(sessionId, method)
    throw RequestError.sessionNotFound(sessionId)
  }
  const agentsOf = async (api: BridgeClient, workdir: string): Promise<AgentListEntry[]> => (await api.calls['agents.list']({ workspaceRoot: workdir })).agents

  /** A session of this connection, following its events from `afterSeq`. */
  const open = (record: SessionRecord, mode: string, api: BridgeClient, afterSeq: number, replayed?: Parameters<AcpSession['seed']>[0]): AcpSession => {
    void sessions.get(record.id)?.close()
    const s = new AcpSession(record, mode, ports, viewOptions(record.workspaceRoot))
    sessions.set(record.id, s)
    if (replayed) s.seed(replayed)
    s.follow(api, afterSeq)
    commands.opened(api, record.id, record.workspaceRoot)
    return s
  }

  /** Who passes a session's MCP servers, as Settings and `agentry mcp list` name their source. */
  let editorName = 'the editor'
  const withMcp = (s: AcpSession, servers: ClientMcpServer[]): void => {
    s.mcpServers = servers
    if (servers.length) o.log(`session ${s.id}: MCP servers from ${editorName}: ${servers.map((x) => x.name).join(', ')}`)
  }

  /** A stored root session, for load/resume (a subagent's session is opened through its conversation). */
  const stored = async (api: BridgeClient, sessionId: string, method: string) => {
    refuseChild(sessionId, method)
    const detail = await api.calls['sessions.get']({ sessionId }).catch((err: unknown) => {
      throw toRequestError(err)
    })
    if (detail.session.parentId) {
      const root = detail.ancestors[0]?.id ?? detail.session.parentId
      throw RequestError.invalidParams({ sessionId, root }, `${sessionId} is a subagent's session; open its conversation ${root} (the child is shown inside it), or run agentry show ${sessionId}`)
    }
    return detail
  }

  const app = agent({ name: 'agentry' })
    .onRequest(methods.agent.initialize, ({ params }) => {
      caps = params.clientCapabilities ?? {}
      editorName = `${params.clientInfo?.title ?? params.clientInfo?.name ?? 'the editor'} (ACP)`
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        agentInfo: { name: 'agentry', title: 'Agentry', version: o.version },
        authMethods: [],
      }
    })
    .onRequest(methods.agent.session.new, async ({ params }) => {
      if (!path.isAbsolute(params.cwd)) throw RequestError.invalidParams({ cwd: params.cwd }, `cwd must be an absolute path (got ${JSON.stringify(params.cwd)})`)
      const servers = clientMcpServers(params.mcpServers, editorName)
      try {
        const api = await host()
        const { session: record } = await api.calls['sessions.create']({ workspaceRoot: params.cwd })
        const agents = await agentsOf(api, record.workspaceRoot)
        withMcp(open(record, record.agent, api, 0), servers)
        return { sessionId: record.id, modes: modeState(agents, record.agent), configOptions: configOptions(record.model) }
      } catch (err) {
        throw toRequestError(err)
      }
    })
    .onRequest(methods.agent.session.load, async ({ params }) => {
      const servers = clientMcpServers(params.mcpServers, editorName)
      const api = await host().catch((err: unknown) => Promise.reject(toRequestError(err)))
      const detail = await stored(api, params.sessionId, 'session/load')
      const mode = currentAgent(detail.session, detail.messages)
      // History first, as session/update notifications; then the live stream from where the history ends.
      for (const update of replayUpdates(detail.messages, viewOptions(detail.session.workspaceRoot))) ports.notify(detail.session.id, update)
      withMcp(open(detail.session, mode, api, detail.lastSeq, detail.messages), servers)
      await ports.flush()
      return { modes: modeState(await agentsOf(api, detail.session.workspaceRoot), mode), configOptions: configOptions(detail.session.model) }
    })
    .onRequest(methods.agent.session.resume, async ({ params }) => {
      const servers = clientMcpServers(params.mcpServers, editorName)
      const api = await host().catch((err: unknown) => Promise.reject(toRequestError(err)))
      const detail = await stored(api, params.sessionId, 'session/resume')
      const mode = currentAgent(detail.session, detail.messages)
      withMcp(open(detail.session, mode, api, detail.lastSeq, detail.messages), servers)
      return { modes: modeState(await agentsOf(api, detail.session.workspaceRoot), mode), configOptions: configOptions(detail.session.model) }
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      try {
        const api = await host()
        const offset = params.cursor ? Number(params.cursor) : 0
        if (!Number.isInteger(offset) || offset < 0) throw RequestError.invalidParams({ cursor: params.cursor }, 'cursor: pass the nextCursor of the previous page')
        const { sessions: rows } = await api.calls['sessions.list']({ workspaceRoot: params.cwd ?? undefined, limit: SESSIONS_PAGE, offset })
        return {
          sessions: rows.map((r) => ({ sessionId: r.id, cwd: r.workspaceRoot, title: r.title || null, updatedAt: new Date(r.updatedAt).toISOString() })),
          ...(rows.length === SESSIONS_PAGE ? { nextCursor: String(offset + SESSIONS_PAGE) } : {}),
        }
      } catch (err) {
        throw toRequestError(err)
      }
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      await session(params.sessionId, 'session/close').close()
      sessions.delete(params.sessionId)
      commands.forget(params.sessionId)
      return {}
    })
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      const s = session(params.sessionId, 'session/set_mode')
      const agents = await agentsOf(await host(), s.workdir).catch((err: unknown) => Promise.reject(toRequestError(err)))
      if (!pickableAgents(agents).some((a) => a.name === params.modeId)) {
        throw RequestError.invalidParams({ modeId: params.modeId }, `no agent "${params.modeId}" to switch to; pick one of ${pickableAgents(agents).map((a) => a.name).join(', ')}`)
      }
      s.mode = params.modeId
      return {}
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
      const s = session(params.sessionId, 'session/set_config_option')
      const api = await host()
      const { session: record } = await api.calls['sessions.get']({ sessionId: s.id }).catch((err: unknown) => Promise.reject(toRequestError(err)))
      if (params.configId !== MODEL_OPTION) throw RequestError.invalidParams({ configId: params.configId }, `no option "${params.configId}"; the only one is "${MODEL_OPTION}"`)
      if (params.value !== modelRefText(record.model)) {
        throw RequestError.invalidParams({ value: params.value }, 'a session keeps the model it was created with; set the default model in Agentry (config.yaml or Settings) and start a new session')
      }
      return { configOptions: configOptions(record.model) }
    })
    .onRequest(methods.agent.session.prompt, async ({ params, signal }) => {
      const s = session(params.sessionId, 'session/prompt')
      const refresh = () => commands.refresh(host, s.id, s.workdir)
      let answer: PromptResponse
      try {
        answer = await s.prompt(params.prompt, signal)
      } catch (err) {
        void refresh() // after the error: the host may be gone, and the answer must not wait for it to be back
        throw err
      }
      // A command file added, edited or removed meanwhile reaches the editor before the prompt's answer does.
      await refresh()
      await ports.flush()
      return answer
    })
    .onNotification(methods.agent.session.cancel, async ({ params }) => {
      const s = sessions.get(params.sessionId)
      if (s) return s.cancel()
      // A child advertises `cancel`: its own work stops (and its children's); the conversation's turn goes on.
      await ownerOfChild(params.sessionId)?.cancelChild(params.sessionId)
    })

  // Handlers and ports above use it only once messages flow, which is after this line.
  const connection: AgentConnection = app.connect(ndJsonStream(o.output, o.input))
  const closed = connection.closed

  let closing: Promise<void> | undefined
  return {
    closed,
    warmUp() {
      void link.get().catch((err: unknown) => o.log(`could not start the Agentry host: ${err instanceof Error ? err.message : String(err)}`))
    },
    editorFiles(rootSessionId) {
      if (!sessions.has(rootSessionId)) return undefined
      const client = connection.client
      const files: EditorFiles = {}
      if (caps.fs?.readTextFile) {
        files.readText = async (path) => (await client.request(methods.client.fs.readTextFile, { sessionId: rootSessionId, path })).content
      }
      if (caps.fs?.writeTextFile) {
        files.writeText = async (path, content) => void (await client.request(methods.client.fs.writeTextFile, { sessionId: rootSessionId, path, content }))
      }
      return files.readText || files.writeText ? files : undefined
    },
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...sessions.values()].map((s) => s.close()))
        sessions.clear()
        connection.close()
        await link.close()
      })()
      return closing
    },
  }
}
