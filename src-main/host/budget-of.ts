import type { BudgetView } from '../../src-shared'

/** A run's budget view, spread into a listing (tasks.list, runs.map) only when it has one. */
export function budgetOf(view: BudgetView | undefined): { budget?: BudgetView } {
  return view ? { budget: view } : {}
}
