import { describe, expect, it } from 'vitest'
import type { BudgetView } from '../../src-shared'
import { budgetGauge } from './budget'

const view = (o: Partial<BudgetView>): BudgetView => ({ limit: {}, spent: { tokens: 0, costUsd: 0, seconds: 0, steps: 0 }, warning: false, ...o })

describe('budgetGauge', () => {
  it('shows the limit nearest to being reached, compactly, and every limit in its title', () => {
    const g = budgetGauge(view({ limit: { costUsd: 0.5, steps: 10 }, spent: { tokens: 4000, costUsd: 0.12, seconds: 3, steps: 9 }, warning: true, owner: "this task's" }))
    expect(g).toMatchObject({ field: 'steps', text: '9 / 10 steps', state: 'warning' })
    expect(g?.share).toBeCloseTo(0.9)
    expect(g?.title).toBe("80% or more of the budget used (this task's): $0.12 of $0.50, 9 of 10 steps")
  })

  it('the reached limit wins; an unknown cost shows as ? and counts as no share', () => {
    expect(budgetGauge(view({ limit: { costUsd: 1, tokens: 200_000 }, spent: { tokens: 200_500, costUsd: null, seconds: 1, steps: 2 }, reached: 'tokens' }))).toMatchObject({
      field: 'tokens',
      text: '201k / 200k tok',
      state: 'reached',
    })
    expect(budgetGauge(view({ limit: { costUsd: 1 }, spent: { tokens: 1, costUsd: null, seconds: 1, steps: 1 } }))).toMatchObject({ text: '? / $1.00', share: null, state: 'ok' })
  })

  it('no limit set: nothing to show', () => {
    expect(budgetGauge(view({}))).toBeNull()
  })
})
