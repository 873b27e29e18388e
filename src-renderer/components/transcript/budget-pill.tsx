import type { BudgetView } from '../../../src-shared'
import { budgetGauge } from '../../lib/budget'
import '../../styles/budget.css'

/**
 * Spent against a budget, as a pill that fills up: quiet while within it, amber from 80%, and "budget reached" when
 * a run stopped (or waits) at it — amber too, since reaching a limit the person set is a normal stop, not a failure.
 */
export function BudgetPill({ view, testId, label, sayReached = true }: { view: BudgetView; testId: string; label?: string; /** false where a status beside it says so already */ sayReached?: boolean }) {
  const g = budgetGauge(view)
  if (!g) return null
  const share = g.share === null ? 0 : Math.min(1, g.share)
  return (
    <span
      className="budget-pill"
      data-testid={testId}
      data-state={g.state}
      data-field={g.field}
      role="meter"
      aria-label={label ?? 'Budget'}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(share * 100)}
      aria-valuetext={g.title}
      title={g.title}
      style={{ ['--budget-share' as string]: `${Math.round(share * 100)}%` }}
    >
      {/* one inline run of text: as flex items the two parts would read as two lines */}
      <span>
        {g.state === 'reached' && sayReached && <span className="budget-reached">budget reached · </span>}
        {g.text}
      </span>
    </span>
  )
}
