import { useRef, useState } from 'react'
import { describeBudget, describeSpend, formatUsd, type ApprovalRecord } from '../../../src-shared'
import type { UiError } from '../../state/ui-error'
import { answerApproval } from '../../state/session-actions'
import { ErrorNote } from '../common/error-note'
import { BudgetPill } from '../transcript/budget-pill'
import '../../styles/budget.css'

/**
 * A budget question (kind `budget`): a run at its budget asks to go on (toolName `budget`), or a step asks before it
 * starts many subagents at once (toolName `task`). Two answers worded for what they do (allow_once / deny); never
 * "Always allow" — a budget is the person's limit, so going past it is decided each time.
 */
export function budgetWords(a: ApprovalRecord): { fanOut: boolean; subagents: string; extend: string | null; title: string; yes: string; no: string } {
  const b = a.arguments.budget ?? {}
  const fanOut = a.toolName === 'task'
  const n = b.children
  const subagents = n === undefined ? 'these subagents' : `${n} subagent${n === 1 ? '' : 's'}`
  const extend = b.extendBy && Object.keys(b.extendBy).length ? describeBudget(b.extendBy) : null
  return {
    fanOut,
    subagents,
    extend,
    title: fanOut ? `Start ${subagents} at once?` : 'Budget reached',
    yes: fanOut ? `Start ${subagents}` : extend ? `Extend by ${extend}` : 'Go on',
    no: fanOut ? (n === 1 ? "Don't start it" : "Don't start them") : 'Stop here',
  }
}

/** What the budget question is about: the spend so far, how many subagents and what their budgets add up to. */
export function BudgetDetails({ approval: a }: { approval: ApprovalRecord }) {
  const { summary, reason } = a.arguments
  const b = a.arguments.budget ?? {}
  const { fanOut, subagents, extend } = budgetWords(a)
  const n = b.children
  return (
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
      {!fanOut && extend && <div className="muted small">Extending applies to this run only; your settings stay as they are.</div>}
    </div>
  )
}

export type BudgetAnswerState = ReturnType<typeof useBudgetAnswer>

export function useBudgetAnswer(a: ApprovalRecord) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<UiError | null>(null)
  const busyRef = useRef(false)
  const answer = async (decision: 'allow_once' | 'deny') => {
    if (busyRef.current) return
    busyRef.current = true
    setBusy(true)
    const err = await answerApproval({ approvalId: a.id, decision })
    busyRef.current = false
    setBusy(false)
    setError(err)
  }
  return { busy, error, setError, answer }
}

export function BudgetAnswerControls({ approval: a, t, enterKey = false }: { approval: ApprovalRecord; t: BudgetAnswerState; enterKey?: boolean }) {
  const { yes, no } = budgetWords(a)
  return (
    <>
      {t.error && <ErrorNote error={t.error} onDismiss={() => t.setError(null)} testId="approval-error" />}
      <div className="approval-actions">
        <button className="btn" data-testid="budget-deny" disabled={t.busy} onClick={() => void t.answer('deny')}>
          {no}
        </button>
        <span className="spacer" />
        <button className="btn primary" data-testid="budget-approve" disabled={t.busy} onClick={() => void t.answer('allow_once')}>
          {yes} {enterKey && <kbd>Enter</kbd>}
        </button>
      </div>
    </>
  )
}
