import { describeBudget, type Budget, type Config, type SessionRecord } from '../../src-shared'
import type { Approvals } from '../approvals'
import { Allowance, askThePerson, budgetReachedLine, budgetStopMessage, budgetTokens, type Reached, type RunLevel } from '../runtime'
import { localDay, newId, type SessionsRepository, type SpendRepository } from '../store'

export interface RootBudgetDeps {
  sessions: Pick<SessionsRepository, 'getSession' | 'updateSession'>
  spend: SpendRepository
  approvals: Approvals
}

/**
 * The budgets above a prompt's turns, outermost first: the workspace's day (`budgets.dailyCostUsd`), the conversation's
 * (`budgets.session`), the run's (`agentry run --max-cost/--max-tokens`). Made once per prompt and kept for the turns its background children's
 * results start, so a run's budget spans them all. Spent-so-far comes from the store (the day's rows, the conversation's totals), so a restart forgets nothing.
 */
export function budgetsAbove(deps: RootBudgetDeps, o: { conversation: SessionRecord; config: Config; run?: Budget }): Allowance | undefined {
  const { budgets } = o.config
  const root = o.conversation.workspaceRoot
  let above: Allowance | undefined
  if (budgets.dailyCostUsd !== undefined) {
    const today = deps.spend.dailySpend(root, localDay())
    above = new Allowance(undefined, { costUsd: budgets.dailyCostUsd }, "this workspace's daily budget (budgets.dailyCostUsd)", { costUsd: today.costUsd, tokens: today.tokens })
  }
  if (budgets.session) {
    const c = o.conversation
    const tokens = budgetTokens(c.usage) + (c.subagentUsage ? budgetTokens(c.subagentUsage) : 0)
    // Tokens and cost over the conversation's life; its time and steps per turn (a conversation may idle for days).
    above = new Allowance(above, budgets.session, 'the session budget (budgets.session)', { tokens, costUsd: c.costUsd + (c.subagentCostUsd ?? 0) })
  }
  if (o.run && Object.keys(o.run).length) above = new Allowance(above, o.run, "this run's budget (--max-cost / --max-tokens)")
  return above
}

/** A turn's own allowance under those budgets: every step of its tree passes it, and it records the daily spend. */
export function turnAllowance(deps: Pick<RootBudgetDeps, 'spend'>, workspaceRoot: string, above: Allowance | undefined): Allowance {
  const turn = new Allowance(above, {}, 'this turn')
  turn.onCharge = (tokens, cost) => deps.spend.addDailySpend(workspaceRoot, localDay(), tokens, cost)
  return turn
}

/**
 * The check before each of the root's model requests. Within budget: go on. At a limit, headless: stop with the reason.
 * Otherwise the person decides — extend that limit by as much again (for this run only; config.yaml is unchanged) or
 * stop here — on the approval surface every client shows.
 */
export async function rootBudgetCheck(deps: RootBudgetDeps, level: RunLevel, allowance: Allowance, show: (hit?: Reached) => void): Promise<string | undefined> {
  for (;;) {
    const hit = allowance.reached()
    if (!hit) return undefined
    // The header shows the spend the person is asked about (a prompt over budget before its first step too).
    show(hit)
    if (level.headless) return budgetStopMessage(hit)
    const extendBy: Budget = { [hit.field]: hit.allowance.limit[hit.field] }
    const view = allowance.view(Date.now(), hit)
    const answer = await askThePerson(deps.approvals, level, {
      kind: 'budget',
      toolName: 'budget',
      toolCallId: newId('bud'),
      messageId: null,
      arguments: {
        summary: `${capitalized(budgetReachedLine(hit))}. Extend it by ${describeBudget(extendBy)} for this run, or stop here?`,
        budget: { ...(view ? { view } : {}), extendBy },
      },
    })
    if (answer.outcome !== 'approved') return budgetStopMessage(hit)
    hit.allowance.extend(extendBy)
    show()
  }
}

/** The conversation's live spend against its budget, for the session header (`metadata.budget`); cleared when none. */
export function publishBudget(deps: RootBudgetDeps, level: RunLevel, allowance: Allowance, emit: (s: SessionRecord) => void, hit?: Reached): void {
  const session = deps.sessions.getSession(level.rootSessionId)
  if (!session) return
  const view = allowance.view(Date.now(), hit)
  if (!view && session.metadata.budget === undefined) return
  const { budget: _old, ...rest } = session.metadata
  emit(deps.sessions.updateSession(session.id, { metadata: view ? { ...rest, budget: view } : rest }))
}

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}
