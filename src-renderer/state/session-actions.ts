import type { CallInput, PromptAttachment, SearchHit } from '../../src-shared'
import { addApprovals, removeApproval } from './approvals-store'
import { call } from './bridge'
import { loadChanges } from './changes-actions'
import { resetChanges } from './changes-store'
import { toUiError, type UiError, type UiResult } from './ui-error'
import { followRoot, seedTranscript, stopFollowing } from './events'
import { patchSession, removeSession, upsertSession, useSessions } from './sessions-store'
import { setQueue, upsertTasks, useTranscript } from './transcript-store'
import { fillComposer, followLatest, notifyInfo, useUi } from './ui-store'
import { useAgents } from './agents-store'
import { useModels } from './models-store'
import { useWorkspace } from './workspace-store'

/** Opens a session (root or inspectable child): fetch, seed, follow its root's stream from the fetched seq. */
export async function openSession(id: string): Promise<void> {
  useUi.setState({ screen: 'chat' })
  setHash(`#/s/${id}`)
  useTranscript.setState({ viewId: id, loading: true, loadError: null })
  const res = await call('sessions.get', { sessionId: id })
  if (useTranscript.getState().viewId !== id) return
  if (!res.ok) {
    useTranscript.setState({ loading: false, loadError: toUiError('Opening the session', res.error) })
    return
  }
  const d = res.data
  const rootId = d.ancestors[0]?.id ?? d.session.id
  if (useTranscript.getState().rootId !== rootId) useTranscript.setState({ tasks: {}, expanded: {}, childLoads: {} })
  seedTranscript(id, d.messages, d.lastSeq)
  useTranscript.setState((s) => ({
    rootId,
    viewSession: d.session,
    ancestors: d.ancestors,
    loading: false,
    transcripts: { ...s.transcripts, [id]: { ...s.transcripts[id], status: d.session.status } },
  }))
  upsertSession(d.session, useWorkspace.getState().root)
  for (const c of d.children) upsertSession(c, useWorkspace.getState().root)
  setQueue(id, d.queue)
  addApprovals(d.approvals)
  followRoot(rootId, d.lastSeq, (reason) => {
    console.warn(`[agentry] resync for ${rootId}: ${reason}`)
    stopFollowing()
    const viewing = useTranscript.getState().viewId
    if (viewing) void openSession(viewing)
  })
  void loadTasks(rootId)
  void loadChanges(id)
}

/** Re-fetch what is on screen (after a reconnect to a restarted host). */
export async function reloadView(): Promise<void> {
  const id = useTranscript.getState().viewId
  stopFollowing()
  if (id) await openSession(id)
}

async function loadTasks(rootId: string): Promise<void> {
  const res = await call('tasks.list', { rootSessionId: rootId })
  if (!res.ok) return
  const sessions = useSessions.getState().byId
  upsertTasks(res.data.tasks.map((t) => ({ ...t, inspectable: sessions[t.taskId] !== undefined })))
}

/** Leaves the open session: the composer will create a new one on the first message. */
export function newSession(): void {
  stopFollowing()
  setHash('#/')
  useUi.setState({ screen: 'chat' })
  useTranscript.setState({ viewId: null, rootId: null, viewSession: null, ancestors: [], loadError: null, tasks: {}, expanded: {} })
  resetChanges(null)
}

/** Fetches an inspectable child so its transcript can be shown nested in the parent's card. */
export async function loadChild(childId: string): Promise<void> {
  const st = useTranscript.getState()
  if (st.childLoads[childId] === 'loading' || st.childLoads[childId] === 'done') return
  useTranscript.setState((s) => ({ childLoads: { ...s.childLoads, [childId]: 'loading' } }))
  const res = await call('sessions.get', { sessionId: childId })
  if (!res.ok) {
    const err = toUiError('Loading the subagent transcript', res.error)
    useTranscript.setState((s) => ({ childLoads: { ...s.childLoads, [childId]: err } }))
    return
  }
  seedTranscript(childId, res.data.messages, res.data.lastSeq)
  useTranscript.setState((s) => ({ childLoads: { ...s.childLoads, [childId]: 'done' } }))
}

type Pending = { text: string; requestId: string }
let pendingSubmit: Pending | null = null

/**
 * Sends a prompt. The requestId is kept while the same text is retried after a failure,
 * so a submit that did reach the host is not run twice.
 */
export async function sendPrompt(text: string, agent: string | null, attachments: PromptAttachment[] = []): Promise<UiError | null> {
  const root = useWorkspace.getState().root
  if (!root) return { context: 'Sending', message: 'No workspace is open.', hint: 'Open a folder in the bar at the top first.' }
  let sessionId = useTranscript.getState().viewId
  if (!sessionId) {
    const input: CallInput<'sessions.create'> = { workspaceRoot: root }
    if (agent) input.agent = agent
    const model = useModels.getState().nextSession
    if (model) input.model = model
    const created = await call('sessions.create', input)
    if (!created.ok) return toUiError('Creating a session', created.error)
    useModels.setState({ nextSession: null })
    upsertSession(created.data.session, root)
    sessionId = created.data.session.id
    await openSession(sessionId)
  }
  if (!pendingSubmit || pendingSubmit.text !== text) pendingSubmit = { text, requestId: crypto.randomUUID() }
  const input: CallInput<'messages.prompt'> = { sessionId, requestId: pendingSubmit.requestId, text }
  if (agent) input.agent = agent
  if (attachments.length) input.attachments = attachments
  const res = await call('messages.prompt', input)
  if (!res.ok) return toUiError('Sending the message', res.error)
  pendingSubmit = null
  forgetPick(sessionId)
  return null
}

/** A pick in the agent chip was for the next message; once sent, the chip follows the session again. */
function forgetPick(sessionId: string): void {
  const { perSession } = useAgents.getState()
  if (!(sessionId in perSession)) return
  const rest = { ...perSession }
  delete rest[sessionId]
  useAgents.setState({ perSession: rest })
}

/**
 * Retry (after a failed turn) or Regenerate (the last answer): the host hides what followed the last message and
 * runs it again. One request id per click, so a retried call that did reach the host is not run twice.
 */
export async function retryLast(sessionId: string, agent: string | null): Promise<UiError | null> {
  const input: CallInput<'messages.retry'> = { sessionId, requestId: crypto.randomUUID() }
  if (agent) input.agent = agent
  followLatest()
  const res = await call('messages.retry', input)
  if (!res.ok) return toUiError('Running the message again', res.error)
  forgetPick(sessionId)
  return null
}

/** Edit a sent message: it and what followed are hidden (kept in the store), and the new text is sent. */
export async function editMessage(sessionId: string, messageId: string, text: string, agent: string | null): Promise<UiError | null> {
  const input: CallInput<'messages.edit'> = { sessionId, messageId, text, requestId: crypto.randomUUID() }
  if (agent) input.agent = agent
  followLatest()
  const res = await call('messages.edit', input)
  if (!res.ok) return toUiError('Editing the message', res.error)
  forgetPick(sessionId)
  return null
}

/**
 * The person's Stop. Messages queued behind the run are not sent by it: the host hands them back and they return to
 * the message box (after anything typed there), to send when the person chooses.
 */
export async function abortRun(sessionId: string): Promise<UiError | null> {
  const res = await call('messages.abort', { sessionId })
  if (!res.ok) return toUiError('Stopping the run', res.error)
  const { returned } = res.data
  if (returned.length) {
    const gone = new Set(returned.map((r) => r.queueId))
    useTranscript.setState((s) => ({ queue: { ...s.queue, [sessionId]: (s.queue[sessionId] ?? []).filter((q) => !gone.has(q.id)) } }))
    fillComposer(returned.map((r) => r.text).filter(Boolean).join('\n\n'), undefined, true, returned.flatMap((r) => r.attachments ?? []))
    notifyInfo(`Stopped. ${returned.length === 1 ? 'Your queued message is' : `Your ${returned.length} queued messages are`} back in the message box — send when ready.`)
  }
  return null
}

export async function cancelQueued(sessionId: string, queueId: string): Promise<UiError | null> {
  const res = await call('queue.cancel', { queueId })
  if (!res.ok) return toUiError('Cancelling the queued message', res.error)
  useTranscript.setState((s) => ({ queue: { ...s.queue, [sessionId]: (s.queue[sessionId] ?? []).filter((q) => q.id !== queueId) } }))
  return null
}

export async function abortTask(taskId: string): Promise<UiError | null> {
  const res = await call('tasks.abort', { taskId })
  return res.ok ? null : toUiError('Aborting the background task', res.error)
}

/** A task card's worktree action, asked of the conversation it is shown in (its root and the sessions below). */
export async function worktreeAction(taskId: string, action: 'diff' | 'remove' | 'open'): Promise<{ diff?: string; error?: UiError }> {
  const sessionId = useTranscript.getState().rootId ?? useTranscript.getState().viewId
  if (!sessionId) return { error: { context: 'Worktree', message: 'No conversation is open.', hint: 'Open the conversation of this task first.' } }
  const res = await call('tasks.worktree', { sessionId, taskId, action })
  const doing = { diff: 'Showing the worktree diff', remove: 'Removing the worktree', open: 'Opening the worktree folder' }[action]
  return res.ok ? { diff: res.data.diff } : { error: toUiError(doing, res.error) }
}

export async function answerApproval(input: CallInput<'approvals.answer'>): Promise<UiError | null> {
  const res = await call('approvals.answer', input)
  if (!res.ok) return toUiError('Answering the approval', res.error)
  removeApproval(res.data.approval.id)
  for (const id of res.data.alsoResolved) removeApproval(id)
  return null
}

export async function archiveSession(id: string, archived: boolean): Promise<UiError | null> {
  const res = await call('sessions.archive', { sessionId: id, archived })
  if (!res.ok) return toUiError('Archiving the session', res.error)
  patchSession(id, { archivedAt: res.data.session.archivedAt })
  return null
}

export async function renameSession(id: string, title: string): Promise<UiError | null> {
  const res = await call('sessions.rename', { sessionId: id, title })
  if (!res.ok) return toUiError('Renaming the session', res.error)
  patchSession(id, { title: res.data.session.title })
  return null
}

export async function deleteSession(id: string): Promise<UiError | null> {
  const res = await call('sessions.delete', { sessionId: id })
  if (!res.ok) return toUiError('Deleting the session', res.error)
  removeSession(id)
  if (useTranscript.getState().viewId === id) newSession()
  return null
}

/** Sessions whose messages contain the words (the host's full-text index), each hit with its marked snippet. */
export async function searchMessages(workspaceRoot: string, query: string, includeArchived: boolean): Promise<UiResult<SearchHit[]>> {
  const res = await call('sessions.search', { workspaceRoot, query, includeArchived, limit: 30 })
  return res.ok ? { ok: true, data: res.data.hits } : { ok: false, error: toUiError('Searching messages', res.error) }
}

export function setHash(h: string): void {
  if (location.hash !== h) history.replaceState(null, '', `${location.pathname}${location.search}${h}`)
}
