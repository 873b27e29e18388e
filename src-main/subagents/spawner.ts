import { setMaxListeners } from 'node:events'
import { isolationOf, newTaskCard, type AgentInfo, type Config, type MessageWithParts, type ModelRef, type TaskCard, type TokenUsage } from '../../src-shared'
import { appendTextMessage, buildPrompt, NestedTranscript, runTurn, type RunContext, type Transcript, type TurnResult } from '../loop'
import { Allowance, budgetReachedLine, callableSubagents, RunRefused, subagentRules, type PrepareOptions, type RuleSources, type RunLevel, type RunRegistry, type Runtime, type RunToolContext } from '../runtime'
import { newId, type QueueRepository, type SessionsRepository, type TranscriptRepository } from '../store'
import { ToolError, type ToolDef } from '../tools'
import { AbortCauses, causeOfReason, inheritedCause, PARENT_ABORT_REASON, timeoutCause, timeoutReason } from './abort-cause'
import { deliverBackground } from './background'
import { runChild, type ChildOutcome } from './child-run'
import { archiveChild, findEarlierChild, notYourChild, storedChildTranscript, type Anchor, type EarlierChild } from './child-session'
import { FORK_NOT_RESUMABLE, FORK_TYPE, forkDirective, ForkTranscript, inheritedConversation, refuseFork } from './fork'
import { asData, HELPER_INPUT } from './helper-input'
import { Lane, type Slot } from './lane'
import { childBudget, FanOutGate } from './fan-out'
import { backgroundStarted, taskError } from './result-text'
import { RespawnGuard } from './respawn-guard'
import { createSessionTools } from './session-tools'
import { TaskClock } from './task-clock'
import { applyTaskOptions, shownName, type CallModelResolver } from './task-options'
import { TaskTools, type TaskInput } from './task-tool'
import { closeWorktree, openWorktree, worktreeNote } from './worktree'
import { closeTaskContainer, containerNote, openTaskContainer, type ContainerPort, type OpenContainer } from './task-container'

export interface SubagentDeps {
  runtime: Runtime
  /** every run in flight: children start and end in it, next to the runner's turns */
  runs: RunRegistry
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
  /** container engines (isolation: container); absent → such tasks are refused with a tool error */
  containers?: ContainerPort
  /** an unexpected failure nobody awaits (a background result that could not be delivered); returns its log id */
  fault?(where: string, err: unknown): string
}

/** Spawns children on the same loop: the `task` tool, the per-root lane, running children, helper agents. */
export class Subagents {
  private readonly lanes = new Map<string, Lane>()
  private readonly slots = new WeakMap<RunLevel, Slot>()
  private readonly clocks = new WeakMap<RunLevel, TaskClock>()
  /** for opaque child levels: the stored session their inspectable children hang from */
  private readonly anchors = new WeakMap<RunLevel, Anchor>()
  private readonly causes = new AbortCauses()
  private readonly taskTools: TaskTools
  /** sessions_list/history/send/wait: offered where the rules allow them (never to subagents by default) */
  private readonly sessionTools: ToolDef[]
  /** the run context each level runs with (a fork copies its parent's prompt and tools from here) */
  private readonly contexts = new WeakMap<RunLevel, RunContext>()
  /** fork levels, and the run context of the parent each was forked from */
  private readonly forks = new WeakSet<RunLevel>()
  private readonly forkOf = new WeakMap<RunLevel, { run: RunContext; prefixLength: number }>()
  /** a step that starts many children (or costly ones) at once waits for the person first */
  private readonly fanOut: FanOutGate
  /** the same background task started again and again is refused (a parent woken by its result, restarting it) */
  private readonly respawns = new RespawnGuard()

  constructor(private readonly deps: SubagentDeps) {
    this.fanOut = new FanOutGate(deps.runtime.deps.approvals)
    this.sessionTools = createSessionTools({ sessions: deps.sessions, transcript: deps.transcript, isRunning: (id) => deps.runs.isRunning(id) })
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
    this.contexts.set(level, run)
    return run
  }

  /** The `task` tool for a level, or nothing when no agent can be called from it. */
  toolFor(level: RunLevel): ToolDef | undefined {
    return this.taskTools.forLevel(level)
  }

  /** A root session was deleted: its lane goes too. */
  forget(rootSessionId: string): void {
    this.lanes.delete(rootSessionId)
    this.respawns.forget(rootSessionId)
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
    const { sessions, jobs, runs } = this.deps
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
    if (background) this.respawns.check(level, agent.name, input.prompt)
    await this.fanOut.approve(level, ctx)
    // After the person's answer: what the caller has left is read when the child starts, not before the wait.
    const budget = childBudget(level, agent, input)
    if (resumed) this.refuseIfRunning(resumed.taskId)
    const taskId = resumed?.taskId ?? newId('ses')
    const label = shownName(input)
    // Worktree isolation (the call's, else the agent's): made before anything is shown, so "not a repository" is a
    // plain tool error. A resumed child goes on in the worktree it kept.
    const isolation = isolationOf(input.isolation ?? (fork ? undefined : agent.isolation))
    if (fork && (isolation.worktree || isolation.container)) throw new ToolError('A fork works where its parent works: isolation needs a typed subagent (subagent_type).')
    const isolated = isolation.worktree ? await openWorktree(level.workdir, this.deps.dataDir, taskId) : undefined
    const card: TaskCard = newTaskCard({ taskId, agentType: agent.name, description: input.description, background, inspectable: agent.inspectable, depth: level.depth + 1, status: 'queued' })
    if (Object.keys(applied.options).length) card.options = applied.options
    const allowance = new Allowance(level.allowance, budget, `the budget of task "${label}"`)
    const view = allowance.view()
    if (view) card.budget = view
    if (fork) card.fork = true
    if (isolated) card.worktree = isolated.worktree
    const publish = () => {
      ctx.handle.patch({ subagent: { ...(ctx.handle.part.data.subagent as object | undefined), ...card } })
      const { transcript: _t, ...summary } = card
      level.emit({ type: 'task_update', sessionId: level.sessionId, at: Date.now(), messageId: ctx.handle.part.messageId, partId: ctx.handle.part.id, toolCallId: ctx.toolCallId, task: summary })
    }
    publish()
    // Nothing ran; the card must still end (a card left "queued" would spin forever in the UI).
    const refused = (reason: string, why?: 'budget'): ToolError => {
      Object.assign(card, { status: 'failed', error: reason, endedAt: Date.now() })
      publish()
      return new ToolError(taskError(agent.name, taskId, reason, why))
    }
    // Nothing is left to spend above it: it is not even started (a step would already go past the limit).
    const spentUp = allowance.reached()
    if (spentUp) throw refused(`Not started: ${budgetReachedLine(spentUp)}. Budgets are set by the person; finish with what you have, or tell the person more budget is needed.`, 'budget')

    const controller = new AbortController()
    const onParentAbort = () => this.causes.abort(controller, PARENT_ABORT_REASON, inheritedCause(this.causes.of(level.signal)))
    // Each child of a fan-out listens to its parent's signal; 64 at once is normal, not the leak Node warns about
    // (on stderr, to the user) past 10 listeners. 0 = no limit.
    setMaxListeners(0, level.signal)

    // What a fork inherits, taken now, while the parent's conversation is as its last request sent it.
    const inherited = fork ? inheritedConversation(level.transcript.history(), ctx.handle.part.messageId, ctx.toolCallId) : undefined
    let transcript: Transcript
    try {
      transcript = fork
        ? new ForkTranscript(inherited!, this.nested(taskId, [], card, ctx))
        : agent.inspectable
          ? storedChildTranscript(this.deps, level, {
              anchor: this.anchorOf(level),
              level,
              taskId,
              agentName: agent.name,
              title: label,
              model: applied.modelRef ?? this.deps.agentModel(agent, level.settings.config.config) ?? level.modelRef,
              background,
              task: input.metadata,
              options: applied.options,
              existing: resumed !== undefined,
            })
          : this.nested(taskId, resumed?.messages ?? [], card, ctx)
    } catch (err) {
      throw refused((err as Error).message)
    }
    const seconds = applied.timeoutSeconds
    const clock = new TaskClock(seconds * 1000, () => this.causes.abort(controller, timeoutReason(seconds), timeoutCause(seconds)))
    const child = this.childLevel(level, applied.agent, taskId, transcript, controller.signal, clock, applied.modelRef ?? (fork ? level.modelRef : undefined))
    child.allowance = allowance
    // Who asks, in the person's words on an approval: "build › Check the repo › Inspect git".
    child.labelPath = [...(level.labelPath ?? []), label]
    if (isolated) Object.assign(child, { workdir: isolated.workdir, worktree: isolated.worktree })
    // A worktree of its own is not mounted in the caller's container: such a child works on the host unless it asks for
    // a container too.
    if (isolated && !isolation.container) delete child.container
    // Its own container (isolation: container), with its worktree mounted when it has one: started before its first step.
    let box: OpenContainer | undefined
    if (isolation.container) {
      try {
        box = await openTaskContainer(this.deps.containers, child, this.deps.runtime.sandboxFor(child).network)
      } catch (err) {
        if (card.worktree) card.worktree = await closeWorktree(card.worktree, `Agentry task ${taskId}: ${label}`)
        throw refused((err as Error).message)
      }
      child.container = box.handle
      card.container = box.card
      publish()
    }
    if (fork) {
      this.forks.add(child)
      const parentRun = this.contexts.get(level)
      // The parent's last request: its system prompt and every message before the step that forked.
      if (parentRun) this.forkOf.set(child, { run: parentRun, prefixLength: buildPrompt(parentRun.system, inherited!.slice(0, -1)).length })
    }
    if (background) {
      // A resumed background child runs again under its old job row (restart reconciliation finds its card by id).
      if (jobs.getJob(taskId)) jobs.updateJob(taskId, 'running')
      else jobs.createJob({ id: taskId, parentSessionId: level.sessionId, rootSessionId: level.rootSessionId, parentMessageId: level.userMessageId, toolCallId: ctx.toolCallId, agentType: agent.name, description: label })
    }

    // The child's run, in the registry from before its first step to after its result is delivered.
    let outcome!: Promise<ChildOutcome>
    const run = (totals: Parameters<typeof runChild>[0]['totals']) =>
      runChild({
        sessions,
        prepare: (lvl, t, o) => this.prepare(lvl, t, o),
        modelInfo: this.deps.modelInfo,
        countUsage: (usage, cost) => this.countUsage(level, child, usage, cost),
        announceUsage: () => this.announceUsage(level),
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
        totals,
        allowance,
      })
        .then(async (o) => {
          // The container goes first: nothing may still be writing in the worktree when it is committed.
          let text = o.text
          if (box) {
            card.container = await closeTaskContainer(box, child.settings.config.config.containers.keep)
            box = undefined
            publish()
            const note = containerNote(card.container)
            if (note) text = `${text}\n${note}`
          }
          if (card.worktree) {
            card.worktree = await closeWorktree(card.worktree, `Agentry task ${taskId}: ${label}`)
            publish()
            if (card.worktree.state === 'kept') text = `${text}\n${worktreeNote(card.worktree)}`
          }
          return text === o.text ? o : { ...o, text }
        })
        .finally(() => {
          // Never left running when the child's run failed unexpectedly (remove is idempotent).
          if (box) void box.handle.remove().catch((err: unknown) => this.deps.fault?.('container removal', err))
          level.signal.removeEventListener('abort', onParentAbort)
          if (transcript instanceof NestedTranscript || transcript instanceof ForkTranscript) transcript.flush()
          if (applied.options.cleanup === 'delete' && agent.inspectable) archiveChild(sessions, child)
        })
    let record
    try {
      record = runs.begin(
        {
          kind: 'task',
          sessionId: taskId,
          path: child.path,
          agentType: agent.name,
          label,
          background,
          controller,
          budget: () => allowance.view(),
          // Its own Stop, or one from above: the cause is the person's (or the host's) either way.
          abort: (c, reason, self) => this.causes.abort(c, self ? reason : PARENT_ABORT_REASON, causeOfReason(reason)),
        },
        (r) => {
          outcome = run(r.totals)
          if (!background) return outcome.then(() => undefined)
          return outcome
            .then((o) => deliverBackground(sessions, level, o, { taskId, agentType: agent.name, description: label }))
            .finally(() => jobs.updateJob(taskId, card.status === 'completed' ? 'completed' : card.status === 'aborted' ? 'aborted' : 'failed'))
            // Nobody awaits a background child: a result that cannot be delivered is logged, never an unhandled rejection.
            .catch((err: unknown) => void this.deps.fault?.(`background task ${taskId}`, err))
        },
      )
    } catch (err) {
      if (background) jobs.updateJob(taskId, 'failed')
      if (err instanceof RunRefused) throw refused(err.message)
      throw err
    }
    if (level.signal.aborted) onParentAbort()
    else level.signal.addEventListener('abort', onParentAbort, { once: true })

    if (background) return { output: backgroundStarted(agent.name, taskId, label), metadata: { taskId, background: true } }
    // A parent that is itself a child gives back its lane slot, and stops its own clock, while it waits.
    let waiting = outcome
    const slot = this.slots.get(level)
    if (slot) waiting = slot.yieldWhile(waiting)
    const parentClock = this.clocks.get(level)
    if (parentClock) waiting = parentClock.pauseWhile(waiting)
    const result = await waiting
    await record.done
    if (!result.ok) throw new ToolError(result.text, { describesAbort: true })
    return { output: result.text, metadata: { taskId, sessionId: agent.inspectable ? taskId : undefined } }
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
    const r = this.deps.runs.get(taskId)
    if (!r) return
    const what = r.kind === 'task' ? `${r.agentType}: "${r.label}"` : `${r.agentType}: "${this.deps.sessions.getSession(taskId)?.title ?? ''}"`
    const how = r.kind === 'task' && !r.background ? 'its result comes back to the call that started it' : 'its result arrives as a message when it ends'
    throw new ToolError(`task_id ${taskId} (${what}) is still running; wait for its result (${how}) instead of resuming it, or start a new task without task_id.`)
  }

  /**
   * A step's tokens, as it happens (a host that dies loses nothing spent): the child's own totals when it is a stored
   * session, and the subagent totals of every stored ancestor (opaque children have no row; their usage still
   * reaches the root).
   */
  private countUsage(parent: RunLevel, child: RunLevel, usage: TokenUsage, cost: number | null): void {
    if (child.agent.inspectable) this.deps.sessions.addSessionUsage(child.sessionId, usage, cost)
    this.deps.sessions.addSubagentUsage(parent.path, usage, cost)
  }

  /** The parent's row with its children's totals, announced once a child's turn is over (its card shows it live). */
  private announceUsage(parent: RunLevel): void {
    const row = this.deps.sessions.getSession(parent.sessionId)
    if (row) parent.emit({ type: 'session_updated', sessionId: row.id, at: Date.now(), session: row })
  }

  private childLevel(level: RunLevel, agent: AgentInfo, childId: string, transcript: Transcript, signal: AbortSignal, clock?: TaskClock, model?: ModelRef): RunLevel {
    const child: RunLevel = {
      sessionId: childId,
      rootSessionId: level.rootSessionId,
      parentSessionId: level.sessionId,
      path: [...level.path, childId],
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
      // Its children work where it works: in its container too (a child of its own container gets that one instead).
      ...(level.container ? { container: level.container } : {}),
    }
    if (!agent.inspectable) this.anchors.set(child, this.anchorOf(level))
    if (clock) this.clocks.set(child, clock)
    return child
  }

  private anchorOf(level: RunLevel): Anchor {
    return this.anchors.get(level) ?? { sessionId: level.sessionId, userMessageId: level.userMessageId }
  }

  private writeUserMessage(child: RunLevel, prompt: string): void {
    child.userMessageId = appendTextMessage(child.transcript, child.emit, 'user', prompt, { agent: child.agent.name }).id
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
