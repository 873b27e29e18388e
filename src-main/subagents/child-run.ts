import type { Config, ModelRef, TaskCard, TokenUsage } from '../../src-shared'
import { addUsage, emptyUsage, runTurn, type RunContext, type Transcript } from '../loop'
import type { PrepareOptions, RunLevel } from '../runtime'
import type { SessionsRepository } from '../store'
import type { AbortCause } from './abort-cause'
import type { Lane, Slot } from './lane'
import { statsLine, taskError, taskResult } from './result-text'
import type { TaskClock } from './task-clock'

/** What the parent gets: the exact `<task_result>` / `<task_error>` text, and why the child stopped when it was aborted. */
export type ChildOutcome = { ok: true; text: string; aborted: false } | { ok: false; text: string; aborted: false } | { ok: false; text: string; aborted: true; cause: AbortCause }

export interface ChildRun {
  sessions: Pick<SessionsRepository, 'updateSession'>
  /** the run context of a level (the subagents module adds its `task` tool) */
  prepare(level: RunLevel, transcript: Transcript, o: Omit<PrepareOptions, 'tools'>): Promise<RunContext>
  /** a model's price with the run's config: the cost of one step, null if unknown */
  modelInfo(ref: ModelRef, config: Config): Promise<{ cost(usage: TokenUsage): number | null }>
  /** the child's tokens and cost, once its turn ended: its own row (if stored) and its ancestors' subagent totals */
  countUsage(usage: TokenUsage, cost: number | null): void
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
}

/**
 * One child's run: wait for a lane slot (`queued`), run its turn on the same loop with its clock going (`running`),
 * and end in exactly one terminal card status — `completed`, `failed` or `aborted` — whatever happens, with the
 * result text for the parent. Never throws.
 */
export async function runChild(r: ChildRun): Promise<ChildOutcome> {
  const { child, card } = r
  const agent = child.agent
  const usage: TokenUsage = emptyUsage()
  const started = Date.now()
  let slot: Slot | undefined
  const aborted = (): ChildOutcome => {
    const cause = r.cause()
    card.status = 'aborted'
    card.error = String(r.signal.reason ?? cause.text)
    setChildStatus(r, 'aborted', card.error)
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
    r.write(child, r.prompt)
    // Priced per step, as providers bill each request; null once any step's price is unknown.
    let cost: number | null = 0
    const run = await r.prepare(child, child.transcript, {
      onStep: ({ usage: u }) => {
        addUsage(usage, u)
        const c = info.cost(u)
        cost = cost === null || c === null ? null : cost + c
        card.steps++
        card.tokensIn = usage.prompt
        card.tokensOut = usage.completion
        card.costUsd = cost
        r.publish()
      },
    })
    const result = await runTurn(run)
    r.countUsage(usage, cost)
    const outcome: ChildOutcome =
      result.finishReason === 'aborted'
        ? aborted()
        : result.finishReason === 'error'
          ? failed(r, result.error ?? 'failed')
          : { ok: true, aborted: false, text: taskResult(agent.name, child.sessionId, result.text, statsLine(Date.now() - started, usage, cost)) }
    if (outcome.ok) {
      card.status = 'completed'
      card.error = null
      setChildStatus(r, 'idle')
    }
    child.emit({ type: 'turn_complete', sessionId: child.sessionId, at: Date.now(), messageId: result.lastMessageId, finishReason: result.finishReason, usage, text: result.text })
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
    r.publish()
  }
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
