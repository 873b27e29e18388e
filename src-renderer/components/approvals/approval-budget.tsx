import type { ApprovalRecord } from '../../../src-shared'
import { ApprovalShell } from './approval-shell'
import { BudgetAnswerControls, BudgetDetails, budgetWords, useBudgetAnswer } from './budget-answer'

/** A budget question in the conversation (a run at its budget, or a large fan-out): see budget-answer. */
export function BudgetApproval({ approval: a, more }: { approval: ApprovalRecord; more: number }) {
  const t = useBudgetAnswer(a)
  return (
    <ApprovalShell approval={a} more={more} title={budgetWords(a).title} testId="budget-approval" onEnter={() => void t.answer('allow_once')}>
      <BudgetDetails approval={a} />
      <BudgetAnswerControls approval={a} t={t} enterKey />
    </ApprovalShell>
  )
}
