import { BUDGET_FIELDS, describeSpend, formatUsd, type BudgetField, type BudgetView } from '../../src-shared'
import { formatDuration, formatTokens } from './format'

/** What a card or the session header shows of a budget in a few characters, and how it reads in full. */
export type BudgetGauge = {
  /** the limit shown: the one reached, else the one nearest to it */
  field: BudgetField
  /** spent / limit of that field; null when its spend is unknown (a model without a price) */
  share: number | null
  /** `$0.12 / $0.50`, `40k / 200k tok`, `12 / 30 steps` */
  text: string
  state: 'ok' | 'warning' | 'reached'
  /** every limit, whose it is and what the state means, for a tooltip or a screen reader */
  title: string
}

export function budgetGauge(view: BudgetView): BudgetGauge | null {
  const fields = BUDGET_FIELDS.filter((f) => view.limit[f] !== undefined)
  if (fields.length === 0) return null
  const shareOf = (f: BudgetField): number | null => {
    const spent = f === 'costUsd' ? view.spent.costUsd : view.spent[f]
    return spent === null ? null : spent / view.limit[f]!
  }
  const field = view.reached ?? fields.reduce((best, f) => ((shareOf(f) ?? -1) > (shareOf(best) ?? -1) ? f : best))
  const state = view.reached ? 'reached' : view.warning ? 'warning' : 'ok'
  const whose = view.owner ? ` (${view.owner})` : ''
  const note = state === 'reached' ? `Budget reached${whose}` : state === 'warning' ? `80% or more of the budget used${whose}` : `Budget${whose}`
  return { field, share: shareOf(field), text: compactSpend(field, view), state, title: `${note}: ${describeSpend(view.limit, view.spent)}` }
}

function compactSpend(field: BudgetField, view: BudgetView): string {
  const limit = view.limit[field]!
  const { spent } = view
  switch (field) {
    case 'costUsd':
      return `${spent.costUsd === null ? '?' : formatUsd(spent.costUsd)} / ${formatUsd(limit)}`
    case 'tokens':
      return `${formatTokens(spent.tokens)} / ${formatTokens(limit)} tok`
    case 'seconds':
      return `${formatDuration(spent.seconds * 1000)} / ${formatDuration(limit * 1000)}`
    case 'steps':
      return `${spent.steps} / ${limit} steps`
  }
}
