import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable'
import { foldEvent, type AgentEvent, type ApprovalRecord, type MessageRecord, type MessageWithParts, type SubagentEvent } from '../../src-shared'
import { approvalTitle } from './approval-view'
import { TaskProgress } from './task-progress'
import { taskProgressContent } from './task-view'
import { toolContent, toolKind, toolLocations, toolStatus } from './tool-view'
import { callFields, callFromPart, callSettled, classify, noticeUpdate, planUpdate, taskCard, textChunk, type CallState, type ViewOptions } from './view'

/** How often a running subagent's card in the editor is redrawn at most (its events come many per second). */
const PROGRESS_MS = 80

/**
 * How long a new call stays `pending` when nothing says it runs. The host tells when a call asks for approval, not
 * when its permission check let it through: a call that asks does so at once (the check runs right after the call
 * starts), so one that has not asked by then runs, and a long command shows as in progress rather than pending.
 */
export const START_GRACE_MS = 1500

/** A subagent's tool call that asked for approval, shown as a call of its own (with the agent path in its title). */
interface ChildCall {
  id: string
  toolName: string
  input: unknown
  open: boolean
  /** allowed: in progress (until then pending) */
  running: boolean
}

/** How a view differs when the client shows subagents as child sessions (each child has a view of its own). */
export interface LiveMode {
  /** children are child sessions: a task call shows its card and answer, not what the child does (its session does) */
  childSessions?: boolean
  /** a child's view: how a message that arrives in the session reads (from its parent, or the person's) */
  incoming?: (m: MessageRecord, text: string) => SessionUpdate
}

/**
 * The live half of the view: a session's own events as `session/update`s (a root's; with child sessions, also each
 * child's, on its own id). Text streams as message and thought chunks; the session's own tool calls become tool calls
 * whose final fields are the replay's (view.ts); each `task` call shows its child's progress until the child's answer
 * replaces it; `todo` becomes the plan.
 */
export class LiveView {
  private readonly calls = new Map<string, CallState>()
  /** the model's tool call id → ACP tool call id (the part id), for approvals of the root's own calls */
  private readonly byModelId = new Map<string, string>()
  /** a child's session id (its task id) → the root's task call that runs it */
  private readonly tasks = new Map<string, string>()
  private readonly progress = new Map<string, TaskProgress>()
  private readonly timers = new Map<string, NodeJS.Timeout>()
  /** calls announced pending, each until its grace ends (START_GRACE_MS) */
  private readonly starting = new Map<string, NodeJS.Timeout>()
  private readonly childCalls = new Map<string, ChildCall>()
  private readonly messages = new Map<string, MessageRecord>()
  private readonly results = new Map<string, string>()

  constructor(
    private readonly root: string,
    private readonly o: ViewOptions,
    private readonly send: (u: SessionUpdate) => void,
    /** a prompt this connection sent (the editor already shows it) */
    private readonly own: (requestId: unknown) => boolean,
    private readonly mode: LiveMode = {},
  ) {}

  /** The stored calls of a loaded session, so events that finish them later (a resumed approval) find them. */
  seed(messages: MessageWithParts[]): void {
    for (const m of messages) {
      this.messages.set(m.id, m)
      for (const part of m.parts) {
        if (!part.type.startsWith('tool-') || !part.toolCallId) continue
        const call = callFromPart(part, this.o.workdir, this.results)
        this.calls.set(call.id, call)
        this.byModelId.set(part.toolCallId, call.id)
        if (call.card) this.tasks.set(call.card.taskId, call.id)
      }
    }
  }

  onEvent(e: AgentEvent): void {
    if (e.type === 'subagent_event') return this.onSubagent(e)
    if (e.sessionId !== this.root) return
    switch (e.type) {
      case 'message_created':
        this.messages.set(e.message.id, e.message)
        return
      case 'part_updated':
        return this.onWholePart(e.part)
      case 'content_delta':
        return this.send(textChunk(e.partType === 'text' ? 'agent' : 'thought', e.delta, e.messageId))
      case 'tool_call_start': {
        // Pending until it is known to run: it may yet ask for approval (see CallState.waiting).
        const call: CallState = { id: e.partId, toolName: e.toolName, input: e.input, state: 'running', workdir: this.o.workdir, waiting: true }
        this.calls.set(call.id, call)
        this.byModelId.set(e.toolCallId, call.id)
        if (e.toolName === 'todo') return
        this.send({ sessionUpdate: 'tool_call', toolCallId: call.id, ...callFields(call) })
        this.starting.set(call.id, setTimeout(() => this.runs(call.id), START_GRACE_MS).unref())
        return
      }
      case 'tool_call_end': {
        const call = this.calls.get(e.partId)
        if (!call) return
        this.settled(call.id)
        Object.assign(call, { state: e.ok ? 'ok' : 'error', output: e.ok ? e.output : undefined, error: e.ok ? undefined : e.output, metadata: e.metadata })
        if (call.toolName === 'todo') {
          const plan = e.ok ? planUpdate(call.input) : undefined
          if (plan) this.send(plan)
          return
        }
        return this.sendCall(call)
      }
      case 'task_update': {
        const call = this.calls.get(e.partId)
        if (!call) return
        call.card = e.task
        call.waiting = false // its child runs
        this.settled(call.id)
        this.tasks.set(e.task.taskId, call.id)
        this.progressOf(call.id).card = e.task
        // A background child's end is its card's; a blocking one's is its tool call's (tool_call_end follows).
        if (callSettled(call)) return this.sendCall(call)
        return this.scheduleProgress(call.id)
      }
      default:
        return
    }
  }

  /** The session's workspace (relative paths in a call are shown against it). */
  get workdir(): string {
    return this.o.workdir
  }

  /**
   * The ACP tool call an approval is about: the root's own call, or a subagent's call shown as a call of its own
   * (announced here, pending). `pending`: whether the call still waits to start, so the request may say `pending`
   * without taking a running call's status back (one asked again while it runs keeps in_progress).
   */
  callForApproval(a: ApprovalRecord): { toolCallId: string; pending: boolean } {
    if (a.sessionId === this.root) {
      const known = this.calls.get(this.byModelId.get(a.toolCallId) ?? '')
      if (known) {
        this.settled(known.id) // it asks: pending until it is allowed
        return { toolCallId: known.id, pending: callFields(known).status === 'pending' }
      }
    }
    const key = `${a.sessionId}:${a.toolCallId}`
    const existing = this.childCalls.get(key)
    if (existing) return { toolCallId: existing.id, pending: existing.open && !existing.running }
    const id = `sub:${key}`
    const input = a.kind === 'tool' ? a.arguments.input : a.arguments
    this.childCalls.set(key, { id, toolName: a.toolName, input, open: true, running: false })
    this.send({
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: approvalTitle(a),
      kind: toolKind(a.toolName),
      status: 'pending',
      locations: toolLocations(a.toolName, input, this.o.workdir),
      rawInput: input,
      _meta: { agentry: { sessionId: a.sessionId, agentPath: a.agentPath, subagent: a.sessionId !== this.root } },
    })
    return { toolCallId: id, pending: true }
  }

  /** An approval was granted: its call, pending until now, is in progress (once: a later update says the rest). */
  allowed(toolCallId: string): void {
    if (this.calls.has(toolCallId)) return this.runs(toolCallId)
    const c = [...this.childCalls.values()].find((x) => x.id === toolCallId)
    if (!c || !c.open || c.running) return
    c.running = true
    this.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' })
  }

  /** A call of the session's own that waited is known to run (allowed, or its grace passed without an ask). */
  private runs(id: string): void {
    this.settled(id)
    const call = this.calls.get(id)
    if (!call?.waiting) return
    call.waiting = false
    if (call.state === 'running') this.send({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' })
  }

  /** Whether a call runs is known (it ended, asked, or was allowed): its grace timer is done. */
  private settled(id: string): void {
    clearTimeout(this.starting.get(id))
    this.starting.delete(id)
  }

  /** The host went away: nothing open will hear its end any more. */
  settleOpen(reason: string): void {
    for (const call of this.calls.values()) {
      if (call.toolName === 'todo' || callSettled(call)) continue
      this.settled(call.id)
      Object.assign(call, { state: 'error', error: reason })
      this.sendCall(call)
    }
    for (const c of this.childCalls.values()) this.endChildCall(c, false, reason)
  }

  private onWholePart(part: { messageId: string; type: string; data: Record<string, unknown>; id: string; toolState: string | null; toolCallId: string | null }): void {
    const call = this.calls.get(part.id)
    if (call && part.toolState && part.type.startsWith('tool-')) {
      // A call closed outside the loop (a restart's cleanup) ends here.
      const next = part.toolState === 'output-available' ? 'ok' : part.toolState === 'output-error' ? 'error' : 'running'
      if (next !== call.state) {
        Object.assign(call, { state: next, output: part.data.output, error: part.data.error, card: taskCard(part.data.subagent) ?? call.card })
        this.sendCall(call)
      }
      return
    }
    const message = this.messages.get(part.messageId)
    if (!message || part.type !== 'text' || typeof part.data.text !== 'string') return
    const body = part.data.text
    const whole = classify(message, body)
    if (whole.kind === 'user') {
      if (this.mode.incoming) this.send(this.mode.incoming(message, body))
      else if (!this.own(message.metadata.requestId)) this.send(textChunk('user', body, message.id))
    } else if (whole.kind === 'notice') {
      this.send(noticeUpdate(body, message.id, this.o))
    } else if (whole.kind === 'background') {
      this.results.set(whole.taskId, body)
      const call = this.calls.get(this.tasks.get(whole.taskId) ?? '')
      if (call) {
        call.backgroundResult = body
        this.sendCall(call)
      }
    } else {
      this.send(textChunk('agent', body, message.id))
    }
  }

  private onSubagent(e: SubagentEvent): void {
    const callId = this.tasks.get(e.sessionId)
    const { leaf, depth } = foldEvent(e)
    if (leaf.type === 'tool_call_end') this.onChildToolEnd(leaf.sessionId, leaf.toolCallId, leaf.ok, leaf.output, leaf.metadata)
    if (!callId || this.mode.childSessions) return
    // Depth below the task's own child: 0 for the child itself.
    if (this.progressOf(callId).onChildEvent(leaf, depth - 1)) this.scheduleProgress(callId)
  }

  private onChildToolEnd(sessionId: string, toolCallId: string, ok: boolean, output: string, metadata?: Record<string, unknown>): void {
    const c = this.childCalls.get(`${sessionId}:${toolCallId}`)
    if (c) this.endChildCall(c, ok, output, metadata)
  }

  private endChildCall(c: ChildCall, ok: boolean, output: string, metadata?: Record<string, unknown>): void {
    if (!c.open) return
    c.open = false
    const state = ok ? 'ok' : 'error'
    const content = toolContent({ toolName: c.toolName, input: c.input, state, output: ok ? output : undefined, error: ok ? undefined : output, metadata, workdir: this.o.workdir })
    this.send({ sessionUpdate: 'tool_call_update', toolCallId: c.id, status: toolStatus(state), content })
  }

  private progressOf(callId: string): TaskProgress {
    let p = this.progress.get(callId)
    if (!p) this.progress.set(callId, (p = new TaskProgress()))
    return p
  }

  private scheduleProgress(callId: string): void {
    if (this.timers.has(callId)) return
    this.timers.set(
      callId,
      setTimeout(() => {
        this.timers.delete(callId)
        const call = this.calls.get(callId)
        const p = this.progress.get(callId)
        if (!call || !p || callSettled(call) || call.state === 'error') return
        this.send({ sessionUpdate: 'tool_call_update', toolCallId: callId, status: 'in_progress', content: taskProgressContent(p.card, p.snapshot(), p.writing), ...this.childLink(call) })
      }, PROGRESS_MS),
    )
  }

  /** A call's whole current state; a pending progress redraw is dropped (this supersedes it). */
  private sendCall(call: CallState): void {
    clearTimeout(this.timers.get(call.id))
    this.timers.delete(call.id)
    this.send({ sessionUpdate: 'tool_call_update', toolCallId: call.id, ...callFields(call), ...this.childLink(call) })
  }

  /**
   * A task call names its child session. ACP v1 (this SDK's schema) has no `session` tool call content to link them,
   * so the link is Agentry's own `_meta`; the child session itself says the rest.
   */
  private childLink(call: CallState): { _meta?: Record<string, unknown> } {
    return this.mode.childSessions && call.card ? { _meta: { agentry: { childSessionId: call.card.taskId } } } : {}
  }

  dispose(): void {
    for (const t of [...this.timers.values(), ...this.starting.values()]) clearTimeout(t)
    this.timers.clear()
    this.starting.clear()
  }
}
