import { setMaxListeners } from 'node:events'
import { newTaskCard, type AgentInfo, type Config, type ModelRef, type TaskCard, type TokenUsage } from '../../src-shared'
import { appendTextMessage, NestedTranscript, runTurn, StoredTranscript, type RunContext, type Transcript, type TurnResult } from '../loop'
import { agentRules, type PrepareOptions, type RuleSources, type RunLevel, type Runtime, type RunToolContext } from '../runtime'
import { newId, type QueueRepository, type SessionsRepository, type TranscriptRepository } from '../store'
import { ToolError, type ToolDef } from '../tools'
import { AbortCauses, HOST_STOP_REASON, inheritedCause, PARENT_ABORT_REASON, timeoutCause, timeoutReason, USER_STOP_REASON, causeOfReason, type AbortCause } from './abort-cause'
import { runChild, type ChildOutcome } from './child-run'
import { createChildSession, findResumable, sessionBusy, type Anchor } from './child-session'
import { Lane, type Slot } from './lane'
import { taskError } from './result-text'
import { TaskClock } from './task-clock'
import { TaskTools, type TaskInput } from './task-tool'

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
  /** an unexpected failure nobody awaits (a background result that could not be delivered); returns its log id */
  fault?(where: string, err: unknown): string
}

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

  constructor(private readonly deps: SubagentDeps) {
    this.taskTools = new TaskTools({ run: (lvl, input, ctx) => this.runTask(lvl, input, ctx as RunToolContext) }, deps.rules, deps.agentModel)
  }

  /** A run at any level, root or child: the runtime's run context plus the `task` tool when the level may delegate. */
  prepare(level: RunLevel, transcript: Transcript, o: Omit<PrepareOptions, 'tools'> = {}): Promise<RunContext> {
    const task = this.toolFor(level)
    return this.deps.runtime.prepare(level, transcript, { ...o, tools: task ? [task] : [] })
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
   * `model` when given (the small model) unless the helper agent names its own.
   */
  async runHelper(level: RunLevel, agentName: string, prompt: string, model?: ModelRef): Promise<TurnResult> {
    const agent = level.settings.agents.find((a) => a.name === agentName)
    if (!agent) throw new Error(`helper agent "${agentName}" is not defined`)
    const childId = newId('ses')
    const transcript = new NestedTranscript(childId, [], () => {})
    const modelRef = this.deps.agentModel(agent, level.settings.config.config) ?? model ?? level.modelRef
    // Helpers are internal plumbing (a title, a summary): their events are not shown as a subagent in the UI.
    const child: RunLevel = { ...this.childLevel(level, agent, childId, transcript, level.signal), modelRef, emit: () => {} }
    this.writeUserMessage(child, prompt)
    return runTurn(await this.prepare(child, transcript))
  }

  private async runTask(level: RunLevel, input: TaskInput, ctx: RunToolContext): Promise<{ output: string; metadata?: Record<string, unknown> }> {
    const { sessions, jobs } = this.deps
    const limits = level.settings.config.config.subagents
    const agent = level.settings.agents.find((a) => a.name === input.subagent_type)
    if (!agent) throw new ToolError(`No agent "${input.subagent_type}".`)
    if (level.depth + 1 > limits.maxDepth) {
      throw new ToolError(`Subagent depth limit reached (maxDepth ${limits.maxDepth}): this agent is at depth ${level.depth} and cannot start another level. Do the work yourself.`)
    }
    const background = input.background ?? agent.background
    // Only the caller's own children can be resumed (checked first: another's child is not even described).
    const resumed = input.task_id ? findResumable(sessions, level, input.task_id, agent.name, agent.inspectable) : undefined
    if (resumed) this.refuseIfRunning(resumed.taskId)
    const taskId = resumed?.taskId ?? newId('ses')
    const card: TaskCard = newTaskCard({ taskId, agentType: agent.name, description: input.description, background, inspectable: agent.inspectable, depth: level.depth + 1, status: 'queued' })
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

    let transcript: Transcript
    try {
      transcript = agent.inspectable
        ? this.storedChild(level, agent, taskId, background, input, resumed !== undefined)
        : new NestedTranscript(
            taskId,
            resumed?.messages ?? [],
            (messages) => ctx.handle.patch({ subagent: { ...card, transcript: messages } }),
            (run) => this.deps.transcript.beforeFlush(run),
          )
    } catch (err) {
      // Nothing ran; the card must still end (a card left "queued" would spin forever in the UI).
      level.signal.removeEventListener('abort', onParentAbort)
      Object.assign(card, { status: 'failed', error: (err as Error).message, endedAt: Date.now() })
      publish()
      throw new ToolError(taskError(agent.name, taskId, card.error ?? 'failed'))
    }
    const seconds = limits.timeoutSeconds
    const clock = new TaskClock(seconds * 1000, () => this.causes.abort(controller, timeoutReason(seconds), timeoutCause(seconds)))
    const child = this.childLevel(level, agent, taskId, transcript, controller.signal, clock)
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
      prompt: input.prompt,
      card,
      publish,
      signal: controller.signal,
      clock,
      cause: () => this.causes.of(controller.signal),
      write: (lvl, text) => this.writeUserMessage(lvl, text),
    }).finally(() => {
      level.signal.removeEventListener('abort', onParentAbort)
      if (transcript instanceof NestedTranscript) transcript.flush()
    })
    this.running.set(taskId, entry)

    if (background) {
      // A resumed background child runs again under its old job row (restart reconciliation finds its card by id).
      if (jobs.getJob(taskId)) jobs.updateJob(taskId, 'running')
      else jobs.createJob({ id: taskId, parentSessionId: level.sessionId, rootSessionId: level.rootSessionId, parentMessageId: level.userMessageId, toolCallId: ctx.toolCallId, agentType: agent.name, description: input.description })
      entry.done = work
        .then((outcome) => this.deliverBackground(level, outcome))
        .finally(() => {
          this.running.delete(taskId)
          jobs.updateJob(taskId, card.status === 'completed' ? 'completed' : card.status === 'aborted' ? 'aborted' : 'failed')
        })
        // Nobody awaits a background child: a result that cannot be delivered is logged, never an unhandled rejection.
        .catch((err: unknown) => void this.deps.fault?.(`background task ${taskId}`, err))
      return { output: JSON.stringify({ task_id: taskId, status: 'running' }), metadata: { taskId, background: true } }
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

  /** Never two runs on one session: a child still running cannot be resumed (its result is on its way). */
  private refuseIfRunning(taskId: string): void {
    const t = this.running.get(taskId)
    const stored = this.deps.sessions.getSession(taskId)
    if (!t && !sessionBusy(this.deps.sessions, taskId)) return
    const what = t ? `${t.agentType}: "${t.description}"` : `${stored?.agent}: "${stored?.title}"`
    const how = t?.background === false ? 'its result comes back to the call that started it' : 'its result arrives as a message when it ends'
    throw new ToolError(`task_id ${taskId} (${what}) is still running; wait for its result (${how}) instead of resuming it, or start a new task without task_id.`)
  }

  private deliverBackground(parent: RunLevel, outcome: ChildOutcome): void {
    appendTextMessage(parent.transcript, parent.emit, 'assistant', outcome.text, { synthetic: true, agent: parent.agent.name })
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

  private childLevel(level: RunLevel, agent: AgentInfo, childId: string, transcript: Transcript, signal: AbortSignal, clock?: TaskClock): RunLevel {
    const child: RunLevel = {
      sessionId: childId,
      rootSessionId: level.rootSessionId,
      parentSessionId: level.sessionId,
      workdir: level.workdir,
      agent,
      agentPath: [...level.agentPath, agent.name],
      chain: [...level.chain, agentRules(agent)],
      depth: level.depth + 1,
      modelRef: this.deps.agentModel(agent, level.settings.config.config) ?? level.modelRef,
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
      settings: level.settings,
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

  private storedChild(level: RunLevel, agent: AgentInfo, taskId: string, background: boolean, input: TaskInput, existing: boolean): Transcript {
    if (!existing) {
      const session = createChildSession(this.deps.sessions, {
        anchor: this.anchorOf(level),
        level,
        taskId,
        agentName: agent.name,
        title: input.description,
        model: this.deps.agentModel(agent, level.settings.config.config) ?? level.modelRef,
        background,
        task: input.metadata,
      })
      level.emit({ type: 'subagent_event', sessionId: taskId, at: Date.now(), agentType: agent.name, event: { type: 'session_created', sessionId: taskId, at: Date.now(), session } })
    }
    return new StoredTranscript(this.deps.transcript, taskId)
  }

  private laneFor(rootSessionId: string, limit: number): Lane {
    let lane = this.lanes.get(rootSessionId)
    if (!lane) this.lanes.set(rootSessionId, (lane = new Lane(limit)))
    else lane.setLimit(limit)
    return lane
  }
}
