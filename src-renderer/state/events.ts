import { foldEvent, type AgentEvent, type LeafEvent, type SequencedEvent, type SubscriptionMessage } from '../../src-shared'
import { addApprovals, removeApproval, replaceApprovals } from './approvals-store'
import { getBridge } from './bridge'
import { noticeApprovals, noticeResolved, noticeRootStatus, noticeTurnComplete } from './browser-notifications'
import { changesMayHaveChanged } from './changes-actions'
import { conversationOf, rememberConversation } from './inbox-store'
import { toUiError } from './ui-error'
import { patchSession, upsertSession } from './sessions-store'
import { messageReturned, runMapResubscribed } from './run-map-actions'
import { foldRunBatch } from './run-map-store'
import { TranscriptDraft, leafOf } from './transcript-model'
import { upsertTasks, useTranscript } from './transcript-store'
import { notify } from './ui-store'
import { useWorkspace } from './workspace-store'

/**
 * The one place where bridge events enter the stores. Two feeds:
 * - the global feed (`all`, live only) keeps the sidebar badges and pending approvals current;
 * - the root feed (the open root session, resumable by seq) drives the transcript.
 * Events of the followed root arrive on both; the global feed ignores them so nothing is applied twice.
 */

let disposeGlobal: (() => void) | null = null
let disposeRoot: (() => void) | null = null
let followed: string | null = null

export function startGlobalFeed(): void {
  disposeGlobal?.()
  disposeGlobal = getBridge().subscribe({ sessionId: 'all', afterSeq: 0 }, (m) => {
    if (m.kind === 'snapshot') {
      replaceApprovals(m.approvals)
      // Every (re)subscription sends one: the notifier knows which of these it already told about.
      noticeApprovals(m.approvals, true)
      for (const r of m.runs) patchSession(r.sessionId, { status: r.status })
      return
    }
    if (m.kind === 'event' && m.event.stream !== followed) routeShared(m.event.event)
  }, (error) => notify(toUiError('Watching sessions for updates', error)))
}

/** Follow one root's stream from `afterSeq`; `onResync` reloads the session when the host cannot replay. */
export function followRoot(rootId: string, afterSeq: number, onResync: (reason: string) => void): void {
  if (followed === rootId && disposeRoot) return
  stopFollowing()
  followed = rootId
  disposeRoot = getBridge().subscribe({ sessionId: rootId, afterSeq }, (m: SubscriptionMessage) => {
    if (m.kind === 'resync') return onResync(m.reason)
    if (m.kind === 'snapshot') {
      addApprovals(m.approvals)
      flushNow()
      runMapResubscribed(rootId)
      const draftStatuses = m.runs
      for (const r of draftStatuses) patchSession(r.sessionId, { status: r.status })
      useTranscript.setState((s) => {
        const transcripts = { ...s.transcripts }
        for (const r of draftStatuses) if (transcripts[r.sessionId]) transcripts[r.sessionId] = { ...transcripts[r.sessionId], status: r.status }
        return { transcripts }
      })
      return
    }
    enqueue(m.event)
  }, (error) => notify(toUiError('Following the session live', error)))
}

export function stopFollowing(): void {
  flushNow()
  disposeRoot?.()
  disposeRoot = null
  followed = null
}

// Deltas arrive far faster than frames; applying them once per frame keeps streaming smooth at any length.
let buffer: SequencedEvent[] = []
let scheduled = false

function enqueue(e: SequencedEvent): void {
  buffer.push(e)
  if (scheduled) return
  scheduled = true
  // rAF does not run in a hidden tab; events must still land (approvals notify while hidden).
  if (typeof document !== 'undefined' && document.hidden) setTimeout(flushNow, 50)
  else requestAnimationFrame(flushNow)
}

/** Applies everything buffered now; also called before a seed so order is kept. */
export function flushNow(): void {
  scheduled = false
  if (buffer.length === 0) return
  const batch = buffer
  buffer = []
  const draft = new TranscriptDraft(useTranscript.getState().transcripts)
  const leaves: LeafEvent[] = []
  for (const e of batch) {
    draft.apply(e.seq, e.event)
    routeShared(e.event)
    routeRootOnly(e.event)
    leaves.push(leafOf(e.event))
  }
  if (draft.changed) useTranscript.setState({ transcripts: draft.result() })
  foldRunBatch(followed, leaves)
}

/** Seeds a transcript from fetched data, after applying anything already buffered (so nothing is lost or doubled). */
export function seedTranscript(sessionId: string, messages: Parameters<TranscriptDraft['seed']>[1], seq: number): void {
  flushNow()
  const draft = new TranscriptDraft(useTranscript.getState().transcripts)
  draft.seed(sessionId, messages, seq)
  useTranscript.setState({ transcripts: draft.result() })
}

/** Sidebar, approvals and queue: safe to apply from either feed. */
function routeShared(event: AgentEvent): void {
  // depth 0: the conversation's root itself (its turns are the runs a notification may report)
  const { leaf: e, depth } = foldEvent(event)
  switch (e.type) {
    case 'status_change':
      patchSession(e.sessionId, { status: e.status })
      if (depth === 0) noticeRootStatus(e.sessionId, e.status, e.at)
      return
    case 'session_created':
    case 'session_updated':
      upsertSession(e.session, useWorkspace.getState().root)
      // The inbox names conversations of every workspace; the sessions store keeps only the open one's.
      rememberConversation(e.session)
      return
    case 'tool_approval_required':
      addApprovals([e.approval])
      noticeApprovals([e.approval])
      return
    case 'tool_approval_resolved':
      removeApproval(e.approvalId)
      noticeResolved(e.approvalId)
      return
    case 'turn_complete':
      if (depth === 0) noticeTurnComplete(e.sessionId, { ...e, ...conversationOf(e.sessionId) })
      return
    case 'message_returned':
      // Whichever conversation is on screen: the text must never be lost.
      messageReturned(e.sessionId, e.text, e.reason)
      return
    default:
      return
  }
}

function routeRootOnly(event: AgentEvent): void {
  const e: LeafEvent = leafOf(event)
  if (e.type === 'turn_complete') changesMayHaveChanged(e.sessionId, 'turn')
  else if (e.type === 'messages_hidden') changesMayHaveChanged(e.sessionId, 'hidden')
  else if (e.type === 'message_created') changesMayHaveChanged(e.sessionId, 'message')
  if (e.type === 'message_queued') {
    useTranscript.setState((s) => {
      const list = s.queue[e.sessionId] ?? []
      const rest = list.filter((q) => q.id !== e.queueId)
      const next = e.removed
        ? rest
        : [...rest, { id: e.queueId, sessionId: e.sessionId, requestId: null, text: e.text, agent: null, kind: 'prompt' as const, status: 'queued' as const, createdAt: e.at }]
      return { queue: { ...s.queue, [e.sessionId]: next } }
    })
    patchSession(e.sessionId, { queued: Math.max(0, (useTranscript.getState().queue[e.sessionId] ?? []).length) })
    return
  }
  if (e.type === 'task_update' && e.task.background) {
    upsertTasks([
      {
        taskId: e.task.taskId,
        parentSessionId: e.sessionId,
        agentType: e.task.agentType,
        description: e.task.options?.label ?? e.task.description,
        status: e.task.status,
        inspectable: e.task.inspectable,
        createdAt: e.task.startedAt ?? e.at,
        endedAt: e.task.endedAt,
        ...(e.task.budget ? { budget: e.task.budget } : {}),
        ...(e.task.stoppedByUser ? { stoppedByUser: true } : {}),
        ...(e.task.toolCalls ? { toolCalls: e.task.toolCalls } : {}),
      },
    ])
  }
}
