import { parseCommandCall, type AgentInfo, type ApprovalRecord, type ClientMcpServer, type Config, type HeadlessRun, type ModelRef, type PromptAttachment, type QueueEntry, type SessionRecord, type SessionStatus } from '../../src-shared'
import type { Approvals, ResumeHook } from '../approvals'
import type { EventHub } from '../events'
import { appendErrorMessage, awaitsAnswer, buildPrompt, StoredTranscript } from '../loop'
import type { ModelInfo } from '../models'
import { attachedFiles, RunRefused, type Allowance, type BackgroundSink, type RunLevel, type RunRegistry, type RunSettings } from '../runtime'
import type { ApprovalsRepository, QueueRepository, SessionsRepository, SpendRepository, TranscriptRepository } from '../store'
import { USER_STOP_REASON, type Subagents } from '../subagents'
import type { TurnRecorder, TurnRecording } from '../undo'
import type { CommandSet } from '../commands'
import { commandOf } from './command-turn'
import { requireSession, RunnerError } from './session-error'
import { Emitters, type Emitter } from './emitter'
import { budgetsAbove } from './root-budget'
import { grantRules, rootLevel, type RunOptions } from './root-level'
import { summarize } from './summarize'
import { switchVersion } from './versions'
import { generateTitle } from './title'
import { runSessionTurn, type TurnHost } from './turn'
import { waitingCalls } from './waiting-calls'
import { versionRoot } from '../../src-shared/message-versions'

export interface RunnerDeps {
  sessions: SessionsRepository
  transcript: TranscriptRepository
  queue: QueueRepository
  /** approvals left waiting across a restart */
  approvalRecords: ApprovalsRepository
  hub: EventHub
  /** every run in flight: turns start and end here, next to the subagents' tasks */
  runs: RunRegistry
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
  /** each workspace's daily spend (budgets.dailyCostUsd) */
  spend: SpendRepository
  /** a run at its budget asks the person to extend it */
  approvals: Approvals
  /** checkpoints of the workspace around each turn (undo, the review of changes); absent → none are kept */
  checkpoints?: { begin(o: Parameters<TurnRecorder['begin']>[0]): Promise<TurnRecording | undefined> }
  /** the slash commands of a workspace (issue 27); absent → a prompt is always plain text */
  commands?(workdir: string, only?: string): CommandSet
}

const HELPER_GRACE_MS = 2000

/**
 * One run per session at a time. Prompts go through a persistent queue (idempotent by request id) and start
 * when the session is idle; background completions start a turn of their own when the parent is idle. What runs is
 * the run registry's (`deps.runs`): stopping, waiting and closing a tree are queries on it.
 */
export class SessionRunner implements BackgroundSink, ResumeHook {
  /** what a front end sent with a queued prompt (headless grants, an editor's MCP servers); in memory only */
  private readonly promptOptions = new Map<string, RunOptions>()
  /** an edit's queued prompt → the first message of the edited message's version group (its new message's `editOf`) */
  private readonly edits = new Map<string, string>()
  /** per conversation: the options of the prompt being worked on, kept for the turns its children's results start */
  private readonly conversationOptions = new Map<string, RunOptions>()
  private readonly wakeups = new Set<string>()
  /** per conversation: the budgets above the prompt being worked on (its turns and its children's share them) */
  private readonly budgets = new Map<string, Allowance | undefined>()
  /** sessions whose calls left waiting across a restart are all answered: the next turn runs them first */
  private readonly resumes = new Set<string>()
  private readonly idleWaiters = new Set<() => void>()
  private readonly emitters: Emitters
  private readonly turnHost: TurnHost
  /** set by stop(): the host is going away */
  private stopping = false

  constructor(private readonly deps: RunnerDeps) {
    this.emitters = new Emitters(deps.hub, deps.sessions)
    this.turnHost = {
      deps,
      emitter: (session) => this.emitters.of(session),
      setStatus: (session, status, reason) => this.setStatus(session, status, reason),
      level: (session, agent, settings, signal, userMessageId) => this.levelFor(session, settings, signal, userMessageId, agent),
      budgetsAbove: (session, config, fresh) => {
        const root = this.emitters.of(session).stream
        if (!fresh && this.budgets.has(root)) return this.budgets.get(root)
        const conversation = this.deps.sessions.getSession(root) ?? session
        const above = budgetsAbove(this.deps, { conversation, config, run: this.conversationOptions.get(root)?.budget })
        this.budgets.set(root, above)
        return above
      },
      editOf: (queueId) => {
        const root = this.edits.get(queueId)
        this.edits.delete(queueId)
        return root
      },
      title: (level, session, text) => this.inBackground(session, 'title', (signal) => generateTitle(this.deps, level, session, text, signal)),
    }
  }

  prompt(input: { sessionId: string; requestId?: string; text: string; agent?: string; attachments?: PromptAttachment[]; headless?: HeadlessRun; mcpServers?: ClientMcpServer[] }): { entry: QueueEntry; duplicate: boolean; queued: boolean } {
    const session = this.requireSession(input.sessionId)
    if (this.deps.runs.isClosing(session.id)) throw new RunnerError('conflict', 'This session is being deleted or archived right now; nothing new can start in it.')
    this.checkAgent(session, input.agent)
    // A command's own `agent:` wins over the front end's pick (the app always sends its chip's agent).
    const agent = this.commandAgent(session, input.text) ?? input.agent
    const { entry, duplicate } = this.deps.queue.enqueuePrompt({ sessionId: input.sessionId, requestId: input.requestId, text: input.text, agent, attachments: input.attachments })
    if (duplicate) return { entry, duplicate, queued: entry.status === 'queued' }
    if (input.headless || input.mcpServers?.length) {
      this.promptOptions.set(entry.id, {
        ...(input.headless ? { grants: grantRules(input.headless) } : {}),
        ...(input.headless?.budget ? { budget: input.headless.budget } : {}),
        ...(input.mcpServers?.length ? { mcp: input.mcpServers } : {}),
      })
    }
    const busy = this.isRunning(input.sessionId)
    if (busy) this.emit(session, { type: 'message_queued', sessionId: session.id, at: Date.now(), queueId: entry.id, text: entry.text })
    this.drain(input.sessionId)
    return { entry, duplicate: false, queued: busy }
  }

  cancelQueued(queueId: string, sessionId: string): boolean {
    const entry = this.deps.queue.listQueue(sessionId).find((e) => e.id === queueId)
    if (!entry) return false
    this.deps.queue.setQueueStatus(queueId, 'cancelled')
    this.promptOptions.delete(queueId)
    const session = this.deps.sessions.getSession(sessionId)
    if (session) this.emit(session, { type: 'message_queued', sessionId, at: Date.now(), queueId, text: entry.text, removed: true })
    return true
  }

  /**
   * The person's Stop means stop: prompts waiting behind the run are not started by its end. They are taken off the
   * queue (the clients see them go) and handed back, for the front end to put in the message box.
   */
  takeQueued(sessionId: string): { queueId: string; text: string; attachments?: PromptAttachment[] }[] {
    const taken = this.deps.queue.listQueue(sessionId, 'queued').map((e) => ({ queueId: e.id, text: e.text, ...(e.attachments ? { attachments: e.attachments } : {}) }))
    for (const e of taken) this.cancelQueued(e.queueId, sessionId)
    return taken
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

  /**
   * Edit a sent message: it and everything after it are hidden (never deleted) as that version's branch, and the new
   * text is sent instead, as the next version of the message (see versions.ts).
   */
  edit(input: { sessionId: string; requestId: string; messageId: string; text: string; agent?: string }): { entry: QueueEntry; duplicate: boolean; queued: boolean } {
    const session = this.requireIdle(input.sessionId, 'edit a message')
    this.checkAgent(session, input.agent)
    const message = this.deps.transcript.listMessages(session.id).find((m) => m.id === input.messageId)
    if (!message) throw new RunnerError('not_found', `No message ${input.messageId} in this session (it may have been edited already). Reload the session.`)
    if (message.role !== 'user' || message.metadata.synthetic) throw new RunnerError('invalid_request', 'Only messages you sent can be edited.')
    // The files the person attached go with the new version (an `@path` mention is read again from the new text).
    const attachments = attachedFiles(message)
    const { entry, duplicate } = this.deps.queue.enqueuePrompt({ sessionId: session.id, requestId: input.requestId, text: input.text, agent: input.agent, ...(attachments.length ? { attachments } : {}) })
    if (duplicate) return { entry, duplicate, queued: entry.status === 'queued' }
    this.edits.set(entry.id, versionRoot(message))
    this.hide(session, message.id, 'edited', message.id)
    this.drain(session.id)
    return { entry, duplicate: false, queued: false }
  }

  /** Shows another version of an edited message (and its branch) in place of the visible one; only when idle. */
  version(input: { sessionId: string; messageId: string; index: number }): ReturnType<typeof switchVersion> {
    const session = this.requireIdle(input.sessionId, 'switch versions')
    return switchVersion(this.deps, session, input, (event) => this.emit(session, event))
  }

  private hide(session: SessionRecord, fromMessageId: string, reason: 'retried' | 'edited', branch?: string): void {
    const messageIds = this.deps.transcript.hideMessagesFrom(session.id, fromMessageId, reason, branch)
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

  /**
   * A `/name` prompt is checked now (an unknown command is refused before anything is queued); a command whose
   * `agent:` is a primary agent runs its turn with that agent (a subagent's runs as a task, see command-turn.ts).
   */
  private commandAgent(session: SessionRecord, text: string): string | undefined {
    if (!this.deps.commands || !text.startsWith('/')) return undefined
    const call = commandOf(text, this.deps.commands(session.workspaceRoot, parseCommandCall(text)?.name))
    const wanted = call?.command.agent
    if (!wanted || call.command.subtask) return undefined
    const agent = this.deps.agents(session.workspaceRoot).find((a) => a.name === wanted)
    if (!agent) throw new RunnerError('not_found', `/${call.use.name} names agent "${wanted}" (${call.command.file}), which is not defined in ${session.workspaceRoot}. Fix the command's agent: field.`)
    return agent.mode === 'subagent' ? undefined : agent.name
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
    const stopped = this.deps.runs.stop(sessionId, reason)
    this.wakeups.delete(sessionId)
    for (const r of stopped) this.wakeups.delete(r.sessionId)
    return stopped.length > 0
  }

  /** The hidden `summary` agent over the whole visible conversation; stored in the session's metadata. */
  async summarize(sessionId: string): Promise<string> {
    const session = this.requireSession(sessionId)
    if (this.deps.runs.isClosing(sessionId)) throw new RunnerError('conflict', 'This session is being deleted or archived right now.')
    const emitter = this.emitters.of(session)
    return summarize(this.deps, session, emitter, (signal) => this.levelFor(session, this.deps.settings(session.workspaceRoot), signal, null))
  }

  /** Pending approvals of a conversation changed: show the root as waiting (on an approval, or on an answer). */
  approvalsChanged(rootSessionId: string, pending: { kind: string }[]): void {
    const session = this.deps.sessions.getSession(rootSessionId)
    if (!session || this.deps.runs.get(rootSessionId)?.kind !== 'turn') return
    const status: SessionStatus = pending.some((p) => p.kind !== 'question') ? 'waiting_on_approval' : pending.length ? 'waiting_on_user' : 'busy'
    const waitingOrBusy = new Set<SessionStatus>(['busy', 'waiting_on_approval', 'waiting_on_user'])
    if (session.status !== status && waitingOrBusy.has(session.status)) this.setStatus(session, status)
  }

  /** Approvals hook: a root session's call left waiting by a previous host can go on from stored state. */
  resumable(approval: ApprovalRecord): { workspaceRoot: string } | undefined {
    const session = this.deps.sessions.getSession(approval.sessionId)
    if (!session || approval.kind !== 'tool' || approval.sessionId !== approval.rootSessionId || this.deps.runs.isRunning(session.id)) return undefined
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
    if (this.deps.runs.isClosing(sessionId)) return
    this.wakeups.add(sessionId)
    this.drain(sessionId)
  }

  isRunning(sessionId: string): boolean {
    return this.deps.runs.isRunning(sessionId)
  }

  /**
   * Deleting or archiving: the session's tree closes — nothing new starts in it (prompts are refused, queued ones
   * cancelled, no background result wakes it), every run in it stops (its own, its descendants' turns, children
   * running as tasks, summaries being written) and their writes settle. Then `then` runs (the delete or the archive)
   * and the tree is open again.
   */
  whileStopped<T>(sessionId: string, reason: string, then: () => T): Promise<T> {
    const ids = this.deps.sessions.subtreeIds(sessionId)
    for (const id of ids) {
      this.wakeups.delete(id)
      this.resumes.delete(id)
      for (const entry of this.deps.queue.listQueue(id, 'queued')) this.cancelQueued(entry.id, id)
    }
    return this.deps.runs.whileClosed(ids, reason, then)
  }

  /** A deleted session's memory: options, wake-ups, a root's lane, its emitter. */
  forget(ids: string[]): void {
    for (const id of ids) {
      this.wakeups.delete(id)
      this.resumes.delete(id)
      this.conversationOptions.delete(id)
      this.budgets.delete(id)
      this.deps.subagents.forget(id)
    }
    this.emitters.forget(ids)
  }

  /** The turns in flight (the root status each shows). */
  runs(): { sessionId: string; status: SessionStatus }[] {
    return this.deps.runs.list('turn').map((r) => ({ sessionId: r.sessionId, status: this.deps.sessions.getSession(r.sessionId)?.status ?? 'busy' }))
  }

  /** Resolves when no turn runs and nothing is queued (CLI and tests). */
  idle(): Promise<void> {
    if (this.deps.runs.list('turn').length === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.add(resolve))
  }

  async stop(reason: string): Promise<void> {
    // Nothing starts once the host stops: a run ending here must not drain the next queued prompt (it would write
    // after the store closed); queued prompts stay queued for the next host.
    this.stopping = true
    const turns = this.deps.runs.list('turn')
    for (const r of turns) r.abort(reason, true)
    await this.deps.runs.settled(turns)
    // A title still being written gets a moment to land (a CLI run often ends first), then is cancelled.
    const helpers = this.deps.runs.list('helper')
    const grace = new Promise((r) => setTimeout(r, HELPER_GRACE_MS).unref())
    await Promise.race([this.deps.runs.settled(helpers), grace])
    for (const r of helpers) r.abort(reason, true)
    await this.deps.runs.settled(helpers)
  }

  /** Start queued work for every session that has some (after a host restart). */
  resumeQueues(): void {
    for (const sessionId of this.deps.queue.sessionsWithQueuedPrompts()) this.drain(sessionId)
  }

  private drain(sessionId: string): void {
    if (this.stopping || this.deps.runs.isClosing(sessionId)) return
    const running = this.deps.runs.get(sessionId)
    if (running) {
      // An inspectable child running as its parent's task: one run per session, so whatever waits here goes after it.
      if (running.kind === 'task') void running.done.then(() => this.drain(sessionId))
      return
    }
    const next = this.deps.queue.listQueue(sessionId, 'queued')[0]
    // A background result wakes the session only if its model has not read it yet: a run still going when the
    // result arrived reads it in its next step, and a turn started afterwards would have nothing to answer.
    if (!next && !this.resumes.has(sessionId) && this.wakeups.has(sessionId) && !this.hasUnanswered(sessionId)) this.wakeups.delete(sessionId)
    const wake = this.wakeups.has(sessionId) || this.resumes.has(sessionId)
    const session = this.deps.sessions.getSession(sessionId)
    if ((!next && !wake) || !session) {
      this.notifyIfIdle()
      return
    }
    this.wakeups.delete(sessionId)
    const emitter = this.emitters.of(session)
    const root = emitter.stream
    if (next) {
      this.deps.queue.setQueueStatus(next.id, 'started')
      // A new prompt brings its own options (or none); a turn a background child starts keeps the current ones.
      const options = this.promptOptions.get(next.id)
      this.promptOptions.delete(next.id)
      if (options) this.conversationOptions.set(root, options)
      else this.conversationOptions.delete(root)
    }
    // A new message supersedes calls still waiting from before a restart; otherwise this turn resumes them.
    const resuming = this.resumes.delete(sessionId) && !next
    try {
      const record = this.deps.runs.begin(
        { kind: 'turn', sessionId, path: [...emitter.ancestors.map((a) => a.id), sessionId], agentType: session.agent },
        (r) => runSessionTurn(this.turnHost, { sessionId, entry: next, record: r, resuming }).catch((err: unknown) => this.fail(sessionId, err)),
      )
      void record.done.then(() => {
        this.drain(sessionId)
        this.notifyIfIdle()
      })
    } catch (err) {
      // Closing meanwhile: nothing starts in a tree being deleted or archived.
      if (!(err instanceof RunRefused)) throw err
    }
  }


  /** The run level of a session prompted directly, with its conversation's options. */
  private levelFor(session: SessionRecord, settings: RunSettings, signal: AbortSignal, userMessageId: string | null, agent?: AgentInfo): RunLevel {
    const own = agent ?? settings.agents.find((a) => a.name === session.agent)
    if (!own) throw new RunnerError('not_found', `Agent "${session.agent}" is not defined in ${session.workspaceRoot}.`)
    const emitter = this.emitters.of(session)
    return rootLevel(this.deps, {
      session,
      ancestors: emitter.ancestors,
      agent: own,
      settings,
      signal,
      userMessageId,
      emitter,
      options: this.conversationOptions.get(emitter.stream),
      background: this,
      sessionsPort: {
        prompt: (id, text) => ({ queued: this.prompt({ sessionId: id, text }).queued }),
        isRunning: (id) => this.isRunning(id),
        steer: (id, text) => this.deps.runs.steer(id, text, 'agent'),
      },
    })
  }

  /** Fire-and-forget helper work (a title): in the registry, so the host's stop lets it land or cancels it. */
  private inBackground(session: SessionRecord, agentType: string, work: (signal: AbortSignal) => Promise<void>): void {
    const path = [...this.emitters.of(session).ancestors.map((a) => a.id), session.id]
    this.deps.runs.begin({ kind: 'helper', sessionId: session.id, path, agentType }, (r) => work(r.controller.signal))
  }

  /** The session's conversation ends with something its model has not answered (a background result). */
  private hasUnanswered(sessionId: string): boolean {
    return awaitsAnswer(buildPrompt('', new StoredTranscript(this.deps.transcript, sessionId).history()))
  }

  private notifyIfIdle(): void {
    if (this.deps.runs.list('turn').length > 0) return
    const waiting = [...this.idleWaiters]
    this.idleWaiters.clear()
    for (const cb of waiting) cb()
  }

  /** A run that threw (the loop itself never does): contained — logged with an id, the session shows the error. */
  private fail(sessionId: string, err: unknown): void {
    const id = this.deps.fault(`run of ${sessionId}`, err)
    const session = this.deps.sessions.getSession(sessionId)
    if (!session) return
    const message = `The run stopped because of an internal error in the host (${id}); send the message again. The details are in the host's log.`
    const { emit } = this.emitters.of(session)
    try {
      appendErrorMessage(new StoredTranscript(this.deps.transcript, sessionId), emit, 'internal', message)
    } catch (storeErr) {
      // The store itself may be what failed (the session may be gone): the error still reaches live viewers.
      this.deps.fault(`storing the error of the run of ${sessionId}`, storeErr)
      emit({ type: 'error', sessionId, at: Date.now(), code: 'internal', message })
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

  private emit(session: SessionRecord, event: Parameters<Emitter['emit']>[0]): void {
    this.emitters.of(session).emit(event)
  }

  private requireSession(sessionId: string): SessionRecord {
    return requireSession(this.deps.sessions, sessionId)
  }
}
