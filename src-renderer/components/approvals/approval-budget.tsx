import { useRef, useState } from 'react'
import { describeBudget, describeSpend, formatUsd, type ApprovalRecord } from '../../../src-shared'
import type { UiError } from '../../state/ui-error'
import { answerApproval } from '../../state/session-actions'
import { ErrorNote } from '../common/error-note'
import { BudgetPill } from '../transcript/budget-pill'
import { ApprovalShell } from './approval-shell'
import '../../styles/budget.css'

/**
 * A budget question (kind `budget`): a run at its budget asks to go on (toolName `budget`), or a step asks before it
 * starts many subagents at once (toolName `task`). Two answers worded for what they do; never "Always allow" — a
 * budget is the person's limit, so going past it is decided each time.
 */
export function BudgetApproval({ approval: a, more }: { approval: ApprovalRecord; more: number }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<UiError | null>(null)
  const busyRef = useRef(false)
  const { summary, reason } = a.arguments
  const b = a.arguments.budget ?? {}
  const fanOut = a.toolName === 'task'

  const answer = async (decision: 'allow_once' | 'deny') => {
    if (busyRef.current) return
    busyRef.current = true
    setBusy(true)
    const err = await answerApproval({ approvalId: a.id, decision })
    busyRef.current = false
    setBusy(false)
    setError(err)
  }

  const n = b.children
  const subagents = n === undefined ? 'these subagents' : `${n} subagent${n === 1 ? '' : 's'}`
  const extend = b.extendBy && Object.keys(b.extendBy).length ? describeBudget(b.extendBy) : null
  const title = fanOut ? `Start ${subagents} at once?` : 'Budget reached'
  const yes = fanOut ? `Start ${subagents}` : extend ? `Extend by ${extend}` : 'Go on'
  const no = fanOut ? (n === 1 ? "Don't start it" : "Don't start them") : 'Stop here'

  return (
    <ApprovalShell approval={a} more={more} title={title} testId="budget-approval" onEnter={() => void answer('allow_once')}>
      <div className="approval-args budget-approval" data-testid="approval-arguments" data-budget-kind={fanOut ? 'fan-out' : 'reached'}>
        {summary && (
          <div className="approval-summary" data-testid="budget-summary">
            {summary}
          </div>
        )}
        {b.view && (
          <div className="budget-approval-spend" data-testid="budget-spend">
            <BudgetPill view={b.view} testId="budget-approval-pill" label="Spent against the budget" sayReached={false} />
            <span className="muted small">
              Spent {describeSpend(b.view.limit, b.view.spent)}
              {b.view.owner ? ` — ${b.view.owner}` : ''}
            </span>
          </div>
        )}
        {fanOut && (n !== undefined || b.childrenCostUsd !== undefined) && (
          <div className="budget-facts">
            {n !== undefined && <span className="pill">{subagents}</span>}
            {b.childrenCostUsd !== undefined && (
              <span className="pill" data-testid="budget-children-cost" title="The sum of their budgets: the most they may spend together">
                {formatUsd(b.childrenCostUsd)} in budgets
              </span>
            )}
          </div>
        )}
        {reason && (
          <div className="muted small" data-testid="approval-reason">
            {reason}
          </div>
        )}
        {!fanOut && extend && (
          <div className="muted small">Extending applies to this run only; your settings stay as they are.</div>
        )}
      </div>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} testId="approval-error" />}
      <div className="approval-actions">
        <button className="btn" data-testid="budget-deny" disabled={busy} onClick={() => void answer('deny')}>
          {no}
        </button>
        <span className="spacer" />
        <button className="btn primary" data-testid="budget-approve" disabled={busy} onClick={() => void answer('allow_once')}>
          {yes} <kbd>Enter</kbd>
        </button>
      </div>
    </ApprovalShell>
  )
}
