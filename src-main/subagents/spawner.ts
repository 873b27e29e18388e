import { setMaxListeners } from 'node:events'
import { newTaskCard, type AgentInfo, type BackgroundNotice, type Config, type MessageWithParts, type ModelRef, type SessionRecord, type TaskCard, type TaskWorktree, type TokenUsage } from '../../src-shared'
import { afterStep, appendTextMessage, buildPrompt, NestedTranscript, runTurn, StoredTranscript, type RunContext, type Transcript, type TurnResult } from '../loop'
import { callableSubagents, subagentRules, type PrepareOptions, type RuleSources, type RunLevel, type Runtime, type RunToolContext } from '../runtime'
import { newId, type QueueRepository, type SessionsRepository, type TranscriptRepository } from '../store'
import { ToolError, type ToolDef } from '../tools'
import { AbortCauses, HOST_STOP_REASON, inheritedCause, PARENT_ABORT_REASON, timeoutCause, timeoutReason, USER_STOP_REASON, causeOfReason, type AbortCause } from './abort-cause'
import { runChild, type ChildOutcome } from './child-run'
import { FORK_NOT_RESUMABLE, FORK_TYPE, forkDirective, ForkTranscript, inheritedConversation, refuseFork } from './fork'
import { createChildSession, findEarlierChild, notYourChild, sessionBusy, type Anchor, type EarlierChild } from './child-session'
import { Lane, type Slot } from './lane'
import { backgroundStarted, taskError } from './result-text'
import { TaskClock } from './task-clock'
import { applyTaskOptions, shownName, type AppliedOptions, type CallModelResolver } from './task-options'
import { createSessionTools } from './session-tools'
import { TaskTools, type TaskInput } from './task-tool'
import { finishWorktree, openWorktree, worktreeNote } from './worktree'

export interface SubagentDeps {
  runtime: Runtime
  /** the same rule sources the runtime decides with: which agents a level may call */
  rules: RuleSources
  /** inspectable children are stored sessions */
  sessions: SessionsRepository
  transcript: TranscriptRepository
  /** background children are jobs */
  jobs: Pick<QueueRepository, 'createJob' | 'getJob' | 'updateJob'>
  /** the model an agent's file names, resolved with the run's config; undefined = inherit the caller's */
  agentModel(agent: AgentInfo, config: Config): ModelRef | undefined
  /** a model's price with the run's config (the host passes models' modelInfo): the cost of one step, null if unknown */
  modelInfo(ref: ModelRef, config: Config): Promise<{ cost(usage: TokenUsage): number | null }>
  /** a model one call names (`model: haiku`), resolved with the run's config; an error lists the choices */
  resolveCallModel: CallModelResolver
  /** what a call's `model` may name with this config, in words (the `task` schema says it) */
  modelChoices(config: Config): string
  /** task worktrees (isolation: worktree) are made under `{dataDir}/worktrees` */
  dataDir: string
  /** an unexpected failure nobody awaits (a background result that could not be delivered); returns its log id */
  fault?(where: string, err: unknown): string
}

/** The tag each helper's input is wrapped in (its prompt names it). */
const HELPER_INPUT: Record<string, string> = { title: 'message', summary: 'conversation', compaction: 'conversation' }

/** `text` inside `<tag>…</tag>`, with any closing tag inside it defused so the data cannot end the wrapper early. */
export function asData(tag: string, text: string): string {
  return `<${tag}>\n${text.split(`</${tag}>`).join(`</ ${tag}>`)}\n</${tag}>`
}

/** The final text by which a background child declines to announce its result. */
export const ANNOUNCE_SKIP = 'ANNOUNCE_SKIP'

/** A child run in flight, blocking or background. */
interface RunningTask {
  taskId: string
  agentType: string
  description: string
  rootSessionId: string
  /** session ids from the root down to this task's parent */
  ancestors: string[]
  background: boolean
  controller: AbortController
  done: Promise<void>
}

/** Spawns children on the same loop: the `task` tool, the per-root lane, running children, helper agents. */
export class Subagents {
  private readonly lanes = new Map<string, Lane>()
  private readonly slots = new WeakMap<RunLevel, Slot>()
  private readonly clocks = new WeakMap<RunLevel, TaskClock>()
  /** session ids from the root down to a child level (root levels are computed from the store) */
  private readonly paths = new WeakMap<RunLevel, string[]>()
  /** for opaque child levels: the stored session their inspectable children hang from */
  private readonly anchors = new WeakMap<RunLevel, Anchor>()
  private readonly running = new Map<string, RunningTask>()
  private readonly causes = new AbortCauses()
  private readonly taskTools: TaskTools
  /** sessions_list/history/send/wait: offered where the rules allow them (never to subagents by default) */
  private readonly sessionTools: ToolDef[]
  /** the run context each level runs with (a fork copies its parent's prompt and tools from here) */
  private readonly runs = new WeakMap<RunLevel, RunContext>()
  /** fork levels, and the run context of the parent each was forked from */
  private readonly forks = new WeakSet<RunLevel>()
  private readonly forkOf = new WeakMap<RunLevel, { run: RunContext; prefixLength: number }>()

  constructor(private readonly deps: SubagentDeps) {
    this.sessionTools = createSessionTools({ sessions: deps.sessions, transcript: deps.transcript, isRunning: (id) => this.running.has(id) })
    this.taskTools = new TaskTools(
      { run: (lvl, input, ctx) => this.runTask(lvl, input, ctx as RunToolContext), storedType: (lvl, taskId) => this.storedType(lvl, taskId) },
      deps.rules,
      deps.agentModel,
      deps.modelChoices,
    )
  }

  /**
   * A run at any level, root or child: the runtime's run context plus the `task` tool when the level may delegate.
   * A fork sends its parent's exact system prompt and tool list (its rules still decide every call it makes), so its
   * requests start with the bytes its parent's did and the provider's prompt cache serves them.
   */
  async prepare(level: RunLevel, transcript: Transcript, o: Omit<PrepareOptions, 'tools'> = {}): Promise<RunContext> {
    const task = this.toolFor(level)
    const run = await this.deps.runtime.prepare(level, transcript, { ...o, tools: [...(task ? [task] : []), ...this.sessionTools] })
    const parent = this.forkOf.get(level)
    if (parent) return { ...run, system: parent.run.system, tools: parent.run.tools, providerTools: parent.run.providerTools, cachePrefixLength: parent.prefixLength }
    this.runs.set(level, run)
    return run
  }

  /** The `task` tool for a level, or nothing when no agent can be called from it. */
  toolFor(level: RunLevel): ToolDef | undefined {
    return this.taskTools.forLevel(level)
  }

  /** Is this session running as a child right now (blocking or background)? */
  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId)
  }

  /** Resolves when that child's run (and, in the background, the delivery of its result) is over. */
  settled(sessionId: string): Promise<void> {
    return this.running.get(sessionId)?.done ?? Promise.resolve()
  }

  /**
   * The person's Stop: aborts `sessionId` itself if it runs as a child, and every child below it, blocking and
   * background. What they return is stored; it wakes nobody. Returns the task ids it aborted.
   */
  stop(sessionId: string, reason = USER_STOP_REASON): string[] {
    const cause = causeOfReason(reason)
    const aborted: string[] = []
    for (const t of this.running.values()) {
      const self = t.taskId === sessionId
      if (!self && !t.ancestors.includes(sessionId)) continue
      this.causes.abort(t.controller, self ? reason : PARENT_ABORT_REASON, cause)
      aborted.push(t.taskId)
    }
    return aborted
  }

  /** A root session was deleted: its lane goes too. */
  forget(rootSessionId: string): void {
    this.lanes.delete(rootSessionId)
  }

  /** The host is shutting down: every child stops, and nothing wakes. */
  stopAll(): void {
    for (const t of this.running.values()) this.causes.abort(t.controller, HOST_STOP_REASON, causeOfReason(HOST_STOP_REASON))
  }

  /** Wait for every running child (tests, orderly shutdown). */
  async settle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()].map((t) => t.done))
  }

  /**
   * Run a hidden helper agent (title, summary, compaction) as an opaque child of `level` and return its answer, on
   * `model` when given (the small model) unless the helper agent names its own. It reads its own prompt and `input`,
   * wrapped as data (`<message>`, `<conversation>`), nothing else: a first message such as "hello" is titled, not
   * answered.
   */
  async runHelper(level: RunLevel, agentName: string, input: string, model?: ModelRef): Promise<TurnResult> {
    const agent = level.settings.agents.find((a) => a.name === agentName)
    if (!agent) throw new Error(`helper agent "${agentName}" is not defined`)
    const childId = newId('ses')
    const transcript = new NestedTranscript(childId, [], () => {})
    const modelRef = this.deps.agentModel(agent, level.settings.config.config) ?? model ?? level.modelRef
    // Helpers are internal plumbing (a title, a summary): their events are not shown as a subagent in the UI.
    const child: RunLevel = { ...this.childLevel(level, agent, childId, transcript, level.signal), modelRef, emit: () => {} }
    this.writeUserMessage(child, asData(HELPER_INPUT[agentName] ?? 'input', input))
    return runTurn(await this.prepare(child, transcript, { bare: true }))
  }

  private async runTask(level: RunLevel, input: TaskInput, ctx: RunToolContext): Promise<{ output: string; metadata?: Record<string, unknown> }> {
    const { sessions, jobs } = this.deps
    const limits = level.settings.config.config.subagents
    // task_id continues an earlier child as the type it was (only the caller's own: another's is not even described).
    const resumed = input.task_id ? findEarlierChild(sessions, level, input.task_id) : undefined
    if (input.task_id && !resumed) throw notYourChild(input.task_id)
    if (resumed?.fork) throw new ToolError(FORK_NOT_RESUMABLE)
    const fork = !resumed && input.subagent_type === FORK_TYPE
    if (fork) refuseFork(this.forks.has(level))
    const agent = fork ? { ...level.agent, inspectable: false } : this.typedAgent(level, resumed?.agentType ?? input.subagent_type, resumed)
    if (level.depth + 1 > limits.maxDepth) {
      throw new ToolError(`Subagent depth limit reached (maxDepth ${limits.maxDepth}): this agent is at depth ${level.depth} and cannot start another level. Do the work yourself.`)
    }
    const applied = applyTaskOptions(level, agent, input, this.deps.resolveCallModel)
    const background = fork || (input.background ?? agent.background)
    if (resumed) this.refuseIfRunning(resumed.taskId)
    const taskId = resumed?.taskId ?? newId('ses')
    // Worktree isolation (the call's, else the agent's): made before anything is shown, so "not a repository" is a
    // plain tool error. A resumed child goes on in the worktree it kept.
    const isolation = input.isolation ?? (fork ? undefined : agent.isolation)
    if (fork && isolation) throw new ToolError('A fork works where its parent works: isolation "worktree" needs a typed subagent (subagent_type).')
    const isolated = isolation === 'worktree' ? await openWorktree(level.workdir, this.deps.dataDir, taskId) : undefined
    const card: TaskCard = newTaskCard({ taskId, agentType: agent.name, description: input.description, background, inspectable: agent.inspectable, depth: level.depth + 1, status: 'queued' })
    if (Object.keys(applied.options).length) card.options = applied.options
    if (fork) card.fork = true
    if (isolated) card.worktree = isolated.worktree
    const publish = () => {
      ctx.handle.patch({ subagent: { ...(ctx.handle.part.data.subagent as object | undefined), ...card } })
      const { transcript: _t, ...summary } = card
      level.emit({ type: 'task_update', sessionId: level.sessionId, at: Date.now(), messageId: ctx.handle.part.messageId, partId: ctx.handle.part.id, toolCallId: ctx.toolCallId, task: summary })
    }
    publish()

    const controller = new AbortController()
    const onParentAbort = () => this.causes.abort(controller, PARENT_ABORT_REASON, inheritedCause(this.causes.of(level.signal)))
    // Each child of a fan-out listens to its parent's signal; 64 at once is normal, not the leak Node warns about
    // (on stderr, to the user) past 10 listeners. 0 = no limit.
    setMaxListeners(0, level.signal)
    if (level.signal.aborted) onParentAbort()
    else level.signal.addEventListener('abort', onParentAbort, { once: true })

    // What a fork inherits, taken now, while the parent's conversation is as its last request sent it.
    const inherited = fork ? inheritedConversation(level.transcript.history(), ctx.handle.part.messageId, ctx.toolCallId) : undefined
    let transcript: Transcript
    try {
      transcript = fork
        ? new ForkTranscript(inherited!, this.nested(taskId, [], card, ctx))
        : agent.inspectable
        ? this.storedChild(level, applied, taskId, background, input, resumed !== undefined)
        : this.nested(taskId, resumed?.messages ?? [], card, ctx)
    } catch (err) {
      // Nothing ran; the card must still end (a card left "queued" would spin forever in the UI).
      level.signal.removeEventListener('abort', onParentAbort)
      Object.assign(card, { status: 'failed', error: (err as Error).message, endedAt: Date.now() })
      publish()
      throw new ToolError(taskError(agent.name, taskId, card.error ?? 'failed'))
    }
    const seconds = applied.timeoutSeconds
    const clock = new TaskClock(seconds * 1000, () => this.causes.abort(controller, timeoutReason(seconds), timeoutCause(seconds)))
    const child = this.childLevel(level, applied.agent, taskId, transcript, controller.signal, clock, applied.modelRef ?? (fork ? level.modelRef : undefined))
    if (isolated) Object.assign(child, { workdir: isolated.workdir, worktree: isolated.worktree })
    if (fork) {
      this.forks.add(child)
      const parentRun = this.runs.get(level)
      // The parent's last request: its system prompt and every message before the step that forked.
      if (parentRun) this.forkOf.set(child, { run: parentRun, prefixLength: buildPrompt(parentRun.system, inherited!.slice(0, -1)).length })
    }
    const entry: RunningTask = {
      taskId,
      agentType: agent.name,
      description: input.description,
      rootSessionId: level.rootSessionId,
      ancestors: this.pathOf(level),
      background,
      controller,
      done: Promise.resolve(),
    }
    const work = runChild({
      sessions,
      prepare: (lvl, t, o) => this.prepare(lvl, t, o),
      modelInfo: this.deps.modelInfo,
      countUsage: (usage, cost) => this.countUsage(level, child, usage, cost),
      lane: this.laneFor(child.rootSessionId, limits.maxConcurrent),
      onSlot: (slot) => this.slots.set(child, slot),
      child,
      prompt: fork ? forkDirective(input.prompt) : input.prompt,
      card,
      publish,
      signal: controller.signal,
      clock,
      cause: () => this.causes.of(controller.signal),
      write: (lvl, text) => this.writeUserMessage(lvl, text),
      fork,
    })
      .then((outcome) => (isolated ? this.closeWorktree(card, publish, outcome, `Agentry task ${taskId}: ${shownName(input)}`) : outcome))
      .finally(() => {
      level.signal.removeEventListener('abort', onParentAbort)
      if (transcript instanceof NestedTranscript || transcript instanceof ForkTranscript) transcript.flush()
      if (applied.options.cleanup === 'delete' && agent.inspectable) this.setArchived(child, true)
    })
    this.running.set(taskId, entry)

    if (background) {
      // A resumed background child runs again under its old job row (restart reconciliation finds its card by id).
      if (jobs.getJob(taskId)) jobs.updateJob(taskId, 'running')
      else jobs.createJob({ id: taskId, parentSessionId: level.sessionId, rootSessionId: level.rootSessionId, parentMessageId: level.userMessageId, toolCallId: ctx.toolCallId, agentType: agent.name, description: shownName(input) })
      entry.done = work
        .then((outcome) => this.deliverBackground(level, outcome, { taskId, agentType: agent.name, description: shownName(input) }))
        .finally(() => {
          this.running.delete(taskId)
          jobs.updateJob(taskId, card.status === 'completed' ? 'completed' : card.status === 'aborted' ? 'aborted' : 'failed')
        })
        // Nobody awaits a background child: a result that cannot be delivered is logged, never an unhandled rejection.
        .catch((err: unknown) => void this.deps.fault?.(`background task ${taskId}`, err))
      return { output: backgroundStarted(agent.name, taskId, shownName(input)), metadata: { taskId, background: true } }
    }
    entry.done = work.then(
      () => void this.running.delete(taskId),
      () => void this.running.delete(taskId),
    )
    // A parent that is itself a child gives back its lane slot, and stops its own clock, while it waits.
    let waiting: Promise<ChildOutcome> = work
    const slot = this.slots.get(level)
    if (slot) waiting = slot.yieldWhile(waiting)
    const parentClock = this.clocks.get(level)
    if (parentClock) waiting = parentClock.pauseWhile(waiting)
    const outcome = await waiting
    await entry.done
    if (!outcome.ok) throw new ToolError(outcome.text, { describesAbort: true })
    return { output: outcome.text, metadata: { taskId, sessionId: agent.inspectable ? taskId : undefined } }
  }

  /**
   * The agent a typed call runs: the one it names (a close miss already resolved by the schema), or, for `task_id`,
   * the one that child ran as — kept in the storage it has (its own session, or nested in the caller's).
   */
  private typedAgent(level: RunLevel, name: string | undefined, resumed: EarlierChild | undefined): AgentInfo {
    // The schema let through only agents this level may start, and the permission check (run before this) decided the
    // type of a resumed child: what is left to check is that the agent still exists as a subagent.
    const agent = name === undefined ? undefined : callableSubagents(level.settings.agents).find((a) => a.name === name)
    if (!agent) {
      const was = resumed ? `task_id ${resumed.taskId} ran as "${name}", which` : `"${name}"`
      throw new ToolError(`${was} is not an agent you can start here any more; start a new task with one of the agents listed in the task tool.`)
    }
    return resumed && resumed.inspectable !== agent.inspectable ? { ...agent, inspectable: resumed.inspectable } : agent
  }

  /** The type `task_id` names for this caller (its own earlier child's), for the permission check. */
  storedType(level: RunLevel, taskId: string): string | undefined {
    const child = findEarlierChild(this.deps.sessions, level, taskId)
    return child && !child.fork ? child.agentType : undefined
  }

  /** Never two runs on one session: a child still running cannot be resumed (its result is on its way). */
  private refuseIfRunning(taskId: string): void {
    const t = this.running.get(taskId)
    const stored = this.deps.sessions.getSession(taskId)
    if (!t && !sessionBusy(this.deps.sessions, taskId)) return
    const what = t ? `${t.agentType}: "${t.description}"` : `${stored?.agent}: "${stored?.title}"`
    const how = t?.background === false ? 'its result comes back to the call that started it' : 'its result arrives as a message when it ends'
    throw new ToolError(`task_id ${taskId} (${what}) is still running; wait for its result (${how}) instead of resuming it, or start a new task without task_id.`)
  }

  private async deliverBackground(parent: RunLevel, outcome: ChildOutcome, task: Omit<BackgroundNotice, 'outcome'>): Promise<void> {
    // A background child that has nothing worth telling says exactly ANNOUNCE_SKIP: no message, no wake-up (its answer
    // stays in its own transcript).
    if (outcome.ok && outcome.finalText.trim() === ANNOUNCE_SKIP) return
    // The notice the model reads is built from this record (loop/prompt.ts): which task, and how it ended. It is stored
    // between the parent's model steps, never in the middle of one (see loop/step-gate.ts).
    const notice: BackgroundNotice = { ...task, outcome: outcome.ok ? (outcome.incomplete ? 'incomplete' : 'completed') : outcome.aborted ? 'stopped' : 'failed' }
    await afterStep(parent.transcript, () => appendTextMessage(parent.transcript, parent.emit, 'assistant', outcome.text, { synthetic: true, agent: parent.agent.name, task: notice }))
    // The person's Stop (or the host shutting down) caused this result: it is stored for the record, and the next
    // turn the person starts sees it; it starts none by itself.
    const cause: AbortCause | undefined = outcome.aborted ? outcome.cause : undefined
    if (cause?.byUser || cause?.hostStopping) return
    // A stored parent (the root, an inspectable child) can take a turn of its own to react; an opaque one cannot.
    if (this.deps.sessions.getSession(parent.sessionId)) parent.background.backgroundDone(parent.sessionId)
  }

  /**
   * A child's tokens: its own totals when it is a stored session, and the subagent totals of every stored ancestor
   * (opaque children have no row; their usage still reaches the root). The parent's row is announced so its view
   * shows the new total while the run goes on; the root's arrives with its next status change.
   */
  private countUsage(parent: RunLevel, child: RunLevel, usage: TokenUsage, cost: number | null): void {
    if (child.agent.inspectable) this.deps.sessions.addSessionUsage(child.sessionId, usage, cost)
    this.deps.sessions.addSubagentUsage(this.pathOf(parent), usage, cost)
    const row = this.deps.sessions.getSession(parent.sessionId)
    if (row) parent.emit({ type: 'session_updated', sessionId: row.id, at: Date.now(), session: row })
  }

  private childLevel(level: RunLevel, agent: AgentInfo, childId: string, transcript: Transcript, signal: AbortSignal, clock?: TaskClock, model?: ModelRef): RunLevel {
    const child: RunLevel = {
      sessionId: childId,
      rootSessionId: level.rootSessionId,
      parentSessionId: level.sessionId,
      workdir: level.workdir,
      agent,
      agentPath: [...level.agentPath, agent.name],
      chain: [...level.chain, subagentRules(agent, level.settings.config.config)],
      depth: level.depth + 1,
      modelRef: model ?? this.deps.agentModel(agent, level.settings.config.config) ?? level.modelRef,
      signal,
      emit: (event) => {
        clock?.observe(event)
        level.emit({ type: 'subagent_event', sessionId: childId, at: event.at, agentType: agent.name, event })
      },
      userMessageId: null,
      transcript,
      headless: level.headless,
      grants: level.grants,
      background: level.background,
      sessionsPort: level.sessionsPort,
      settings: level.settings,
      scratchpad: level.scratchpad,
    }
    this.paths.set(child, [...this.pathOf(level), childId])
    if (!agent.inspectable) this.anchors.set(child, this.anchorOf(level))
    if (clock) this.clocks.set(child, clock)
    return child
  }

  /** Session ids from the root down to `level`. */
  private pathOf(level: RunLevel): string[] {
    const known = this.paths.get(level)
    if (known) return known
    const ids = [level.sessionId]
    for (let s = this.deps.sessions.getSession(level.sessionId); s?.parentId; s = this.deps.sessions.getSession(s.parentId)) ids.unshift(s.parentId)
    return ids
  }

  private anchorOf(level: RunLevel): Anchor {
    return this.anchors.get(level) ?? { sessionId: level.sessionId, userMessageId: level.userMessageId }
  }

  private writeUserMessage(child: RunLevel, prompt: string): void {
    child.userMessageId = appendTextMessage(child.transcript, child.emit, 'user', prompt, { agent: child.agent.name }).id
  }

  private storedChild(level: RunLevel, applied: AppliedOptions, taskId: string, background: boolean, input: TaskInput, existing: boolean): Transcript {
    const { agent } = applied
    if (!existing) {
      const session = createChildSession(this.deps.sessions, {
        anchor: this.anchorOf(level),
        level,
        taskId,
        agentName: agent.name,
        title: shownName(input),
        model: applied.modelRef ?? this.deps.agentModel(agent, level.settings.config.config) ?? level.modelRef,
        background,
        task: input.metadata,
        options: applied.options,
      })
      level.emit({ type: 'subagent_event', sessionId: taskId, at: Date.now(), agentType: agent.name, event: { type: 'session_created', sessionId: taskId, at: Date.now(), session } })
    } else if (this.deps.sessions.getSession(taskId)?.archivedAt) {
      // Resuming a child archived by `cleanup: "delete"` (or by age) brings it back to the list while it works.
      this.publishSession(level, agent.name, this.deps.sessions.updateSession(taskId, { archivedAt: null }))
    }
    return new StoredTranscript(this.deps.transcript, taskId)
  }

  /** `cleanup: "delete"`: the child's session is archived as soon as it ends; its transcript stays readable there. */
  private setArchived(child: RunLevel, archived: boolean): void {
    const session = this.deps.sessions.updateSession(child.sessionId, { archivedAt: archived ? Date.now() : null })
    child.emit({ type: 'session_updated', sessionId: child.sessionId, at: Date.now(), session })
  }

  private publishSession(level: RunLevel, agentType: string, session: SessionRecord): void {
    level.emit({ type: 'subagent_event', sessionId: session.id, at: Date.now(), agentType, event: { type: 'session_updated', sessionId: session.id, at: Date.now(), session } })
  }

  /** The child ended: its worktree is removed if it changed nothing, else committed, kept and named in what the parent reads. */
  private async closeWorktree(card: TaskCard, publish: () => void, outcome: ChildOutcome, message: string): Promise<ChildOutcome> {
    const open = card.worktree!
    let closed: TaskWorktree
    try {
      closed = await finishWorktree(open, message)
    } catch (err) {
      // Never delete what cannot be inspected: keep it, and say why.
      closed = { ...open, state: 'kept', diffStat: `could not be inspected (${err instanceof Error ? err.message : String(err)})` }
    }
    card.worktree = closed
    publish()
    return closed.state === 'kept' ? { ...outcome, text: `${outcome.text}\n${worktreeNote(closed)}` } : outcome
  }

  /** An opaque child's transcript, mirrored into its task card. */
  private nested(taskId: string, messages: MessageWithParts[], card: TaskCard, ctx: RunToolContext): NestedTranscript {
    return new NestedTranscript(
      taskId,
      messages,
      (own) => ctx.handle.patch({ subagent: { ...card, transcript: own } }),
      (run) => this.deps.transcript.beforeFlush(run),
    )
  }

  private laneFor(rootSessionId: string, limit: number): Lane {
    let lane = this.lanes.get(rootSessionId)
    if (!lane) this.lanes.set(rootSessionId, (lane = new Lane(limit)))
    else lane.setLimit(limit)
    return lane
  }
}
