import type { ApprovalRecord, PartRecord } from '../../src-shared'
import { executeToolCalls, toolNameOf, type PendingCall, type RunContext } from '../loop'
import { denialMessage, type RunLevel } from '../runtime'
import type { ApprovalsRepository, TranscriptRepository } from '../store'

/** The records a restart leaves behind for a waiting call: its open part and its approval. */
export interface WaitingRecords {
  transcript: Pick<TranscriptRepository, 'listOpenToolParts'>
  approvalRecords: Pick<ApprovalsRepository, 'listApprovals' | 'resolveApproval'>
}

/** Tool calls of a session left waiting for the person by a previous host process (approval still pending or answered). */
export function waitingCalls(records: WaitingRecords, sessionId: string): { part: PartRecord; approval: ApprovalRecord | undefined }[] {
  const parts = records.transcript.listOpenToolParts().filter((p) => p.sessionId === sessionId && p.toolState === 'approval-requested')
  if (parts.length === 0) return []
  const approvals = records.approvalRecords.listApprovals({ sessionId })
  return parts.map((part) => ({ part, approval: approvals.find((a) => a.toolCallId === part.toolCallId) }))
}

/**
 * Before a turn of a session with calls left waiting across a restart: when resuming (every answer is in), run
 * the approved calls — without asking again — and record the denied ones; otherwise (the person sent a new message
 * instead) close them as superseded, so the model sees a result for every call it made.
 */
export async function settleWaitingCalls(records: WaitingRecords, level: RunLevel, run: RunContext, resuming: boolean): Promise<void> {
  const waiting = waitingCalls(records, level.sessionId)
  if (waiting.length === 0) return
  const calls: PendingCall[] = waiting.map(({ part, approval }) => {
    const toolName = toolNameOf(part)
    const base = { part, toolName, input: part.data.input }
    if (resuming && approval?.status === 'approved') return { ...base, decided: { approved: true as const } }
    if (approval?.status === 'pending') {
      records.approvalRecords.resolveApproval(approval.id, 'cancelled', { reason: 'superseded by a new message' })
      level.emit({ type: 'tool_approval_resolved', sessionId: level.sessionId, at: Date.now(), approvalId: approval.id, outcome: 'cancelled' })
    }
    const feedback = (approval?.answer as { feedback?: string } | null)?.feedback
    const message =
      approval?.status === 'denied'
        ? denialMessage(toolName, feedback)
        : `Not run: the user sent a new message instead of answering the approval for this ${toolName} call.`
    return { ...base, decided: { approved: false as const, message } }
  })
  await executeToolCalls(run, calls)
}
