import { z } from 'zod'
import { lazy } from './lazy'

/**
 * A budget: the most a run (and everything it starts) may spend. Any field may be left out (no limit on it).
 * `tokens` counts input + output tokens, with prompt-cache reads at a tenth (their usual price against fresh input);
 * `costUsd` uses the model's price table; `seconds` is wall time from the run's start; `steps` counts model requests.
 */
export const Budget = lazy(() =>
  z
    .object({
      tokens: z.number().int().positive().optional(),
      costUsd: z.number().positive().optional(),
      seconds: z.number().positive().max(7 * 86_400).optional(),
      steps: z.number().int().positive().max(100_000).optional(),
    })
    .strict()
)
export type Budget = z.infer<typeof Budget>

export const BUDGET_FIELDS = ['tokens', 'costUsd', 'seconds', 'steps'] as const
export type BudgetField = (typeof BUDGET_FIELDS)[number]

/** What a run (with everything below it) has spent: `costUsd` null once a step's price is unknown. */
export const BudgetSpent = lazy(() =>
  z.object({ tokens: z.number(), costUsd: z.number().nullable(), seconds: z.number(), steps: z.number() }).strict()
)
export type BudgetSpent = z.infer<typeof BudgetSpent>

/** Spend against a budget, as every client shows it: on a task card, on a session while it runs. */
export const BudgetView = lazy(() =>
  z
    .object({
      limit: Budget,
      spent: BudgetSpent,
      /** 80 % or more of some limit is spent */
      warning: z.boolean(),
      /** the limit it reached (it stopped, or asks the person), absent while within it */
      reached: z.enum(BUDGET_FIELDS).optional(),
      /** whose limit that was, in words ("this task's", "the session's", "today's for this workspace") */
      owner: z.string().optional(),
    })
    .strict()
)
export type BudgetView = z.infer<typeof BudgetView>

/** When a turn's fan-out waits for the person: more children at once than this, or budgets adding up past this. */
export const FanOutLimits = lazy(() =>
  z
    .object({
      askAboveChildren: z.number().int().min(1).max(1000).default(10),
      askAboveCostUsd: z.number().positive().optional(),
    })
    .strict()
)

/** `budgets:` in the person's config.yaml. */
export const BudgetSettings = lazy(() =>
  z
    .object({
      /** each conversation's total, all its turns and subagents included */
      session: Budget.optional(),
      /** each workspace's spend per calendar day (local time), every conversation in it included */
      dailyCostUsd: z.number().positive().optional(),
      fanOut: FanOutLimits.default(FanOutLimits.parse({})),
    })
    .strict()
)
export type BudgetSettings = z.infer<typeof BudgetSettings>

/** `runaway:` guards against a model or a tree that does not stop by itself. */
export const RunawayLimits = lazy(() =>
  z
    .object({
      /** the output cap of a request when the agent sets no `maxOutputTokens`; counted on our side, the stream is cut past it */
      maxOutputTokens: z.number().int().min(256).max(1_000_000).default(32_000),
      /** the longest one model request may run, from sending it to its last part */
      requestSeconds: z.number().positive().max(86_400).default(600),
      /** the same tool call with the same arguments this many times in a row stops the agent */
      repeatedCalls: z.number().int().min(2).max(100).default(5),
      /** the same background task (agent and prompt) started this many times in one conversation within 10 minutes is refused */
      backgroundRespawns: z.number().int().min(1).max(100).default(3),
    })
    .strict()
)
export type RunawayLimits = z.infer<typeof RunawayLimits>

export { describeBudget, describeSpend, formatUsd, parseAmount } from './budget-text'
