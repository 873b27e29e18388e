import { z } from 'zod'

import { ApprovalRecord, ApprovalStatus, QueueEntry } from '../../src-shared'

// Approval and queue records are bridge contract types (src-shared); the store re-exports them.
// Background jobs are host-only and declared here with zod.
export { ApprovalRecord, ApprovalStatus, QueueEntry }
export const ApprovalKind = ApprovalRecord.shape.kind
export type ApprovalKind = z.infer<typeof ApprovalKind>
export const QueueStatus = QueueEntry.shape.status
export type QueueStatus = z.infer<typeof QueueStatus>

export const JobStatus = z.enum(['running', 'completed', 'failed', 'aborted', 'interrupted'])
export type JobStatus = z.infer<typeof JobStatus>

export const JobRecord = z.object({
  /** = the child's session/task id */
  id: z.string(),
  parentSessionId: z.string(),
  rootSessionId: z.string(),
  parentMessageId: z.string().nullable(),
  toolCallId: z.string(),
  agentType: z.string(),
  description: z.string(),
  status: JobStatus,
  createdAt: z.number(),
  endedAt: z.number().nullable(),
})
export type JobRecord = z.infer<typeof JobRecord>
