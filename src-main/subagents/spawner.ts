import { setMaxListeners } from 'node:events'
import { newTaskCard, type AgentInfo, type Config, type MessageWithParts, type ModelRef, type SubagentLimits, type TaskCard, type TokenUsage } from '../../src-shared'
import { addUsage, appendTextMessage, emptyUsage, NestedTranscript, runTurn, StoredTranscript, type RunContext, type Transcript, type TurnResult } from '../loop'
import { agentRules, type PrepareOptions, type RuleSources, type RunLevel, type Runtime, type RunToolContext } from '../runtime'
import { newId, type QueueRepository, type SessionsRepository, type TranscriptRepository } from '../store'
import { ToolError, type ToolDef } from '../tools'
import { findNestedTask } from './nested'
import { Lane, type Slot } from './lane'
import { costOf, statsLine, taskError, taskResult } from './result-text'
import { callableAgents, createTaskTool, type TaskInput } from './task-tool'

export interface SubagentDeps {
  runtime: Runtime
  /** the same rule sources the runtime decides with: which agents a level may call */
  rules: RuleSources
  /** inspectable children are stored sessions */
  sessions: SessionsRepository
  transcript: TranscriptRepository
  /** background children are jobs */
  jobs: Pick<QueueRepository, 'createJob' | 'updateJob'>
  /** the model an agent's file names, resolved with the run's config; undefined = inherit the caller's */
  agentModel(agent: AgentInfo, config: Config): ModelRef | undefined
  pricing(ref: ModelRef): { input: number; output: number } | undefined
  /** an unexpected failure nobody awaits (a background result that could not be delivered); returns its log id */
  fault?(where: string, err: unknown): string
}

/** A child run in flight, blocking or background: what stopping a session and waiting for it needs. */
interface RunningTask {
  controller: AbortController
  /** session ids from the root down to this task's parent (opaque levels included) */
  path: string[]
  /** the child's run, and in the background the delivery of its result */
  done: Promise<void>
}

interface BackgroundJob {
  controller: AbortController
  rootSessionId: string
  parentSessionId: string
  done: Promise<void>
}

/** Spawns children on the same loop: the `task` tool, the per-root lane, background jobs, helper agents. */
export class Subagents {
  private readonly lanes = new Map<string, Lane>()
  private readonly slots = new WeakMap<RunLevel, Slot>()
  private readonly background = new Map<string, BackgroundJob>()
  private readonly taskTools = new Map<string, ToolDef | undefined>()
  private readonly running = new Map<string, RunningTask>()
  /** session ids from the root down to a child level (root levels are computed from the store) */
  private readonly paths = new WeakMap<RunLevel, string[]>()

  constructor(private readonly deps: SubagentDeps) {}

  /** Is this session running as a child right now (blocking or background)? */
  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId)
  }

  /** Resolves when that child's run (and, in the background, the delivery of its result) is over. */
  settled(sessionId: string): Promise<void> {
    return this.running.get(sessionId)?.done ?? Promise.resolve()
  }

  /** Aborts `sessionId` if it runs as a child, and every child below it, blocking and background. Returns their ids. */
  stop(sessionId: string, reason: string): string[] {
    const stopped: string[] = []
    for (const [taskId, t] of this.running) {
      if (taskId !== sessionId && !t.path.includes(sessionId)) continue
      t.controller.abort(reason)
      stopped.push(taskId)
    }
    return stopped
  }

  /** A root session was deleted: its lane goes too. */
  forget(rootSessionId: string): void {
    this.lanes.delete(rootSessionId)
  }

  private pathOf(level: RunLevel): string[] {
    const known = this.paths.get(level)
    if (known) return known
    const ids = [level.sessionId]
    for (let s = this.deps.sessions.getSession(level.sessionId); s?.parentId; s = this.deps.sessions.getSession(s.parentId)) ids.unshift(s.parentId)
    return ids
  }

  /** A run at any level, root or child: the runtime's run context plus the `task` tool when the level may delegate. */
  prepare(level: RunLevel, transcript: Transcript, o: Omit<PrepareOptions, 'tools'> = {}): RunContext {
    const task = this.toolFor(level)
    return this.deps.runtime.prepare(level, transcript, { ...o, tools: task ? [task] : [] })
  }

  /** The `task` tool for a level, or nothing when no agent can be called from it. */
  toolFor(level: RunLevel): ToolDef | undefined {
    // Agents and limits come with the level: read once when the root's prompt started (level.settings).
    const agents = callableAgents(level, level.settings.agents, this.deps.rules)
    // The tool depends only on which agents are callable (the run level arrives with each call), so every spawn
    // with the same set reuses one definition — and its JSON schema, which is costly to derive.
    const key = agents.map((a) => `${a.name}\u0000${a.description}\u0000${JSON.stringify(a.permission)}`).join('\u0001')
    if (!this.taskTools.has(key)) {
      if (this.taskTools.size > 64) this.taskTools.clear()
      this.taskTools.set(key, createTaskTool(agents, { run: (lvl, input, ctx) => this.runTask(lvl, input, ctx as RunToolContext) }))
    }
    return this.taskTools.get(key)
  }

  abortBackground(filter: { rootSessionId?: string; taskId?: string; all?: boolean }, reason: string): number {
    let n = 0
    for (const [id, job] of this.background) {
      if (filter.all || (filter.taskId && id === filter.taskId) || (filter.rootSessionId && job.rootSessionId === filter.rootSessionId)) {
        job.controller.abort(reason)
        n++
      }
    }
    return n
  }

  /** Wait for every background child (tests, orderly shutdown). */
  async settle(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background.values()].map((j) => j.done))
  }

  /** Run a hidden helper agent (title, summary, compaction) as an opaque child of `level` and return its answer. */
  async runHelper(level: RunLevel, agentName: string, prompt: string): Promise<TurnResult> {
    const agent = level.settings.agents.find((a) => a.name === agentName)
    if (!agent) throw new Error(`helper agent "${agentName}" is not defined`)
    const childId = newId('ses')
    const transcript = new NestedTranscript(childId, [], () => {})
    // Helpers are internal plumbing (a title, a summary): their events are not shown as a subagent in the UI.
    const child = { ...this.childLevel(level, agent, childId, transcript, level.signal), emit: () => {} }
    this.writeUserMessage(child, prompt)
    return runTurn(this.prepare(child, transcript))
  }

  private async runTask(level: RunLevel, input: TaskInput, ctx: RunToolContext): Promise<{ output: string; metadata?: Record<string, unknown> }> {
    const limits = level.settings.config.config.subagents
    const agent = level.settings.agents.find((a) => a.name === input.subagent_type)
    if (!agent) throw new ToolError(`No agent "${input.subagent_type}".`)
    if (level.depth + 1 > limits.maxDepth) {
      throw new ToolError(`Subagent depth limit reached (maxDepth ${limits.maxDepth}): this agent is at depth ${level.depth} and cannot start another level. Do the work yourself.`)
    }
    const background = input.background ?? agent.background
    const resumed = input.task_id ? this.findResumable(level, input.task_id, agent) : undefined
    const taskId = resumed?.taskId ?? newId('ses')

    const card: TaskCard = newTaskCard({
      taskId,
      agentType: agent.name,
      description: input.description,
      background,
      inspectable: agent.inspectable,
      depth: level.depth + 1,
      status: 'queued',
    })
    const publish = () => {
      ctx.handle.patch({ subagent: { ...(ctx.handle.part.data.subagent as object | undefined), ...card } })
      const { transcript: _t, ...summary } = card
      level.emit({ type: 'task_update', sessionId: level.sessionId, at: Date.now(), messageId: ctx.handle.part.messageId, partId: ctx.handle.part.id, toolCallId: ctx.toolCallId, task: summary })
    }
    publish()

    const controller = new AbortController()
    const onParentAbort = () => controller.abort('aborted by parent')
    // Each child of a fan-out listens to its parent's signal; 64 at once is normal, not the leak Node warns about
    // (on stderr, to the user) past 10 listeners. 0 = no limit.
    setMaxListeners(0, level.signal)
    if (level.signal.aborted) onParentAbort()
    else level.signal.addEventListener('abort', onParentAbort, { once: true })

    const transcript: Transcript = agent.inspectable
      ? this.storedChild(level, agent, taskId, background, input, resumed !== undefined)
      : new NestedTranscript(
          taskId,
          resumed?.messages ?? [],
          (messages) => ctx.handle.patch({ subagent: { ...card, transcript: messages } }),
          (run) => this.deps.transcript.beforeFlush(run),
        )
    const child = this.childLevel(level, agent, taskId, transcript, controller.signal)
    const task: RunningTask = { controller, path: this.pathOf(level), done: Promise.resolve() }
    this.running.set(taskId, task)
    const finished = () => {
      if (this.running.get(taskId) === task) this.running.delete(taskId)
    }

    const work = this.execute(child, input.prompt, card, publish, controller, limits, agent).finally(() => {
      level.signal.removeEventListener('abort', onParentAbort)
      if (transcript instanceof NestedTranscript) transcript.flush()
    })

    if (background) {
      const done = work
        .then((outcome) => this.deliverBackground(level, outcome, card.status === 'aborted'))
        .finally(() => {
          this.background.delete(taskId)
          this.deps.jobs.updateJob(taskId, card.status === 'completed' ? 'completed' : card.status === 'aborted' ? 'aborted' : 'failed')
        })
        // Nobody awaits a background child: a result that cannot be delivered is logged, never an unhandled rejection.
        .catch((err: unknown) => void this.deps.fault?.(`background task ${taskId}`, err))
        .finally(finished)
      task.done = done
      this.deps.jobs.createJob({
        id: taskId,
        parentSessionId: level.sessionId,
        rootSessionId: level.rootSessionId,
        parentMessageId: level.userMessageId,
        toolCallId: ctx.toolCallId,
        agentType: agent.name,
        description: input.description,
      })
      this.background.set(taskId, { controller, rootSessionId: level.rootSessionId, parentSessionId: level.sessionId, done })
      return { output: JSON.stringify({ task_id: taskId, status: 'running' }), metadata: { taskId, background: true } }
    }

    task.done = work.then(finished, finished)
    const slot = this.slots.get(level)
    const outcome = slot ? await slot.yieldWhile(work) : await work
    if (!outcome.ok) throw new ToolError(outcome.text)
    return { output: outcome.text, metadata: { taskId, sessionId: agent.inspectable ? taskId : undefined } }
  }

  /** Queue in the lane, run the child's turn with its timeout, and produce the result text for the parent. */
  private async execute(
    child: RunLevel,
    prompt: string,
    card: TaskCard,
    publish: () => void,
    controller: AbortController,
    limits: SubagentLimits,
    agent: AgentInfo,
  ): Promise<{ ok: boolean; text: string }> {
    const lane = this.laneFor(child.rootSessionId, limits.maxConcurrent)
    let slot: Slot | undefined
    const usage: TokenUsage = emptyUsage()
    const started = Date.now()
    let timer: NodeJS.Timeout | undefined
    try {
      slot = await lane.acquire(controller.signal)
      this.slots.set(child, slot)
      card.status = 'running'
      card.startedAt = Date.now()
      publish()
      timer = setTimeout(() => controller.abort(`timed out after ${limits.timeoutSeconds}s`), limits.timeoutSeconds * 1000)
      this.setChildStatus(child, 'busy')
      const pricing = this.deps.pricing(child.modelRef)
      this.writeUserMessage(child, prompt)
      const run = this.prepare(child, child.transcript, {
        onStep: ({ usage: u }) => {
          addUsage(usage, u)
          card.steps++
          card.tokensIn = usage.prompt
          card.tokensOut = usage.completion
          card.costUsd = costOf(usage, pricing)
          publish()
        },
      })
      const result = await runTurn(run)
      const cost = costOf(usage, pricing)
      if (agent.inspectable) this.deps.sessions.addSessionUsage(child.sessionId, usage, cost ?? 0)
      const ok = result.finishReason === 'stop' || result.finishReason === 'max_steps'
      card.status = ok ? 'completed' : result.finishReason === 'aborted' ? 'aborted' : 'failed'
      card.error = ok ? null : (result.error ?? 'failed')
      this.setChildStatus(child, ok ? 'idle' : result.finishReason === 'aborted' ? 'aborted' : 'error', card.error ?? undefined)
      child.emit({ type: 'turn_complete', sessionId: child.sessionId, at: Date.now(), messageId: result.lastMessageId, finishReason: result.finishReason, usage, text: result.text })
      if (!ok) return { ok: false, text: taskError(agent.name, child.sessionId, card.error ?? 'failed') }
      return { ok: true, text: taskResult(agent.name, child.sessionId, result.text, statsLine(Date.now() - started, usage, cost)) }
    } catch (err) {
      // Only a lane wait cut short by abort lands here; the loop itself never throws.
      const reason = controller.signal.aborted ? String(controller.signal.reason) : err instanceof Error ? err.message : String(err)
      card.status = controller.signal.aborted ? 'aborted' : 'failed'
      card.error = reason
      this.setChildStatus(child, 'aborted', reason)
      return { ok: false, text: taskError(agent.name, child.sessionId, reason) }
    } finally {
      clearTimeout(timer)
      slot?.release()
      card.endedAt = Date.now()
      publish()
    }
  }

  private deliverBackground(parent: RunLevel, outcome: { ok: boolean; text: string }, aborted: boolean): void {
    appendTextMessage(parent.transcript, parent.emit, 'assistant', outcome.text, { synthetic: true, agent: parent.agent.name })
    // A stored parent (the root, an inspectable child) can take a turn of its own to react; an opaque one cannot. A
    // child that was stopped wakes nobody: its result is stored, and the next turn the person starts sees it (a
    // woken parent could start the same child again, and Stop would never stop).
    if (!aborted && this.deps.sessions.getSession(parent.sessionId)) parent.background.backgroundDone(parent.sessionId)
  }

  private childLevel(level: RunLevel, agent: AgentInfo, childId: string, transcript: Transcript, signal: AbortSignal): RunLevel {
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
      emit: (event) => level.emit({ type: 'subagent_event', sessionId: childId, at: event.at, agentType: agent.name, event }),
      userMessageId: null,
      transcript,
      headless: level.headless,
      grants: level.grants,
      background: level.background,
      settings: level.settings,
    }
    this.paths.set(child, [...this.pathOf(level), childId])
    return child
  }

  private writeUserMessage(child: RunLevel, prompt: string): void {
    child.userMessageId = appendTextMessage(child.transcript, child.emit, 'user', prompt, { agent: child.agent.name }).id
  }

  private storedChild(level: RunLevel, agent: AgentInfo, taskId: string, background: boolean, input: TaskInput, existing: boolean): Transcript {
    if (!existing) {
      const session = this.deps.sessions.createSession({
        id: taskId,
        agent: agent.name,
        title: input.description,
        workspaceRoot: level.workdir,
        model: this.deps.agentModel(agent, level.settings.config.config) ?? level.modelRef,
        parentId: level.sessionId,
        parentMessageId: level.userMessageId,
        metadata: {
          subagent: { agentType: agent.name, parentSessionId: level.sessionId, depth: level.depth + 1, background, inspectable: true },
          ...(input.metadata ? { task: input.metadata } : {}),
        },
      })
      level.emit({ type: 'subagent_event', sessionId: taskId, at: Date.now(), agentType: agent.name, event: { type: 'session_created', sessionId: taskId, at: Date.now(), session } })
    }
    return new StoredTranscript(this.deps.transcript, taskId)
  }

  private setChildStatus(child: RunLevel, status: 'busy' | 'idle' | 'error' | 'aborted', reason?: string): void {
    if (child.agent.inspectable) this.deps.sessions.updateSession(child.sessionId, { status })
    child.emit({ type: 'status_change', sessionId: child.sessionId, at: Date.now(), status, reason })
  }

  /** `task_id` must name a descendant of the caller: an inspectable child session, or an opaque one nested in its history. */
  private findResumable(level: RunLevel, taskId: string, agent: AgentInfo): { taskId: string; messages?: MessageWithParts[] } {
    if (agent.inspectable) {
      let s = this.deps.sessions.getSession(taskId)
      const target = s
      while (s && s.parentId && s.parentId !== level.sessionId) s = this.deps.sessions.getSession(s.parentId)
      if (!target || !s || s.parentId !== level.sessionId) {
        throw new ToolError(`task_id ${taskId} is not a subagent of this session; start a new task without task_id.`)
      }
      if (target.agent !== agent.name) throw new ToolError(`task_id ${taskId} was a "${target.agent}" task; resume it with subagent_type "${target.agent}".`)
      return { taskId }
    }
    const found = findNestedTask(level.transcript.history(), taskId)
    if (!found) throw new ToolError(`task_id ${taskId} is not a subagent of this session; start a new task without task_id.`)
    if (found.agentType !== agent.name) throw new ToolError(`task_id ${taskId} was a "${found.agentType}" task; resume it with subagent_type "${found.agentType}".`)
    return { taskId, messages: found.transcript ?? [] }
  }

  private laneFor(rootSessionId: string, limit: number): Lane {
    let lane = this.lanes.get(rootSessionId)
    if (!lane) this.lanes.set(rootSessionId, (lane = new Lane(limit)))
    else lane.setLimit(limit)
    return lane
  }
}
