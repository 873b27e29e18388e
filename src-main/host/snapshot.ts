import type { ApprovalRecord, SubscriptionMessage } from '../../src-shared'
import type { SessionRunner } from '../sessions'
import type { SessionsRepository } from '../store'

type Snapshot = Omit<Extract<SubscriptionMessage, { kind: 'snapshot' }>, 'kind' | 'stream' | 'lastSeq'>

/** Active state of a stream (or of everything) — runs in flight and pending approvals — sent before replay. */
export function snapshotFor(
  records: { sessions: SessionsRepository; approvals: { pending(rootSessionId?: string): ApprovalRecord[] } },
  runner: SessionRunner,
  stream: string,
): Snapshot {
  const runs = runner.runs()
  if (stream === 'all') return { runs, approvals: records.approvals.pending() }
  return {
    runs: runs.filter((r) => r.sessionId === stream || rootOf(records.sessions, r.sessionId) === stream),
    approvals: records.approvals.pending(stream),
  }
}

function rootOf(sessions: SessionsRepository, sessionId: string): string {
  let s = sessions.getSession(sessionId)
  while (s?.parentId) s = sessions.getSession(s.parentId)
  return s?.id ?? sessionId
}
