import type { AgentEvent, BackgroundNotice, MessageRecord, MessageWithParts, PartRecord, TaskCard, TaskWorktree } from '../../src-shared'
import { textPart } from '../loop'
import { newId, type JobRecord, type Store } from '../store'
import { editNestedTranscript, taskError, worktreeNote, type NestedPath } from '../subagents'

export const RESTART_REASON = 'aborted by host restart'
const CHILD_REASON = 'interrupted by host restart'
/**
 * What a parent's model reads about a child the restart cut short: the id, so it can resume the partial work, and
 * where its worktree is (kept, never deleted: what the child did there may be all that is left of its work).
 */
const childError = (card: { agentType: string; taskId: string; worktree?: TaskWorktree }) =>
  taskError(card.agentType, card.taskId, `aborted: ${CHILD_REASON}${card.worktree ? `.\n${worktreeNote(card.worktree)}` : ''}`)
const KEPT_AFTER_RESTART = 'not inspected (interrupted by host restart)'

export interface ReconcileReport {
  toolParts: number
  sessions: number
  backgroundJobs: number
  approvals: number
}

/**
 * How reconciliation tells viewers what it changed: an event as it happened in `sessionId` (a stored session; the
 * caller wraps it for the root's stream). Without these, a viewer that resumes from its last seq after the restart
 * would keep showing the session busy and the tool running.
 */
export type ReconcilePublish = (sessionId: string, event: AgentEvent) => void

/**
 * Runs at host start, before any run: nothing is left "running" from a process that died. Tool calls in flight
 * become errors (never replayed — their side effects may have happened), busy sessions go idle with a note,
 * interrupted background children report failure to their parent, and pending approvals expire — except a root
 * session's tool call that was only waiting for the person: that approval stays, and answering it resumes the run.
 */
export function reconcileAfterRestart(store: Store, publish: ReconcilePublish = () => {}): ReconcileReport {
  const report: ReconcileReport = { toolParts: 0, sessions: 0, backgroundJobs: 0, approvals: 0 }
  const at = Date.now()
  /** `owner`: the stored session whose part holds `part` (itself, or the task part an opaque child is nested in). */
  const partUpdated = (part: PartRecord, path: NestedPath = [], owner = part.sessionId) => {
    // A part nested in opaque children is announced the way it streamed live: wrapped once per level.
    let event: AgentEvent = { type: 'part_updated', sessionId: part.sessionId, at, part }
    for (let i = path.length - 1; i >= 0; i--) event = { type: 'subagent_event', sessionId: path[i].sessionId, at, agentType: path[i].agentType, event }
    publish(owner, event)
  }
  const addMessage = (sessionId: string, metadata: Record<string, unknown>, text: string) => {
    const message = store.transcript.createMessage({ sessionId, role: 'assistant', metadata })
    const part = textPart(message.id, sessionId, text)
    store.transcript.upsertPart(part)
    publish(sessionId, { type: 'message_created', sessionId, at, message })
    partUpdated(part)
  }

  store.transaction(() => {
    const open = store.transcript.listOpenToolParts()
    // A tool call of a root session that was only waiting for the person can go on from stored state: its
    // approval stays pending and its part open; answering it resumes the run (see SessionRunner.resume).
    const resumable = new Set<string>()
    const waitingParts = new Set<string>()
    for (const approval of store.approvals.listApprovals({ status: 'pending' })) {
      const part = open.find((p) => p.sessionId === approval.sessionId && p.toolCallId === approval.toolCallId)
      if (approval.kind === 'tool' && approval.sessionId === approval.rootSessionId && part?.toolState === 'approval-requested' && store.sessions.getSession(approval.sessionId)) {
        resumable.add(approval.id)
        waitingParts.add(part.id)
      }
    }
    const stillAsking = new Set(open.filter((p) => waitingParts.has(p.id)).map((p) => p.sessionId))
    for (const part of open) {
      if (waitingParts.has(part.id)) continue
      const nested: { path: NestedPath; part: PartRecord }[] = []
      const closed = closePart(part, [], nested)
      store.transcript.upsertPart(closed)
      for (const n of nested) partUpdated(n.part, n.path, part.sessionId)
      partUpdated(closed)
      report.toolParts++
    }
    for (const approval of store.approvals.listApprovals({ status: 'pending' })) {
      if (resumable.has(approval.id)) continue
      store.approvals.resolveApproval(approval.id, 'expired', { reason: RESTART_REASON })
      // The event has no "expired" outcome; "cancelled" is what makes every viewer drop the pending dialog.
      const event: AgentEvent = { type: 'tool_approval_resolved', sessionId: approval.sessionId, at, approvalId: approval.id, outcome: 'cancelled' }
      publish(store.sessions.getSession(approval.sessionId) ? approval.sessionId : approval.rootSessionId, event)
      report.approvals++
    }
    for (const job of store.queue.listJobs({ status: 'running' })) {
      store.queue.updateJob(job.id, 'interrupted')
      report.backgroundJobs++
      if (!store.sessions.getSession(job.parentSessionId)) {
        // The parent was an opaque child: its transcript is nested in a stored session's task part. Tell it there.
        const nested = interruptNestedJob(store, job)
        if (!nested) continue
        partUpdated(nested.part, [], nested.owner)
        partUpdated(nested.card, nested.path, nested.owner)
        let created: AgentEvent = { type: 'message_created', sessionId: job.parentSessionId, at, message: nested.message }
        for (let i = nested.path.length - 1; i >= 0; i--) created = { type: 'subagent_event', sessionId: nested.path[i].sessionId, at, agentType: nested.path[i].agentType, event: created }
        publish(nested.owner, created)
        partUpdated(nested.text, nested.path, nested.owner)
        continue
      }
      const card = closeBackgroundCard(store, job.parentSessionId, job.id)
      if (card) partUpdated(card)
      const closed = card?.data.subagent as TaskCard | undefined
      addMessage(job.parentSessionId, { synthetic: true, agent: job.agentType, task: stoppedNotice(job) }, childError({ agentType: job.agentType, taskId: job.id, worktree: closed?.worktree }))
    }
    for (const session of store.sessions.listSessions({ statuses: ['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'], includeArchived: true, limit: 100_000 })) {
      addMessage(
        session.id,
        { notice: 'host_restart' },
        stillAsking.has(session.id)
          ? 'The previous run was interrupted because Agentry stopped. A tool call is still waiting for your approval: answer it and the run continues. Calls that were already running are marked as failed and were not repeated.'
          : 'The previous run was interrupted because Agentry stopped. Tool calls that were in flight are marked as failed and were not repeated. Send a message to continue.',
      )
      const updated = store.sessions.updateSession(session.id, { status: 'idle' })
      publish(session.id, { type: 'status_change', sessionId: session.id, at, status: 'idle', reason: RESTART_REASON })
      publish(session.id, { type: 'session_updated', sessionId: session.id, at, session: updated })
      report.sessions++
    }
    store.flush()
  })
  return report
}

const OPEN_STATES = new Set(['input-streaming', 'input-available', 'approval-requested'])

/**
 * Closes a tool part and, for a task part, every opaque descendant nested in its transcript. Nested parts that
 * changed are collected in `nested` with the opaque levels they live in.
 */
function closePart(part: PartRecord, path: NestedPath, nested: { path: NestedPath; part: PartRecord }[]): PartRecord {
  const card = part.data.subagent as TaskCard | undefined
  const closedCard = card && closeCard(card, path, nested)
  const data: Record<string, unknown> = { ...part.data, error: closedCard ? childError(closedCard) : RESTART_REASON, endedAt: Date.now() }
  if (closedCard) data.subagent = closedCard
  const closed: PartRecord = { ...part, data, toolState: 'output-error' }
  if (path.length > 0) nested.push({ path, part: closed })
  return closed
}

/**
 * A background task's part was closed long ago (it returned the handle), but its card kept being updated while the
 * child ran: left alone it would show "running" forever for a child that no longer exists. Found by the task id
 * (a resumed child has a newer call than the one its job row was created for).
 */
function closeBackgroundCard(store: Store, sessionId: string, taskId: string): PartRecord | undefined {
  for (const message of [...store.transcript.listMessages(sessionId, { includeHidden: true })].reverse()) {
    const part = message.parts.find((p) => isOpenCardOf(p, taskId))
    if (!part) continue
    const closed = { ...part, data: { ...part.data, subagent: closeCard(part.data.subagent as TaskCard, [], []) } }
    store.transcript.upsertPart(closed)
    return closed
  }
  return undefined
}

function isOpenCardOf(part: PartRecord, taskId: string): boolean {
  const card = part.data.subagent as TaskCard | undefined
  return card?.taskId === taskId && (card.status === 'queued' || card.status === 'running')
}

function closeCard(card: TaskCard, path: NestedPath, nested: { path: NestedPath; part: PartRecord }[]): TaskCard {
  const open = card.status === 'queued' || card.status === 'running'
  const inner = [...path, { sessionId: card.taskId, agentType: card.agentType }]
  const transcript = card.transcript?.map((m) => ({
    ...m,
    parts: m.parts.map((p) => (p.toolState && OPEN_STATES.has(p.toolState) ? closePart(p, inner, nested) : p)),
  }))
  // A worktree still in use is kept as it is, whatever the child had done in it (nothing of it is committed).
  const worktree = card.worktree?.state === 'active' ? { ...card.worktree, state: 'kept' as const, diffStat: KEPT_AFTER_RESTART, uncommitted: true } : card.worktree
  return {
    ...card,
    ...(worktree ? { worktree } : {}),
    ...(open ? { status: 'aborted' as const, error: CHILD_REASON, endedAt: Date.now() } : {}),
    ...(transcript ? { transcript } : {}),
  }
}

/**
 * A background child of an opaque child: find the stored session whose task part nests that parent (the root or an
 * inspectable session below it), close the child's card there and append the failure message to the parent's
 * nested transcript — where its model reads it when it is resumed. Returns the rewritten stored part and the
 * nested parts to announce, with the opaque levels they live in.
 */
function interruptNestedJob(
  store: Store,
  job: JobRecord,
): { owner: string; part: PartRecord; path: NestedPath; card: PartRecord; message: MessageRecord; text: PartRecord } | undefined {
  for (const sessionId of treeOf(store, job.rootSessionId)) {
    let card: PartRecord | undefined
    const now = Date.now()
    const message: MessageWithParts = { id: newId('msg'), sessionId: job.parentSessionId, role: 'assistant', metadata: { synthetic: true, agent: job.agentType, task: stoppedNotice(job) }, createdAt: now, updatedAt: now, parts: [] }
    let text: PartRecord | undefined
    const hit = editNestedTranscript(store.transcript.listMessages(sessionId, { includeHidden: true }), job.parentSessionId, (nested) => {
      const closed = nested.map((m) => ({
        ...m,
        parts: m.parts.map((p) => {
          if (!isOpenCardOf(p, job.id)) return p
          return (card = { ...p, data: { ...p.data, subagent: closeCard(p.data.subagent as TaskCard, [], []) } })
        }),
      }))
      const worktree = (card?.data.subagent as TaskCard | undefined)?.worktree
      text = textPart(message.id, job.parentSessionId, childError({ agentType: job.agentType, taskId: job.id, worktree }))
      return [...closed, { ...message, parts: [text] }]
    })
    if (!hit || !card || !text) continue
    store.transcript.upsertPart(hit.part)
    const { parts: _parts, ...record } = message
    return { owner: sessionId, part: hit.part, path: hit.path, card, message: record, text }
  }
  return undefined
}

/** A root session and every stored session below it. */
function treeOf(store: Store, rootId: string): string[] {
  const ids = [rootId]
  for (let i = 0; i < ids.length; i++) {
    for (const child of store.sessions.listSessions({ parentId: ids[i], includeArchived: true, limit: 100_000 })) ids.push(child.id)
  }
  return ids
}

/** The notice record of a background child the restart stopped. */
function stoppedNotice(job: JobRecord): BackgroundNotice {
  return { taskId: job.id, agentType: job.agentType, description: job.description, outcome: 'stopped' }
}
