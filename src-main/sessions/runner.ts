import type { AgentInfo, ApprovalRecord, ClientMcpServer, Config, HeadlessRun, MessageWithParts, ModelRef, QueueEntry, SessionRecord, SessionStatus, SubagentMeta, TokenUsage } from '../../src-shared'
import type { ResumeHook } from '../approvals'
import type { EventHub } from '../events'
import { appendErrorMessage, appendTextMessage, awaitsAnswer, buildPrompt, emptyUsage, errorCode, runTurn, StoredTranscript } from '../loop'
import { defaultModelRef, type ModelInfo } from '../models'
import type { Ruleset } from '../permissions'
import { agentRules, subagentRules, withClientMcpServers, type BackgroundSink, type RunLevel, type RunSettings } from '../runtime'
import type { ApprovalsRepository, QueueRepository, SessionsRepository, TranscriptRepository } from '../store'
import { INTERRUPTED_REASON, USER_STOP_REASON, type Subagents } from '../subagents'
import { clipMiddle } from './clip-middle'
import { maybeCompact } from './compaction'
import { ancestorsOf, emitterFor } from './emitter'
import { noteRuleErrors } from './rule-notice'
import { helperModel } from './helper-model'
import { generateTitle } from './title'
import { settleWaitingCalls, waitingCalls } from './waiting-calls'

export interface RunnerDeps {
  sessions: SessionsRepository
  transcript: TranscriptRepository
  queue: QueueRepository
  /** approvals left waiting across a restart */
  approvalRecords: ApprovalsRepository
  hub: EventHub
  subagents: Subagents
  agents(workdir: string): AgentInfo[]
  /** configuration, rules and agents as on disk now: read once per prompt, kept for the whole run */
  settings(workdir: string): RunSettings
  /** the model an agent's file names, resolved with the run's config; undefined = inherit */
  agentModel(agent: AgentInfo, config: Config): ModelRef | undefined
  /** context window and price of a model, with the run's config */
  modelInfo(ref: ModelRef, config: Config): Promise<ModelInfo>
  headless: boolean
  /** an unexpected failure of a run: logged (never its content); returns the id the person is shown */
  fault(where: string, err: unknown): string
  /** the conversation's scratchpad folder, made if needed; undefined when it cannot be (the run goes on without it) */
  scratchpad?(rootSessionId: string): string | undefined
}

const HELPER_GRACE_MS = 2000
/** Stopping a tree is repeated while runs in it keep (re)starting — a live parent may resume a child meanwhile. */
const MAX_STOP_ROUNDS = 20
const INTERRUPTED_NOTICE = 'Interrupted: the agentry run command that ran this turn was stopped (Ctrl-C or SIGTERM). Tool calls in flight were stopped and not repeated. Send a message to continue.'

interface ActiveRun {
  controller: AbortController
  done: Promise<void>
}

export class RunnerError extends Error {
  override readonly name = 'RunnerError'
  constructor(
    readonly code: 'not_found' | 'conflict' | 'invalid_request',
    message: string,
  ) {
    super(message)
  }
}

/**
 * One run per session at a time. Prompts go through a persistent queue (idempotent by request id) and start
 * when the session is idle; background completions start a turn of their own when the parent is idle.
 */
export class SessionRunner implements BackgroundSink, ResumeHook {
  private readonly active = new Map<string, ActiveRun>()
  /** headless grants of prompts still queued (in memory: a restarted host runs them as ordinary prompts) */
  private readonly promptGrants = new Map<string, Ruleset>()
  /** per root session: the headless grants of the prompt being worked on, kept for the turns its children start */
  private readonly runGrants = new Map<string, Ruleset>()
  /** the same for MCP servers a front end passed with a prompt (an editor over ACP): per queued prompt, then per root */
  private readonly promptMcp = new Map<string, ClientMcpServer[]>()
  private readonly runMcp = new Map<string, ClientMcpServer[]>()
  private readonly wakeups = new Set<string>()
  /** sessions whose calls left waiting across a restart are all answered: the next turn runs them first */
  private readonly resumes = new Set<string>()
  private readonly settled = new Set<() => void>()
  /** fire-and-forget helper work (titles) that must still end before the host closes the store */
  private readonly helpers = new Set<{ controller: AbortController; done: Promise<void> }>()
  /** summaries being written, per session: stopped when the session is deleted or archived */
  private readonly summaries = new Map<string, Set<AbortController>>()
  /** sessions being deleted or archived (a count: two such calls may overlap): nothing new starts in them */
  private readonly closing = new Map<string, number>()
  /** set by stop(): the host is going away */
  private stopping = false

  constructor(private readonly deps: RunnerDeps) {}

  prompt(input: { sessionId: string; requestId?: string; text: string; agent?: string; headless?: HeadlessRun; mcpServers?: ClientMcpServer[] }): { entry: QueueEntry; duplicate: boolean; queued: boolean } {
    const session = this.requireSession(input.sessionId)
    if (this.closing.has(session.id)) throw new RunnerError('conflict', 'This session is being deleted or archived right now; nothing new can start in it.')
    this.checkAgent(session, input.agent)
    const { entry, duplicate } = this.deps.queue.enqueuePrompt({ sessionId: input.sessionId, requestId: input.requestId, text: input.text, agent: input.agent })
    if (duplicate) return { entry, duplicate, queued: entry.status === 'queued' }
    if (input.headless) this.promptGrants.set(entry.id, grantRules(input.headless))
    if (input.mcpServers?.length) this.promptMcp.set(entry.id, input.mcpServers)
    const busy = this.isRunning(input.sessionId)
    if (busy) this.emit(session, { type: 'message_queued', sessionId: session.id, at: Date.now(), queueId: entry.id, text: entry.text })
    this.drain(input.sessionId)
    return { entry, duplicate: false, queued: busy }
  }

  cancelQueued(queueId: string, sessionId: string): boolean {
    const entry = this.deps.queue.listQueue(sessionId).find((e) => e.id === queueId)
    if (!entry) return false
    this.deps.queue.setQueueStatus(queueId, 'cancelled')
    const session = this.deps.sessions.getSession(sessionId)
    if (session) this.emit(session, { type: 'message_queued', sessionId, at: Date.now(), queueId, text: entry.text, removed: true })
    return true
  }

  /**
   * Retry (after a failed turn) or Regenerate (the last answer): what followed the last user message is hidden and
   * that message runs again. Idempotent by requestId, like prompts.
   */
  retry(input: { sessionId: string; requestId: string; agent?: string }): { entry: QueueEntry; duplicate: boolean; queued: boolean } {
    const session = this.requireIdle(input.sessionId, 'retry')
    this.checkAgent(session, input.agent)
    const visible = this.deps.transcript.listMessages(session.id)
    const last = visible.findLastIndex((m) => m.role === 'user' && !m.metadata.synthetic && !m.metadata.notice)
    if (last < 0) throw new RunnerError('conflict', 'There is no message to run again in this session yet.')
    const { entry, duplicate } = this.deps.queue.enqueuePrompt({ sessionId: session.id, requestId: input.requestId, text: '', agent: input.agent, kind: 'retry' })
    if (duplicate) return { entry, duplicate, queued: entry.status === 'queued' }
    if (last + 1 < visible.length) this.hide(session, visible[last + 1].id, 'retried')
    this.drain(session.id)
    return { entry, duplicate: false, queued: false }
  }

  /** Edit a sent message: it and everything after it are hidden (never deleted), and the new text is sent instead. */
  edit(input: { sessionId: string; requestId: string; messageId: string; text: string; agent?: string }): { entry: QueueEntry; duplicate: boolean; queued: boolean } {
    const session = this.requireIdle(input.sessionId, 'edit a message')
    this.checkAgent(session, input.agent)
    const message = this.deps.transcript.listMessages(session.id).find((m) => m.id === input.messageId)
    if (!message) throw new RunnerError('not_found', `No message ${input.messageId} in this session (it may have been edited already). Reload the session.`)
    if (message.role !== 'user' || message.metadata.synthetic) throw new RunnerError('invalid_request', 'Only messages you sent can be edited.')
    const { entry, duplicate } = this.deps.queue.enqueuePrompt({ sessionId: session.id, requestId: input.requestId, text: input.text, agent: input.agent })
    if (duplicate) return { entry, duplicate, queued: entry.status === 'queued' }
    this.hide(session, message.id, 'edited')
    this.drain(session.id)
    return { entry, duplicate: false, queued: false }
  }

  private hide(session: SessionRecord, fromMessageId: string, reason: 'retried' | 'edited'): void {
    const messageIds = this.deps.transcript.hideMessagesFrom(session.id, fromMessageId, reason)
    if (messageIds.length) this.emit(session, { type: 'messages_hidden', sessionId: session.id, at: Date.now(), messageIds, reason })
  }

  /** Retry and edit rewrite the end of the conversation: not while a turn is writing it, nor with prompts waiting. */
  private requireIdle(sessionId: string, what: string): SessionRecord {
    const session = this.requireSession(sessionId)
    // A child running as its parent's task counts too: hiding its messages mid-run would cut its transcript.
    if (this.isRunning(sessionId) || this.deps.queue.listQueue(sessionId, 'queued').length > 0) {
      throw new RunnerError('conflict', `This session is still working. Stop it (or wait for it to finish), then ${what}.`)
    }
    return session
  }

  private checkAgent(session: SessionRecord, agent: string | undefined): void {
    if (agent && !this.deps.agents(session.workspaceRoot).some((a) => a.name === agent)) {
      throw new RunnerError('not_found', `No agent "${agent}" in ${session.workspaceRoot}. Pick one from the agent list.`)
    }
  }

  /**
   * The person's Stop: the session's run and everything below it — children running as tasks (blocking and
   * background) and runs of stored descendant sessions — end now, and nothing starts because of it. Background
   * results it causes are stored for the record; the next turn the person starts sees them.
   */
  abort(sessionId: string, reason = USER_STOP_REASON): boolean {
    const tasks = this.deps.subagents.stop(sessionId, reason)
    const runs = [...this.active.keys()].filter((id) => id === sessionId || this.isDescendant(id, sessionId))
    for (const id of [sessionId, ...tasks, ...runs]) this.wakeups.delete(id)
    for (const id of runs) this.active.get(id)!.controller.abort(reason)
    return runs.length > 0 || tasks.length > 0
  }

  /** The hidden `summary` agent over the whole visible conversation; stored in the session's metadata. */
  async summarize(sessionId: string): Promise<string> {
    const session = this.requireSession(sessionId)
    if (this.closing.has(sessionId)) throw new RunnerError('conflict', 'This session is being deleted or archived right now.')
    const controller = new AbortController()
    const level = this.rootLevel(session, controller.signal, null, this.deps.settings(session.workspaceRoot))
    const text = renderConversation(level.transcript.history())
    if (!text.trim()) throw new RunnerError('conflict', 'This session has no messages to summarize yet.')
    let running = this.summaries.get(sessionId)
    if (!running) this.summaries.set(sessionId, (running = new Set()))
    running.add(controller)
    let result
    try {
      result = await this.deps.subagents.runHelper(level, 'summary', clipMiddle(text), helperModel(level))
    } finally {
      running.delete(controller)
      if (running.size === 0) this.summaries.delete(sessionId)
    }
    if (result.finishReason === 'aborted') throw new RunnerError('conflict', `The summary was stopped: ${result.error ?? 'aborted'}.`)
    if (result.finishReason === 'error') throw new RunnerError('conflict', `The summary agent failed: ${result.error ?? 'unknown error'}`)
    const updated = this.deps.sessions.updateSession(sessionId, { metadata: { ...this.requireSession(sessionId).metadata, summary: result.text } })
    this.emit(updated, { type: 'session_updated', sessionId, at: Date.now(), session: updated })
    return result.text
  }

  /** Pending approvals of a conversation changed: show the root as waiting (on an approval, or on an answer). */
  approvalsChanged(rootSessionId: string, pending: { kind: string }[]): void {
    const session = this.deps.sessions.getSession(rootSessionId)
    if (!session || !this.active.has(rootSessionId)) return
    const status: SessionStatus = pending.some((p) => p.kind !== 'question') ? 'waiting_on_approval' : pending.length ? 'waiting_on_user' : 'busy'
    const waitingOrBusy = new Set<SessionStatus>(['busy', 'waiting_on_approval', 'waiting_on_user'])
    if (session.status !== status && waitingOrBusy.has(session.status)) this.setStatus(session, status)
  }

  /** Approvals hook: a root session's call left waiting by a previous host can go on from stored state. */
  resumable(approval: ApprovalRecord): { workspaceRoot: string } | undefined {
    const session = this.deps.sessions.getSession(approval.sessionId)
    if (!session || approval.kind !== 'tool' || approval.sessionId !== approval.rootSessionId || this.active.has(session.id)) return undefined
    const waiting = waitingCalls(this.deps, session.id).some((w) => w.part.toolCallId === approval.toolCallId)
    return waiting ? { workspaceRoot: session.workspaceRoot } : undefined
  }

  /** Approvals hook: an answer to such a call is recorded; once every waiting call has one, the run goes on. */
  resumed(approval: ApprovalRecord): void {
    const session = this.requireSession(approval.sessionId)
    const outcome = approval.status === 'approved' ? 'approved' : 'denied'
    this.emit(session, { type: 'tool_approval_resolved', sessionId: session.id, at: Date.now(), approvalId: approval.id, outcome })
    if (waitingCalls(this.deps, session.id).some((w) => w.approval?.status === 'pending')) return
    this.resumes.add(session.id)
    this.drain(session.id)
  }

  /** A background child finished: let the parent react (now if idle, after its current run otherwise). */
  backgroundDone(sessionId: string): void {
    if (this.closing.has(sessionId)) return
    this.wakeups.add(sessionId)
    this.drain(sessionId)
  }

  isRunning(sessionId: string): boolean {
    return this.active.has(sessionId) || this.deps.subagents.isRunning(sessionId)
  }

  private isDescendant(sessionId: string, ancestorId: string): boolean {
    const session = this.deps.sessions.getSession(sessionId)
    return session !== undefined && ancestorsOf(this.deps.sessions, session).some((a) => a.id === ancestorId)
  }

  /**
   * Deleting or archiving: first every run in the session's tree stops — its own, its descendants' (stored sessions
   * prompted directly, and children running as tasks, blocking and background) and summaries being written — and
   * their writes settle; nothing new starts in the tree meanwhile (prompts are refused, queued ones cancelled, no
   * background result wakes it). Then `then` runs (the delete or the archive) and the tree is open again.
   */
  async whileStopped<T>(sessionId: string, reason: string, then: () => T): Promise<T> {
    const ids = this.deps.sessions.subtreeIds(sessionId)
    for (const id of ids) this.closing.set(id, (this.closing.get(id) ?? 0) + 1)
    try {
      await this.stopTree(ids, reason)
      return then()
    } finally {
      for (const id of ids) {
        const n = (this.closing.get(id) ?? 1) - 1
        if (n > 0) this.closing.set(id, n)
        else this.closing.delete(id)
      }
    }
  }

  /** A deleted session's memory: grants, wake-ups, a root's lane. */
  forget(ids: string[]): void {
    for (const id of ids) {
      this.wakeups.delete(id)
      this.resumes.delete(id)
      this.runGrants.delete(id)
      this.deps.subagents.forget(id)
    }
  }

  private async stopTree(ids: string[], reason: string): Promise<void> {
    for (let round = 0; round < MAX_STOP_ROUNDS; round++) {
      const waits: Promise<unknown>[] = []
      for (const id of ids) {
        this.wakeups.delete(id)
        this.resumes.delete(id)
        for (const entry of this.deps.queue.listQueue(id, 'queued')) {
          this.promptGrants.delete(entry.id)
          this.cancelQueued(entry.id, id)
        }
        const run = this.active.get(id)
        if (run) {
          run.controller.abort(reason)
          waits.push(run.done)
        }
        for (const taskId of this.deps.subagents.stop(id, reason)) waits.push(this.deps.subagents.settled(taskId))
        for (const controller of this.summaries.get(id) ?? []) controller.abort(reason)
      }
      if (waits.length === 0) return
      await Promise.allSettled(waits)
    }
    this.deps.fault('stopping a session tree', new Error(`runs of ${ids.length} session(s) kept restarting after ${MAX_STOP_ROUNDS} stops; going on anyway`))
  }

  runs(): { sessionId: string; status: SessionStatus }[] {
    return [...this.active.keys()].map((sessionId) => ({ sessionId, status: this.deps.sessions.getSession(sessionId)?.status ?? 'busy' }))
  }

  /** Resolves when no run is active and nothing is queued (CLI and tests). */
  idle(): Promise<void> {
    if (this.active.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.settled.add(resolve))
  }

  async stop(reason: string): Promise<void> {
    // Nothing starts once the host stops: a run ending here must not drain the next queued prompt (it would write
    // after the store closed); queued prompts stay queued for the next host.
    this.stopping = true
    for (const run of this.active.values()) run.controller.abort(reason)
    await Promise.allSettled([...this.active.values()].map((r) => r.done))
    // A title still being written gets a moment to land (a CLI run often ends first), then is cancelled.
    const helpers = [...this.helpers]
    const grace = new Promise((r) => setTimeout(r, HELPER_GRACE_MS).unref())
    await Promise.race([Promise.allSettled(helpers.map((x) => x.done)), grace])
    for (const x of helpers) x.controller.abort(reason)
    await Promise.allSettled(helpers.map((x) => x.done))
  }

  private inBackground(work: (signal: AbortSignal) => Promise<void>): void {
    const controller = new AbortController()
    const entry = { controller, done: work(controller.signal) }
    this.helpers.add(entry)
    void entry.done.finally(() => this.helpers.delete(entry))
  }

  /** Start queued work for every session that has some (after a host restart). */
  resumeQueues(): void {
    for (const sessionId of this.deps.queue.sessionsWithQueuedPrompts()) this.drain(sessionId)
  }

  private drain(sessionId: string): void {
    if (this.stopping || this.active.has(sessionId) || this.closing.has(sessionId)) return
    // An inspectable child running as its parent's task: one run per session, so whatever waits here goes after it.
    if (this.deps.subagents.isRunning(sessionId)) {
      void this.deps.subagents.settled(sessionId).then(() => this.drain(sessionId))
      return
    }
    const next = this.deps.queue.listQueue(sessionId, 'queued')[0]
    // A background result wakes the session only if its model has not read it yet: a run still going when the
    // result arrived reads it in its next step, and a turn started afterwards would have nothing to answer.
    if (!next && !this.resumes.has(sessionId) && this.wakeups.has(sessionId) && !this.hasUnanswered(sessionId)) this.wakeups.delete(sessionId)
    const wake = this.wakeups.has(sessionId) || this.resumes.has(sessionId)
    if (!next && !wake) {
      this.notifyIfIdle()
      return
    }
    this.wakeups.delete(sessionId)
    const controller = new AbortController()
    const run: ActiveRun = { controller, done: Promise.resolve() }
    this.active.set(sessionId, run)
    run.done = this.turn(sessionId, next, controller)
      .catch((err) => this.fail(sessionId, err))
      .finally(() => {
        this.active.delete(sessionId)
        this.drain(sessionId)
        this.notifyIfIdle()
      })
  }

  /** The session's conversation ends with something its model has not answered (a background result). */
  private hasUnanswered(sessionId: string): boolean {
    return awaitsAnswer(buildPrompt('', new StoredTranscript(this.deps.transcript, sessionId).history()))
  }

  private notifyIfIdle(): void {
    if (this.active.size > 0) return
    const waiting = [...this.settled]
    this.settled.clear()
    for (const cb of waiting) cb()
  }

  private async turn(sessionId: string, entry: QueueEntry | undefined, controller: AbortController): Promise<void> {
    const { queue, transcript: rows } = this.deps
    let session = this.requireSession(sessionId)
    const agentName = entry?.agent ?? (session.metadata.activeAgent as string | undefined) ?? session.agent
    // Read once for the whole run: files changed while it runs (even by the agent) apply from the next prompt.
    const settings = this.deps.settings(session.workspaceRoot)
    const agent = settings.agents.find((a) => a.name === agentName)
    if (entry) {
      queue.setQueueStatus(entry.id, 'started')
      // A new prompt brings its own grants (or none); a turn a background child starts keeps the current ones.
      const grants = this.promptGrants.get(entry.id)
      this.promptGrants.delete(entry.id)
      const root = rootIdOf(this.deps.sessions, session)
      if (grants) this.runGrants.set(root, grants)
      else this.runGrants.delete(root)
      const servers = this.promptMcp.get(entry.id)
      this.promptMcp.delete(entry.id)
      if (servers) this.runMcp.set(root, servers)
      else this.runMcp.delete(root)
      if (entry.status === 'queued') this.emit(session, { type: 'message_queued', sessionId, at: Date.now(), queueId: entry.id, text: entry.text, removed: true })
    }
    const transcript = new StoredTranscript(rows, sessionId)
    const { emit } = emitterFor(this.deps.hub, this.deps.sessions, session)
    if (!agent) {
      appendErrorMessage(transcript, emit, 'agent_not_found', `Agent "${agentName}" is not defined in ${session.workspaceRoot}. Pick another agent and send again.`)
      this.setStatus(session, 'error', `agent "${agentName}" is not defined any more; pick another agent`)
      return
    }
    const retrying = entry?.kind === 'retry'
    const firstPrompt = entry !== undefined && !retrying && !transcript.history().some((m) => m.role === 'user')

    let userMessageId: string | null = null
    if (entry && !retrying) {
      userMessageId = appendTextMessage(transcript, emit, 'user', entry.text, {
        ...(agent.name !== session.agent ? { agent: agent.name } : {}),
        ...(entry.requestId ? { requestId: entry.requestId } : {}),
      }).id
    }
    noteRuleErrors(transcript, emit, settings.rules.errors)
    session = this.setStatus(session, 'busy')
    // A turn without a new message (a retry, a background result, a resumed call) still belongs to the last user message.
    userMessageId ??= [...transcript.history()].reverse().find((m) => m.role === 'user' && !m.metadata.synthetic)?.id ?? null
    const level = this.rootLevel(session, controller.signal, userMessageId, settings, agent)
    if (firstPrompt && entry) this.inBackground((signal) => generateTitle(this.deps, level, session, entry.text, signal))
    // A new message supersedes calls still waiting from before a restart; otherwise this turn resumes them.
    const resuming = this.resumes.delete(sessionId) && !entry
    const info = await this.deps.modelInfo(level.modelRef, settings.config.config)
    // Priced per step: a table may bill a long prompt at a higher rate, request by request.
    let cost: number | null = 0
    let run
    try {
      run = await this.deps.subagents.prepare(level, level.transcript, {
        onStep: ({ usage }) => {
          const c = info.cost(usage)
          cost = cost === null || c === null ? null : cost + c
        },
      })
    } catch (err) {
      // Model not configured / key missing: the run cannot start; say why, in this session.
      const e = err as Error
      appendErrorMessage(transcript, emit, errorCode(e, 'internal'), e.message)
      this.setStatus(this.requireSession(sessionId), 'error', e.message)
      emit({ type: 'turn_complete', sessionId, at: Date.now(), messageId: null, finishReason: 'error', usage: emptyUsage(), text: '' })
      return
    }
    await settleWaitingCalls(this.deps, level, run, resuming)
    await maybeCompact(this.deps, level, info.contextWindow)
    const result = await runTurn(run)
    this.addUsage(level, result.usage, cost)
    // Interrupted (the client running the turn went away) is not a failure of the session: it is left idle.
    const interrupted = result.finishReason === 'aborted' && controller.signal.reason === INTERRUPTED_REASON
    const status: SessionStatus = interrupted ? 'idle' : result.finishReason === 'aborted' ? 'aborted' : result.finishReason === 'error' ? 'error' : 'idle'
    if (interrupted) appendTextMessage(level.transcript, emit, 'assistant', INTERRUPTED_NOTICE, { notice: 'interrupted' })
    session = this.setStatus(this.requireSession(sessionId), status, result.error)
    emit({
      type: 'turn_complete',
      sessionId,
      at: Date.now(),
      messageId: result.lastMessageId,
      finishReason: result.finishReason,
      usage: result.usage,
      text: result.text,
      ...(result.contextTokens !== undefined ? { contextTokens: result.contextTokens } : {}),
    })
  }

  /** The session's own totals, and — for a child session prompted directly — its ancestors' subagent totals. */
  private addUsage(level: RunLevel, usage: TokenUsage, cost: number | null): void {
    this.deps.sessions.addSessionUsage(level.sessionId, usage, cost)
    const ancestors = level.ancestorIds ?? []
    if (ancestors.length === 0) return
    this.deps.sessions.addSubagentUsage(ancestors, usage, cost)
    for (const id of ancestors) {
      const s = this.deps.sessions.getSession(id)
      if (s) this.emit(s, { type: 'session_updated', sessionId: id, at: Date.now(), session: s })
    }
  }

  /** The run level of a session prompted directly: its ancestors' rules still bound it (a child never exceeds its parent). */
  private rootLevel(session: SessionRecord, signal: AbortSignal, userMessageId: string | null, settings: RunSettings, agent?: AgentInfo): RunLevel {
    const all = settings.agents
    const own = agent ?? all.find((a) => a.name === session.agent)
    if (!own) throw new RunnerError('not_found', `Agent "${session.agent}" is not defined in ${session.workspaceRoot}.`)
    const ancestors = ancestorsOf(this.deps.sessions, session)
    const rootSessionId = ancestors[0]?.id ?? session.id
    const grants = this.runGrants.get(rootSessionId)
    // A child records the agents above it (opaque ones have no session row to find them by): all of them bound it.
    const recorded = (session.metadata.subagent as SubagentMeta | undefined)?.agentPath?.slice(0, -1)
    const above = recorded ?? ancestors.map((a) => a.agent)
    const chainAgents = [...above.map((name) => all.find((x) => x.name === name)).filter((a): a is AgentInfo => !!a), own]
    return {
      sessionId: session.id,
      rootSessionId,
      parentSessionId: session.parentId ?? undefined,
      ancestorIds: ancestors.map((a) => a.id),
      workdir: session.workspaceRoot,
      agent: own,
      agentPath: chainAgents.map((a) => a.name),
      // Every level below the root is a subagent: the configured subagent tool policy bounds it too.
      chain: chainAgents.map((a, i) => (i === 0 ? agentRules(a) : subagentRules(a, settings.config.config))),
      depth: above.length,
      modelRef: this.modelFor(session, own, settings.config.config),
      signal,
      emit: emitterFor(this.deps.hub, this.deps.sessions, session).emit,
      userMessageId,
      transcript: new StoredTranscript(this.deps.transcript, session.id),
      headless: this.deps.headless || grants !== undefined,
      grants: grants ?? [],
      background: this,
      sessionsPort: { prompt: (id, text) => ({ queued: this.prompt({ sessionId: id, text }).queued }), isRunning: (id) => this.isRunning(id) },
      settings: withClientMcpServers(settings, this.runMcp.get(rootSessionId)),
      scratchpad: this.deps.scratchpad?.(rootSessionId),
    }
  }

  /**
   * The session's model (chosen when it was created — the person's pick, else its agent's model, else the default —
   * or switched since with the model picker). A message sent with another agent whose file names a model runs on
   * that agent's model.
   */
  private modelFor(session: SessionRecord, agent: AgentInfo, config: Config): ModelRef {
    const own = agent.name !== session.agent ? this.deps.agentModel(agent, config) : undefined
    return own ?? session.model ?? this.deps.agentModel(agent, config) ?? defaultModelRef(config)
  }

  /** A run that threw (the loop itself never does): contained — logged with an id, the session shows the error. */
  private fail(sessionId: string, err: unknown): void {
    const id = this.deps.fault(`run of ${sessionId}`, err)
    const session = this.deps.sessions.getSession(sessionId)
    if (!session) return
    const message = `The run stopped because of an internal error in the host (${id}); send the message again. The details are in the host's log.`
    try {
      appendErrorMessage(new StoredTranscript(this.deps.transcript, sessionId), emitterFor(this.deps.hub, this.deps.sessions, session).emit, 'internal', message)
    } catch (storeErr) {
      // The store itself may be what failed (the session may be gone): the error still reaches live viewers.
      this.deps.fault(`storing the error of the run of ${sessionId}`, storeErr)
      this.emit(session, { type: 'error', sessionId, at: Date.now(), code: 'internal', message })
    }
    try {
      this.setStatus(session, 'error', message)
    } catch (again) {
      this.deps.fault(`reporting the failed run of ${sessionId}`, again)
    }
  }

  private setStatus(session: SessionRecord, status: SessionStatus, reason?: string): SessionRecord {
    const updated = this.deps.sessions.updateSession(session.id, { status })
    this.emit(updated, { type: 'status_change', sessionId: session.id, at: Date.now(), status, reason })
    this.emit(updated, { type: 'session_updated', sessionId: session.id, at: Date.now(), session: updated })
    return updated
  }

  private emit(session: SessionRecord, event: Parameters<RunLevel['emit']>[0]): void {
    emitterFor(this.deps.hub, this.deps.sessions, session).emit(event)
  }

  private requireSession(sessionId: string): SessionRecord {
    const session = this.deps.sessions.getSession(sessionId)
    if (!session) throw new RunnerError('not_found', `No session ${sessionId}. It may have been deleted; reload the session list.`)
    return session
  }
}

/** Plain-text rendering of a conversation for the summary agent. */
function renderConversation(messages: MessageWithParts[]): string {
  return messages
    .filter((m) => !m.metadata.hiddenAt)
    .map((m) => `${m.role}: ${m.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text ?? '')).join('\n')}`)
    .join('\n\n')
}

/** `agentry run`'s grants as rules of the runtime layer (never above a deny): `--allow`, then `--yes` for the rest. */
function grantRules(h: HeadlessRun): Ruleset {
  return [
    ...h.allow.map(({ tool, pattern }) => ({ tool, pattern, action: 'allow' as const })),
    ...(h.yes ? [{ tool: '*', pattern: '*', action: 'allow' as const }] : []),
  ]
}

function rootIdOf(sessions: RunnerDeps['sessions'], session: SessionRecord): string {
  return ancestorsOf(sessions, session)[0]?.id ?? session.id
}
