import { create } from 'zustand'
import type { ApprovalRecord } from '../../src-shared'

type ApprovalsStore = {
  /** pending approvals only, by id */
  pending: Record<string, ApprovalRecord>
}

export const useApprovals = create<ApprovalsStore>(() => ({ pending: {} }))

export function addApprovals(list: ApprovalRecord[]): void {
  const fresh = list.filter((a) => a.status === 'pending')
  if (fresh.length === 0) return
  useApprovals.setState((s) => {
    const pending = { ...s.pending }
    for (const a of fresh) pending[a.id] = a
    return { pending }
  })
}

export function removeApproval(id: string): void {
  useApprovals.setState((s) => {
    if (!s.pending[id]) return s
    const pending = { ...s.pending }
    delete pending[id]
    return { pending }
  })
}

/** Replaces what we know about pending approvals (after approvals.list or a reconnect). */
export function replaceApprovals(list: ApprovalRecord[]): void {
  const pending: Record<string, ApprovalRecord> = {}
  for (const a of list) if (a.status === 'pending') pending[a.id] = a
  useApprovals.setState({ pending })
}

/** Oldest first: the dialog always shows the one that has waited longest. */
export function pendingForRoot(pending: Record<string, ApprovalRecord>, rootId: string | null): ApprovalRecord[] {
  if (!rootId) return []
  return Object.values(pending)
    .filter((a) => a.rootSessionId === rootId)
    .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
}

/** Badge counts: a root row counts every approval in its tree; a child row its own. */
export function waitingCounts(pending: Record<string, ApprovalRecord>): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const a of Object.values(pending)) {
    counts[a.rootSessionId] = (counts[a.rootSessionId] ?? 0) + 1
    if (a.sessionId !== a.rootSessionId) counts[a.sessionId] = (counts[a.sessionId] ?? 0) + 1
  }
  return counts
}
