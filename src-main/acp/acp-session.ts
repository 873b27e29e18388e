import crypto from 'node:crypto'
import { RequestError, type ContentBlock, type PromptResponse, type RequestPermissionRequest, type RequestPermissionResponse, type SessionUpdate } from '@agentclientprotocol/sdk/unstable'
import type { AgentEvent, ApprovalRecord, ClientMcpServer, MessageWithParts, SessionRecord, SessionStatus, SubscriptionMessage } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'
import { ChildSessions } from './child-sessions'
import { toRequestError } from './errors'
import type { HostLink } from './host-link'
import { LiveView } from './live-view'
import { PermissionRequests } from './permission-requests'
import { promptContent } from './prompt-text'
import { isUndoPrompt, undoFromEditor } from './undo-command'
import type { ViewOptions } from './view'

/** What a session needs of the connection it belongs to. */
export interface SessionPorts {
  link: HostLink
  /** queued in order behind everything sent before */
  notify(sessionId: string, update: SessionUpdate): void
  /** resolves when everything queued so far is written */
  flush(): Promise<void>
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>
  log(message: string): void
}

interface Turn {
  requestId: string
  queueId?: string
  started: boolean
  cancelled: boolean
  lastError?: { code: string; message: string }
  finish(result: PromptResponse | Error): void
}

const TERMINAL = new Set<SessionStatus>(['idle', 'error', 'aborted'])

/**
 * One Agentry root session as an ACP session: its event stream becomes `session/update`s (LiveView), a prompt is a
 * queued message whose turn ends with the root's `turn_complete`, a cancel aborts the run and every descendant,
 * and approvals from any depth become permission requests that answer the same records the app answers. For a
 * client that advertised `subagents`, every subagent is also a child session of its own (ChildSessions).
 */
export class AcpSession {
  readonly id: string
  readonly workdir: string
  /** the agent the next prompt runs (the session mode) */
  mode: string
  /** the MCP servers the editor passed for this session: sent with every prompt */
  mcpServers: ClientMcpServer[] = []
  private readonly view: LiveView
  private api: BridgeClient | undefined
  private unsubscribe: (() => void) | undefined
  private lastSeq = 0
  private readonly turns = new Map<string, Turn>()
  private readonly ownRequests = new Set<string>()
  private active: Turn | undefined
  private readonly permissions: PermissionRequests
  /** the subagents as child sessions, when the client advertised `subagents` */
  private readonly children: ChildSessions | undefined
  private title: string
  private activeAgent: unknown
  private confirming = false
  private reconfirm = false
  private closed = false

  constructor(
    record: SessionRecord,
    mode: string,
    private readonly ports: SessionPorts,
    o: ViewOptions,
  ) {
    this.id = record.id
    this.workdir = record.workspaceRoot
    this.mode = mode
    this.title = record.title
    this.activeAgent = record.metadata.activeAgent
    const own = (requestId: unknown) => typeof requestId === 'string' && this.ownRequests.has(requestId)
    this.view = new LiveView(this.id, o, (u) => this.send(u), own, { childSessions: o.childSessions })
    this.children = o.childSessions ? new ChildSessions(this.id, o, (sessionId, u) => this.send(u, sessionId)) : undefined
    this.permissions = new PermissionRequests({
      requestPermission: (request, signal) => ports.requestPermission(request, signal),
      api: () => this.ensureFollowing(),
      log: ports.log,
      placeOf: (a) => this.placeOf(a),
    })
  }

  /** A child session of this conversation (shown to a client that advertised `subagents`). */
  hasChild(sessionId: string): boolean {
    return this.children?.has(sessionId) ?? false
  }

  /** `session/cancel` on a child: that child and the children it started stop; its parent reads why and goes on. */
  async cancelChild(sessionId: string): Promise<void> {
    try {
      const api = await this.ensureFollowing()
      await api.calls['tasks.abort']({ taskId: sessionId })
    } catch (err) {
      this.ports.log(`could not stop subagent ${sessionId}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  /** Calls that a loaded transcript already shows, so their later events (a resumed approval) find them. */
  seed(messages: MessageWithParts[]): void {
    this.view.seed(messages)
  }

  /** Follow the session's events after `afterSeq` (everything up to it is new, or was replayed from the transcript). */
  follow(api: BridgeClient, afterSeq: number): void {
    this.unsubscribe?.()
    this.api = api
    this.lastSeq = afterSeq
    this.unsubscribe = api.subscribe({ sessionId: this.id, afterSeq }, (m) => this.onMessage(m), (err) => this.ports.log(`session ${this.id}: ${err.message}`))
  }

  async prompt(blocks: ContentBlock[], signal: AbortSignal): Promise<PromptResponse> {
    const { text, attachments } = promptContent(blocks)
    const api = await this.ensureFollowing()
    if (isUndoPrompt(text)) return undoFromEditor(api, this.id, (u) => this.send(u))
    const requestId = `acp-${crypto.randomUUID()}`
    let finish!: Turn['finish']
    const done = new Promise<PromptResponse>((resolve, reject) => {
      finish = (r) => (r instanceof Error ? reject(r) : resolve(r))
    })
    const turn: Turn = { requestId, started: false, cancelled: false, finish: (r) => this.turns.delete(requestId) && finish(r) }
    this.turns.set(requestId, turn)
    this.ownRequests.add(requestId)
    // The editor may cancel the request itself ($/cancel_request) instead of sending session/cancel.
    const onAbort = () => void this.cancel()
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      const queued = await api.calls['messages.prompt']({ sessionId: this.id, requestId, text, agent: this.mode, ...(attachments.length ? { attachments } : {}), ...(this.mcpServers.length ? { mcpServers: this.mcpServers } : {}) })
      turn.queueId = queued.queueId
      if (turn.cancelled) void this.cancelTurn(turn)
      const result = await done
      await this.ports.flush()
      return result
    } catch (err) {
      this.turns.delete(requestId)
      throw toRequestError(err)
    } finally {
      signal.removeEventListener('abort', onAbort)
    }
  }

  /** `session/cancel`: every prompt of this session ends `cancelled`; the run and all its children stop. */
  async cancel(): Promise<void> {
    const turns = [...this.turns.values()]
    for (const t of turns) t.cancelled = true
    await Promise.all(turns.map((t) => this.cancelTurn(t)))
  }

  private async cancelTurn(turn: Turn): Promise<void> {
    const api = this.api
    if (!api || !turn.queueId) return // asked again once the prompt is queued
    try {
      if (!turn.started) {
        const { cancelled } = await api.calls['queue.cancel']({ queueId: turn.queueId })
        if (cancelled) return turn.finish({ stopReason: 'cancelled' })
      }
      await api.calls['messages.abort']({ sessionId: this.id })
    } catch (err) {
      this.ports.log(`could not cancel the run of ${this.id}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  /** The connection closed or the session was closed: stop what this connection started. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    // Nothing more is asked from now on (as nothing more is sent); what is open is withdrawn.
    this.permissions.withdrawAll(true)
    if (this.turns.size) await this.cancel()
    this.unsubscribe?.()
    this.unsubscribe = undefined
    this.view.dispose()
    this.children?.dispose()
  }

  /** The host went away: prompts in flight fail (their run is gone with it); the next request connects again. */
  hostLost(reason: string): void {
    this.unsubscribe = undefined
    this.api = undefined
    this.permissions.withdrawAll()
    this.view.settleOpen(reason)
    this.children?.hostLost(reason)
    for (const t of [...this.turns.values()]) t.finish(new RequestError(-32603, `${reason} The run of this prompt was interrupted; send it again.`))
  }

  async ensureFollowing(): Promise<BridgeClient> {
    if (this.api) return this.api
    const { api } = await this.ports.link.get()
    if (!this.api) this.follow(api, this.lastSeq)
    return api
  }

  /** On this session, or on one of its child sessions. */
  private send(update: SessionUpdate, sessionId = this.id): void {
    if (!this.closed) this.ports.notify(sessionId, update)
  }

  /** An announced child's approval asks in the child's session; any other in this one (as without child sessions). */
  private placeOf(a: ApprovalRecord): { sessionId: string; view: LiveView; child: boolean } {
    const view = this.children?.approvalOf(a)
    return view ? { sessionId: a.sessionId, view, child: true } : { sessionId: this.id, view: this.view, child: false }
  }

  private onMessage(m: SubscriptionMessage): void {
    if (m.kind === 'snapshot') {
      for (const a of m.approvals) this.permissions.ask(a)
      return
    }
    if (m.kind === 'resync') {
      this.ports.log(`session ${this.id}: ${m.reason}; following from now on`)
      void this.refollow()
      return
    }
    this.lastSeq = m.event.seq
    this.onEvent(m.event.event)
  }

  private async refollow(): Promise<void> {
    const api = this.api
    if (!api) return
    try {
      const { lastSeq } = await api.calls['sessions.get']({ sessionId: this.id })
      if (this.api === api) this.follow(api, lastSeq)
    } catch (err) {
      this.ports.log(`session ${this.id}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  private onEvent(e: AgentEvent): void {
    // Children first: one is announced before anything carries its id (its permission requests included).
    this.children?.onEvent(e)
    this.permissions.onEvent(e)
    if (e.type !== 'subagent_event' && e.sessionId === this.id) this.trackRoot(e)
    this.view.onEvent(e)
    if (e.type === 'turn_complete' && e.sessionId === this.id && this.active) {
      const turn = this.active
      this.active = undefined
      this.end(turn, e.finishReason)
    }
  }

  /** Prompts, errors and session changes of the root itself. */
  private trackRoot(e: Exclude<AgentEvent, { type: 'subagent_event' }>): void {
    switch (e.type) {
      case 'message_created': {
        const turn = e.message.role === 'user' ? this.turns.get(String(e.message.metadata.requestId)) : undefined
        if (turn) {
          turn.started = true
          this.active = turn
        }
        return
      }
      case 'error':
        if (this.active) this.active.lastError = { code: e.code, message: e.message }
        return
      case 'status_change':
        if (TERMINAL.has(e.status) && this.turns.size) void this.confirmEnds()
        return
      case 'session_updated': {
        const s = e.session
        if (s.title && s.title !== this.title) {
          this.title = s.title
          this.send({ sessionUpdate: 'session_info_update', title: s.title, updatedAt: new Date(s.updatedAt).toISOString() })
        }
        // An approved plan switched the session to build: the editor's mode follows.
        if (s.metadata.activeAgent !== this.activeAgent) {
          this.activeAgent = s.metadata.activeAgent
          if (typeof this.activeAgent === 'string' && this.activeAgent !== this.mode) {
            this.mode = this.activeAgent
            this.send({ sessionUpdate: 'current_mode_update', currentModeId: this.mode })
          }
        }
        return
      }
      default:
        return
    }
  }

  /**
   * The root stopped. A turn that started ends with its `turn_complete`, sent in the same batch, so it has arrived by
   * the time the host answers a call made now. A prompt that never started (cancelled in the queue, or refused when
   * its turn came) is over once the host no longer has it queued.
   */
  private async confirmEnds(): Promise<void> {
    if (this.confirming) {
      this.reconfirm = true
      return
    }
    this.confirming = true
    try {
      do {
        this.reconfirm = false
        const api = this.api
        if (!api) return
        const { entries } = await api.calls['queue.list']({ sessionId: this.id })
        const { session } = await api.calls['sessions.get']({ sessionId: this.id })
        for (const turn of [...this.turns.values()]) {
          if (turn === this.active || turn.started || !turn.queueId) continue
          const entry = entries.find((x) => x.id === turn.queueId)
          if (!entry || entry.status !== 'queued') this.end(turn, turn.cancelled || entry?.status === 'cancelled' ? 'aborted' : 'error')
        }
        const active = this.active
        if (active && TERMINAL.has(session.status)) {
          this.active = undefined
          this.end(active, session.status === 'aborted' ? 'aborted' : session.status === 'error' ? 'error' : 'stop')
        }
      } while (this.reconfirm)
    } catch (err) {
      this.ports.log(`session ${this.id}: ${err instanceof Error ? err.message : String(err)}`)
    } finally {
      this.confirming = false
    }
  }

  private end(turn: Turn, reason: 'stop' | 'max_steps' | 'aborted' | 'error' | 'budget'): void {
    if (turn.cancelled || reason === 'aborted') return turn.finish({ stopReason: 'cancelled' })
    if (reason === 'stop') return turn.finish({ stopReason: 'end_turn' })
    // ACP has no budget stop: a run stopped at its budget ended at a limit on its requests, as at the step cap.
    if (reason === 'max_steps' || reason === 'budget') return turn.finish({ stopReason: 'max_turn_requests' })
    const message = turn.lastError?.message ?? 'The run failed before it could answer.'
    turn.finish(new RequestError(-32603, message, { code: turn.lastError?.code ?? 'run_failed', sessionId: this.id }))
  }
}
