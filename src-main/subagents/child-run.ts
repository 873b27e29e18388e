import { countToolCalls, type Config, type MessageWithParts, type ModelRef, type TaskCard, type TokenUsage } from '../../src-shared'
import { isToolPart, runTurn, toolNameOf, type RunContext, type Transcript, type TurnResult } from '../loop'
import { addStep, budgetErrorText, budgetReachedLine, budgetStopMessage, type Allowance, type PrepareOptions, type RunLevel, type RunTotals } from '../runtime'
import type { SessionsRepository } from '../store'
import type { AbortCause } from './abort-cause'
import type { Lane, Slot } from './lane'
import { activitySentence, incompleteNote, statsLine, taskError, taskResult, type Activity } from './result-text'
import type { TaskClock } from './task-clock'

/**
 * What the parent gets: the exact `<task_result>` / `<task_error>` text, and why the child stopped when it was aborted.
 * A result is `incomplete` (with the reason) when the child stopped before it finished — its step cap, its own
 * timeout, a last step without an answer — and says so, with what it did and how to continue it.
 */
export type ChildOutcome =
  | { ok: true; text: string; aborted: false; finalText: string; incomplete?: string }
  | { ok: false; text: string; aborted: false }
  | { ok: false; text: string; aborted: true; cause: AbortCause }

export interface ChildRun {
  sessions: Pick<SessionsRepository, 'updateSession'>
  /** the run context of a level (the subagents module adds its `task` tool) */
  prepare(level: RunLevel, transcript: Transcript, o: Omit<PrepareOptions, 'tools'>): Promise<RunContext>
  /** a model's price with the run's config: the cost of one step, null if unknown */
  modelInfo(ref: ModelRef, config: Config): Promise<{ cost(usage: TokenUsage): number | null }>
  /** one step's tokens and cost, as it happens: its own row (if stored) and its ancestors' subagent totals */
  countUsage(usage: TokenUsage, cost: number | null): void
  /** its turn is over: the parent's row, with the new totals, goes to viewers (once per child, not per step) */
  announceUsage(): void
  lane: Lane
  onSlot(slot: Slot): void
  child: RunLevel
  prompt: string
  card: TaskCard
  publish(): void
  signal: AbortSignal
  clock: TaskClock
  /** the real cause, once `signal` is aborted */
  cause(): AbortCause
  write(child: RunLevel, prompt: string): void
  /** a fork: not resumable (an incomplete one is started anew) */
  fork?: boolean
  /** the run's totals in the run registry: each model step is added here */
  totals: RunTotals
  /** its budget, chained to every one above: each step is charged to all of them, and checked before the next */
  allowance: Allowance
}

/**
 * One child's run: wait for a lane slot (`queued`), run its turn on the same loop with its clock going (`running`),
 * and end in exactly one terminal card status — `completed`, `failed` or `aborted` — whatever happens, with the
 * result text for the parent. Never throws.
 */
export async function runChild(r: ChildRun): Promise<ChildOutcome> {
  const { child, card, totals } = r
  const agent = child.agent
  const started = Date.now()
  let slot: Slot | undefined
  let from = 0
  /** its prompt is in its transcript: the messages from `from` on are this run's */
  let written = false
  let result: TurnResult | undefined
  const stats = (): string => statsLine(Date.now() - started, totals.usage, totals.costUsd, agent.inspectable ? child.sessionId : undefined)
  const aborted = (): ChildOutcome => {
    const cause = r.cause()
    card.status = 'aborted'
    card.error = String(r.signal.reason ?? cause.text)
    // The person's Stop (its own, or one above it): every client shows it as stopped, not as a failure.
    if (cause.byUser) card.stoppedByUser = true
    setChildStatus(r, 'aborted', card.error)
    // Its own clock ran out: what it did so far is a result, incomplete, that can be continued.
    if (cause.timeoutSeconds !== undefined && result) {
      const why = `it ran out of time (${cause.timeoutSeconds} s of its own work)`
      return incomplete(r, why, result.text, activityOf(child.transcript.history().slice(from)), stats())
    }
    return { ok: false, aborted: true, cause, text: taskError(agent.name, child.sessionId, `aborted: ${cause.text}`) }
  }
  try {
    slot = await r.lane.acquire(r.signal)
    r.onSlot(slot)
    card.status = 'running'
    card.startedAt = Date.now()
    r.publish()
    r.clock.start()
    setChildStatus(r, 'busy')
    const info = await r.modelInfo(child.modelRef, child.settings.config.config)
    from = child.transcript.history().length
    r.write(child, r.prompt)
    written = true
    const run = await r.prepare(child, child.transcript, {
      onStep: ({ usage: u }) => {
        // Priced per step, as providers bill each request.
        const cost = info.cost(u)
        addStep(totals, u, cost)
        r.allowance.charge(u, cost)
        r.countUsage(u, cost)
        const view = r.allowance.view()
        if (view) card.budget = view
        const usage = totals.usage
        card.steps = totals.steps
        card.tokensIn = usage.prompt
        card.tokensOut = usage.completion
        if (usage.cacheRead || usage.cacheWrite) Object.assign(card, { cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite })
        card.costUsd = totals.costUsd
        r.publish()
      },
      beforeRequest: () => {
        const hit = r.allowance.reached()
        return hit ? budgetStopMessage(hit) : undefined
      },
    })
    result = await runTurn(run)
    r.announceUsage()
    const outcome: ChildOutcome =
      result.finishReason === 'aborted'
        ? aborted()
        : result.finishReason === 'error'
          ? failed(r, result.error ?? 'failed')
          : result.finishReason === 'budget'
            ? budgetStopped(r, result, child.transcript.history().slice(from), stats())
            : finished(r, result, child.transcript.history().slice(from), stats())
    if (outcome.ok && result.finishReason !== 'aborted') {
      card.status = 'completed'
      card.error = null
      setChildStatus(r, 'idle')
    }
    child.emit({ type: 'turn_complete', sessionId: child.sessionId, at: Date.now(), messageId: result.lastMessageId, finishReason: result.finishReason, usage: { ...totals.usage }, text: result.text })
    return outcome
  } catch (err) {
    // The loop itself never throws: this is a lane wait cut short by an abort, or a model that cannot be
    // resolved (no key, unknown provider).
    if (r.signal.aborted) return aborted()
    return failed(r, err instanceof Error ? err.message : String(err))
  } finally {
    r.clock.stop()
    slot?.release()
    card.endedAt = Date.now()
    if (written) countCalls(r, from)
    r.publish()
  }
}

/**
 * The denied and failed tool calls of this run (its messages from `from` on), on its card: a collapsed card, a map row,
 * `agentry show` show them without the child's transcript. Counted once, when it ends: reading the transcript flushes
 * the store's write buffer, which at every step of many children at once slowed them past their own timeouts.
 */
function countCalls(r: ChildRun, from: number): void {
  const counts = countToolCalls(r.child.transcript.history().slice(from))
  if (counts.denied || counts.failed || r.card.toolCalls) r.card.toolCalls = counts
}

/** A turn that ended by itself: its answer, or — at the step cap, or with no final answer — an incomplete result. */
function finished(r: ChildRun, result: TurnResult, own: MessageWithParts[], stats: string): ChildOutcome {
  const { agent, sessionId } = r.child
  if (result.finishReason === 'max_steps') return incomplete(r, `it used all ${agent.maxSteps} of its steps before finishing`, result.text, activityOf(own), stats)
  if (!result.finalText.trim()) {
    const why = result.text.trim() ? 'it ended without a final answer (below: the last thing it wrote)' : 'it ended without a final answer'
    return incomplete(r, why, result.text, activityOf(own), stats)
  }
  return { ok: true, aborted: false, finalText: result.finalText, text: taskResult(agent.name, sessionId, result.finalText, stats) }
}

function incomplete(r: ChildRun, why: string, text: string, activity: Activity, stats: string): ChildOutcome {
  const { agent, sessionId } = r.child
  r.card.incomplete = why
  const note = incompleteNote(why, activity, sessionId, !r.fork)
  return { ok: true, aborted: false, finalText: text, incomplete: why, text: taskResult(agent.name, sessionId, text, stats, note) }
}

/** What a child's own messages of this run did: the files it changed, the commands it ran, its tool calls. */
function activityOf(messages: MessageWithParts[]): Activity {
  const activity: Activity = { changed: [], commands: 0, calls: 0 }
  for (const m of messages) {
    for (const p of m.parts) {
      if (!isToolPart(p)) continue
      activity.calls++
      const tool = toolNameOf(p)
      const input = p.data.input as { path?: unknown } | null
      if ((tool === 'write_file' || tool === 'edit_file') && p.toolState === 'output-available' && typeof input?.path === 'string' && !activity.changed.includes(input.path)) activity.changed.push(input.path)
      if (tool === 'bash') activity.commands++
    }
  }
  return activity
}

/** It reached a budget (its own or one above it): a task_error with reason="budget", what it did and spent. */
function budgetStopped(r: ChildRun, result: TurnResult, own: MessageWithParts[], stats: string): ChildOutcome {
  const stop = result.error ?? 'its budget is used up'
  r.card.status = 'failed'
  r.card.error = stop
  const hit = r.allowance.reached()
  const view = r.allowance.view(Date.now(), hit)
  if (view) r.card.budget = view
  setChildStatus(r, 'error', stop)
  const reached = hit ? budgetReachedLine(hit) : 'its budget is used up'
  const body = budgetErrorText({ reached, activity: activitySentence(activityOf(own)), lastText: result.text })
  return { ok: false, aborted: false, text: `${taskError(r.child.agent.name, r.child.sessionId, `\n${body}\n`, 'budget')}\n${stats}` }
}

function failed(r: ChildRun, reason: string): ChildOutcome {
  r.card.status = 'failed'
  r.card.error = reason
  setChildStatus(r, 'error', reason)
  return { ok: false, aborted: false, text: taskError(r.child.agent.name, r.child.sessionId, reason) }
}

function setChildStatus(r: ChildRun, status: 'busy' | 'idle' | 'error' | 'aborted', reason?: string): void {
  const { child } = r
  if (child.agent.inspectable) r.sessions.updateSession(child.sessionId, { status })
  child.emit({ type: 'status_change', sessionId: child.sessionId, at: Date.now(), status, reason })
}
