import { useMemo } from 'react'
import { pendingForRoot, useApprovals } from '../../state/approvals-store'
import { useTranscript } from '../../state/transcript-store'
import { BudgetApproval } from './approval-budget'
import { QuestionApproval } from './approval-question'
import { ToolApproval } from './approval-tool'

/**
 * The oldest pending approval of the open root session (and all its descendants), inline at the bottom of that
 * conversation, with a count of the rest. Nothing else on screen is blocked: other sessions, the sidebar and
 * Settings stay usable while it waits, and the sidebar row shows a badge.
 */
export function ApprovalPanel() {
  const rootId = useTranscript((s) => s.rootId)
  const viewId = useTranscript((s) => s.viewId)
  const pending = useApprovals((s) => s.pending)
  const list = useMemo(() => pendingForRoot(pending, rootId), [pending, rootId])
  if (!viewId || list.length === 0) return null
  const a = list[0]
  if (a.kind === 'question') return <QuestionApproval key={a.id} approval={a} more={list.length - 1} />
  if (a.kind === 'budget') return <BudgetApproval key={a.id} approval={a} more={list.length - 1} />
  return <ToolApproval key={a.id} approval={a} more={list.length - 1} />
}
