import { describeSpend, formatUsd, type BudgetField } from '../../src-shared'
import type { Allowance, Reached } from './budget'

/**
 * What a model and the person read when a budget stops a run. These strings are an API a model consumes
 * (docs/prompts.md; snapshot-tested): change them as you would an API.
 */

const FIELD_WORDS: Record<BudgetField, string> = { costUsd: 'cost', tokens: 'tokens', seconds: 'time', steps: 'steps' }

/**
 * `the session budget is used up (tokens: 51k of 50k tokens)`, or — stopped before a request that would go past it —
 * `the session budget would be used up by the next request (tokens: 40k of 50k tokens; the last one took 12k)`
 */
export function budgetReachedLine(hit: Reached, now = Date.now()): string {
  const a: Allowance = hit.allowance
  const spend = `${FIELD_WORDS[hit.field]}: ${describeSpend(a.limit, a.spent(now))}`
  if (!hit.predicted) return `${a.owner} is used up (${spend})`
  const took = hit.field === 'costUsd' && hit.predicted.costUsd !== null ? formatUsd(hit.predicted.costUsd) : `${Math.round(hit.predicted.tokens)} tokens`
  return `${a.owner} would be used up by the next request (${spend}; the last one took ${took})`
}

/** The error a run stopped by a budget ends with, in its own transcript. */
export function budgetStopMessage(hit: Reached, now = Date.now()): string {
  const line = budgetReachedLine(hit, now)
  return `Stopped before its next model request: ${line}.`
}

/**
 * The body of the `<task_error reason="budget">` a parent reads: why, what the child did, what it wrote last, and
 * that only the person can give more — so the model neither retries the same work nor starts a copy to get around it.
 */
export function budgetErrorText(o: { reached: string; activity: string; lastText: string }): string {
  const last = o.lastText.trim()
  const clipped = last.length > 2000 ? `${last.slice(0, 2000)}…` : last
  return [
    `It stopped at its budget, before its next model request: ${o.reached}.`,
    o.activity,
    ...(clipped ? [`What it wrote last:\n${clipped}`] : []),
    'Budgets are set by the person: do not start the same work again to get around one. Use what it did, finish what is left yourself if it is small, or tell the person the task needs a bigger budget.',
  ].join('\n')
}
