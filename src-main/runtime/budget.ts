import { BUDGET_FIELDS, type Budget, type BudgetField, type BudgetSpent, type BudgetView, type TokenUsage } from '../../src-shared'

/** Prompt-cache reads count at a tenth of a token: their usual price against fresh input (Anthropic, OpenAI). */
const CACHE_READ_WEIGHT = 0.1
/** At this share of any limit the card and the run show a warning. */
export const WARN_AT = 0.8

/** A step's tokens as a budget counts them: input and output, cache reads at their price. */
export function budgetTokens(u: TokenUsage): number {
  return u.prompt - u.cacheRead + u.cacheRead * CACHE_READ_WEIGHT + u.completion
}

export interface Reached {
  /** whose limit: this allowance or one above it */
  allowance: Allowance
  field: BudgetField
  /** not reached yet, but the next request — expected to spend what the last one did — would go past it */
  predicted?: { tokens: number; costUsd: number | null }
}

/**
 * One budget in the tree of running work: a child's, a subtree's, a session's, a workspace's day. What any run spends
 * is charged to its allowance and to every one above it as it happens, so a limit anywhere up the chain bounds the
 * whole subtree — a child starts with at most what its caller has left, and siblings running at once still cannot
 * spend together more than their parent may. Checking is a walk up a short chain with no allocation (bench: budget).
 */
export class Allowance {
  readonly startedAt: number
  private tokens: number
  private cost: number | null
  private steps: number
  private limitNow: Budget
  /** this allowance and every one above it, nearest first: fixed at construction, walked by every check */
  private readonly line: readonly Allowance[]
  /** the run's own last step (charged here first): what its next request is expected to spend at least */
  private lastStep: { tokens: number; costUsd: number | null } | undefined
  /** told of every charge that reaches this allowance (the turn's root records the workspace's daily spend) */
  onCharge?: (tokens: number, costUsd: number | null) => void

  constructor(
    readonly parent: Allowance | undefined,
    limit: Budget,
    /** whose limit, in words: `the budget of task "…"`, `the session budget (budgets.session)`, … */
    readonly owner: string,
    /** spent before this run (a session's earlier turns, the day's other runs); seconds always start now */
    already: { tokens?: number; costUsd?: number | null; steps?: number } = {},
    now = Date.now(),
  ) {
    this.limitNow = { ...limit }
    this.tokens = already.tokens ?? 0
    this.cost = already.costUsd === undefined ? 0 : already.costUsd
    this.steps = already.steps ?? 0
    this.startedAt = now
    this.line = parent ? [this, ...parent.line] : [this]
  }

  get limit(): Budget {
    return this.limitNow
  }

  /** A model step: charged here and to every allowance above. */
  charge(usage: TokenUsage, costUsd: number | null): void {
    const tokens = budgetTokens(usage)
    this.lastStep = { tokens, costUsd }
    for (const a of this.line) {
      a.tokens += tokens
      a.cost = a.cost === null || costUsd === null ? null : a.cost + costUsd
      a.steps++
      a.onCharge?.(tokens, costUsd)
    }
  }

  spent(now = Date.now()): BudgetSpent {
    return { tokens: Math.round(this.tokens), costUsd: this.cost, seconds: (now - this.startedAt) / 1000, steps: this.steps }
  }

  /**
   * A limit reached here or above — or one the next request would go past: a conversation only grows, so the next
   * request of this run is expected to spend at least what its last one did, and stopping before it keeps the run
   * within the limit instead of past it by a step (a run's first request has nothing to go by). The outermost limit
   * when several are (a child's own limit is clamped to what its caller had left, so the session's budget running
   * out reaches both — and the session's is the one to name). An unknown cost never counts as reaching a cost limit.
   */
  reached(now = Date.now()): Reached | undefined {
    let hit = this.usedUp(now)
    if (hit || !this.lastStep) return hit
    for (const a of this.line) {
      const field = a.ownReached(now, this.lastStep)
      if (field) hit = { allowance: a, field, predicted: this.lastStep }
    }
    return hit
  }

  /** A limit used up here or above (the outermost), leaving the next request out of it. */
  private usedUp(now: number): Reached | undefined {
    let hit: Reached | undefined
    for (const a of this.line) {
      const field = a.ownReached(now, undefined)
      if (field) hit = { allowance: a, field }
    }
    return hit
  }

  private ownReached(now: number, next: { tokens: number; costUsd: number | null } | undefined): BudgetField | undefined {
    const l = this.limitNow
    const cost = this.cost === null ? null : this.cost + (next?.costUsd ?? 0)
    if (l.costUsd !== undefined && cost !== null && (next ? cost > l.costUsd : cost >= l.costUsd)) return 'costUsd'
    const tokens = this.tokens + (next?.tokens ?? 0)
    if (l.tokens !== undefined && (next ? tokens > l.tokens : tokens >= l.tokens)) return 'tokens'
    if (l.steps !== undefined && this.steps >= l.steps) return 'steps'
    if (l.seconds !== undefined && (now - this.startedAt) / 1000 >= l.seconds) return 'seconds'
    return undefined
  }

  /** What is left on each limited field: the least over this allowance and every one above it. */
  remaining(now = Date.now()): Budget {
    const out: Budget = {}
    for (const a of this.line) {
      const s = a.spent(now)
      for (const f of BUDGET_FIELDS) {
        const l = a.limitNow[f]
        if (l === undefined) continue
        const used = usedOf(s, f)
        const left = Math.max(0, l - used)
        out[f] = out[f] === undefined ? left : Math.min(out[f], left)
      }
    }
    return out
  }

  /** At 80 % of some limit here or above. */
  warning(now = Date.now()): boolean {
    for (const a of this.line) {
      const s = a.spent(now)
      for (const f of BUDGET_FIELDS) {
        const l = a.limitNow[f]
        const used = usedOf(s, f)
        if (l !== undefined && used >= l * WARN_AT) return true
      }
    }
    return false
  }

  /** Whether any allowance on the chain limits anything. */
  get limited(): boolean {
    for (const a of this.line) if (Object.keys(a.limitNow).length) return true
    return false
  }

  /** The person extended a limit for this run: `by` more on each field it names. */
  extend(by: Budget): void {
    for (const f of BUDGET_FIELDS) {
      const more = by[f]
      if (more !== undefined && this.limitNow[f] !== undefined) this.limitNow = { ...this.limitNow, [f]: this.limitNow[f] + more }
    }
  }

  /**
   * Spend against the budget as clients show it: this allowance's own limit and spend when it sets one, else the
   * nearest limited one above (a child with no budget of its own still runs within its session's).
   */
  view(now = Date.now(), stoppedBy?: Reached): BudgetView | undefined {
    const shown = this.line.find((a) => Object.keys(a.limitNow).length > 0)
    if (!shown) return undefined
    // `reached` is what happened: a limit used up, or the one a run was stopped (or asks) for. A next request that
    // would go past a limit is a reason to stop only once the run wants to make it: one that answers now never does.
    const hit = stoppedBy ?? this.usedUp(now)
    return {
      limit: { ...shown.limitNow },
      spent: shown.spent(now),
      warning: this.warning(now),
      ...(hit ? { reached: hit.field, owner: hit.allowance.owner } : { owner: shown.owner }),
    }
  }
}

/** What is spent on one field (an unknown cost counts as nothing spent, as for reaching a limit). */
function usedOf(s: BudgetSpent, f: BudgetField): number {
  return f === 'costUsd' ? (s.costUsd ?? 0) : s[f]
}

/** Each field the least of the budgets that set it (a call, an agent file, the config): the tightest wins. */
export function tightest(...budgets: (Budget | undefined)[]): Budget {
  const out: Budget = {}
  for (const b of budgets) {
    if (!b) continue
    for (const f of BUDGET_FIELDS) {
      const v = b[f]
      if (v !== undefined) out[f] = out[f] === undefined ? v : Math.min(out[f], v)
    }
  }
  return out
}
