import type { RunNode } from '../../src-shared'
import { call } from './bridge'
import { panelOpened, panelShown } from './drawer-store'
import { beginRunMapLoad, keepReturnedMessage, runMapLoadFailed, seedRunMap, useRunMap } from './run-map-store'
import { openSession } from './session-actions'
import { useSessions } from './sessions-store'
import { useTranscript } from './transcript-store'
import { toUiError, type UiError } from './ui-error'
import { notifyInfo, useUi } from './ui-store'

/** Shows or hides the run map beside the transcript (in the place of the tasks and changes panels). */
export function toggleRunMap(open = !panelShown(useUi.getState().runMapOpen)): void {
  // The panel fetches its snapshot when it mounts (and when the conversation under it changes).
  useUi.setState(open ? { runMapOpen: true, changesOpen: false } : { runMapOpen: false })
  if (open) panelOpened()
}

let inFlight: string | null = null
/** the stream was rejoined while a snapshot was on its way: that one may predate what was missed, so fetch once more */
let again = false

/** Fetches the map's snapshot for a root (once at a time per root; events keep it live afterwards). */
export async function loadRunMap(rootId: string): Promise<void> {
  if (inFlight === rootId) return
  inFlight = rootId
  again = false
  beginRunMapLoad(rootId)
  const res = await call('runs.map', { rootSessionId: rootId })
  if (inFlight !== rootId) return
  inFlight = null
  if (res.ok) seedRunMap(rootId, res.data.nodes)
  else runMapLoadFailed(rootId, toUiError('Loading the run map', res.error))
  if (again) void loadRunMap(rootId)
}

/** The root's stream was (re)joined — opened, reconnected, resynced: events may have been missed, so fetch again. */
export function runMapResubscribed(rootId: string): void {
  if (!useUi.getState().runMapOpen) return
  if (inFlight === rootId) again = true
  else void loadRunMap(rootId)
}

/**
 * Shows a node's transcript beside the map: the root's and an inspectable child's are sessions of their own (opened
 * as the tasks panel's Open does); an opaque child has none, so its transcript (nested in its card) takes the
 * transcript's place until another node or session is opened.
 */
export function showRunNode(node: RunNode): void {
  const viewId = useTranscript.getState().viewId
  if (node.parentId === null || node.inspectable) {
    useRunMap.setState({ shown: null })
    if (viewId !== node.id) void openSession(node.id)
    return
  }
  if (viewId) useRunMap.setState({ shown: { id: node.id, viewId } })
}

/** Stops a child and everything it started; its caller reads the usual task error and goes on. */
export async function stopRunBranch(taskId: string): Promise<UiError | null> {
  const res = await call('tasks.abort', { taskId })
  if (!res.ok) return toUiError('Stopping this branch', res.error)
  // It ended on its own between the click and the host (the map shows it within a moment): say so, not nothing.
  if (!res.data.aborted) notifyInfo(`${useRunMap.getState().nodes[taskId]?.agentType ?? 'That agent'} had already ended; nothing was stopped.`)
  return null
}

/** A message for a running agent, read at its next step (as the person's). A run that is not running is refused. */
export async function steerRun(sessionId: string, text: string): Promise<UiError | null> {
  const res = await call('sessions.steer', { sessionId, text })
  return res.ok ? null : toUiError('Sending the message to the running agent', res.error)
}

/** message_returned: the run ended before its next step; the text is kept for the person with who it was for. */
export function messageReturned(sessionId: string, text: string, reason: string): void {
  const node = useRunMap.getState().nodes[sessionId]
  const session = useSessions.getState().byId[sessionId]
  const who = node ? `${node.agentType}: ${node.label}` : session ? `${session.agent}: ${session.title || 'Untitled'}` : 'an agent that has stopped'
  keepReturnedMessage(sessionId, text, reason, who)
}
