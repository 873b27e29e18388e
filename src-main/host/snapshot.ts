import type { SubscriptionMessage } from '../../src-shared'
import type { SessionRunner } from '../sessions'
import type { Store } from '../store'

type Snapshot = Omit<Extract<SubscriptionMessage, { kind: 'snapshot' }>, 'kind' | 'stream' | 'lastSeq'>

/** Active state of a stream (or of everything) — runs in flight and pending approvals — sent before replay. */
export function snapshotFor(store: Store, runner: SessionRunner | undefined, stream: string): Snapshot {
  const runs = runner?.runs() ?? []
  if (stream === 'all') return { runs, approvals: store.listApprovals({ status: 'pending' }) }
  return {
    runs: runs.filter((r) => r.sessionId === stream || rootOf(store, r.sessionId) === stream),
    approvals: store.listApprovals({ rootSessionId: stream, status: 'pending' }),
  }
}

function rootOf(store: Store, sessionId: string): string {
  let s = store.getSession(sessionId)
  while (s?.parentId) s = store.getSession(s.parentId)
  return s?.id ?? sessionId
}
