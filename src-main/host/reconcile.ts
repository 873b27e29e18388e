import type { PartRecord, TaskCard } from '../../src-shared'
import { newId, type Store } from '../store'
import { taskError } from '../subagents'

export const RESTART_REASON = 'aborted by host restart'

export interface ReconcileReport {
  toolParts: number
  sessions: number
  backgroundJobs: number
  approvals: number
}

/**
 * Runs at host start, before any run: nothing is left "running" from a process that died. Tool calls in flight
 * become errors (never replayed — their side effects may have happened), busy sessions go idle with a note,
 * interrupted background children report failure to their parent, and pending approvals expire.
 */
export function reconcileAfterRestart(store: Store): ReconcileReport {
  const report: ReconcileReport = { toolParts: 0, sessions: 0, backgroundJobs: 0, approvals: 0 }
  store.transaction(() => {
    for (const part of store.listOpenToolParts()) {
      store.upsertPart(closePart(part))
      report.toolParts++
    }
    for (const approval of store.listApprovals({ status: 'pending' })) {
      store.resolveApproval(approval.id, 'expired', { reason: RESTART_REASON })
      report.approvals++
    }
    for (const job of store.listJobs({ status: 'running' })) {
      store.updateJob(job.id, 'interrupted')
      report.backgroundJobs++
      if (!store.getSession(job.parentSessionId)) continue
      const message = store.createMessage({ sessionId: job.parentSessionId, role: 'assistant', metadata: { synthetic: true, agent: job.agentType } })
      store.upsertPart(textPart(message.id, job.parentSessionId, taskError(job.agentType, job.id, 'interrupted by host restart')))
    }
    for (const session of store.listSessions({ statuses: ['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'], includeArchived: true, limit: 100_000 })) {
      const message = store.createMessage({ sessionId: session.id, role: 'assistant', metadata: { notice: 'host_restart' } })
      store.upsertPart(
        textPart(
          message.id,
          session.id,
          'The previous run was interrupted because Agentry stopped. Tool calls that were in flight are marked as failed and were not repeated. Send a message to continue.',
        ),
      )
      store.updateSession(session.id, { status: 'idle' })
      report.sessions++
    }
    store.flush()
  })
  return report
}

const OPEN_STATES = new Set(['input-streaming', 'input-available', 'approval-requested'])

/** Closes a tool part and, for a task part, every opaque descendant nested in its transcript. */
function closePart(part: PartRecord): PartRecord {
  const card = part.data.subagent as TaskCard | undefined
  const data: Record<string, unknown> = { ...part.data, error: RESTART_REASON, endedAt: Date.now() }
  if (card) data.subagent = closeCard(card)
  return { ...part, data, toolState: 'output-error' }
}

function closeCard(card: TaskCard): TaskCard {
  const open = card.status === 'queued' || card.status === 'running'
  const transcript = card.transcript?.map((m) => ({
    ...m,
    parts: m.parts.map((p) => (p.toolState && OPEN_STATES.has(p.toolState) ? closePart(p) : p)),
  }))
  return {
    ...card,
    ...(open ? { status: 'failed' as const, error: 'interrupted by host restart', endedAt: Date.now() } : {}),
    ...(transcript ? { transcript } : {}),
  }
}

function textPart(messageId: string, sessionId: string, text: string): PartRecord {
  return { id: newId('prt'), messageId, sessionId, index: 0, type: 'text', data: { text }, toolCallId: null, toolState: null }
}
