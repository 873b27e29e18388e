import { call } from './bridge'
import { runningChildren, type MentionChild } from './mentions'
import { steerRun } from './run-map-actions'
import { useRunMap } from './run-map-store'
import { useTranscript } from './transcript-store'
import type { UiError } from './ui-error'
import { useWorkspace } from './workspace-store'

export type FoundFiles = { files: { path: string; positions: number[] }[]; truncated: boolean }

const NONE: FoundFiles = { files: [], truncated: false }

/**
 * The `@` menu's files: the workspace of the conversation on screen (or the open folder before there is one),
 * fuzzy-matched by the host. A failure offers no files (the person is still typing: the agents and children stay).
 */
export async function findFiles(query: string, limit = 8): Promise<FoundFiles> {
  const sessionId = useTranscript.getState().viewId
  const root = useWorkspace.getState().root
  const input = sessionId ? { sessionId, query, limit } : root ? { workspaceRoot: root, query, limit } : null
  if (!input) return NONE
  const res = await call('files.find', input)
  if (!res.ok) {
    console.warn('[agentry] files.find:', res.error.message)
    return NONE
  }
  return res.data
}

/** Whether a child picked in the `@` menu still runs, as far as this window knows. */
export function childStillRunning(id: string): boolean {
  const s = useTranscript.getState()
  return runningChildren({ viewId: s.viewId, rootId: s.rootId, transcript: s.viewId ? s.transcripts[s.viewId] : undefined, tasks: s.tasks, runMap: useRunMap.getState() }).some((c) => c.id === id)
}

/**
 * The composer's message for a running child picked in the `@` menu: steered to it (read at its next step), as the
 * run map's message box does. One that has ended — before the send or on its way — is said plainly; the text stays.
 */
export async function messageChild(child: MentionChild, text: string): Promise<UiError | null> {
  const ended: UiError = {
    context: `Sending to ${child.agentType}`,
    message: `${child.agentType}${child.label ? ` (${child.label})` : ''} has ended, so there is no next step to give your message to. It was not sent.`,
    hint: 'Your text is kept: remove the "To:" chip to send it to the conversation instead.',
  }
  if (!childStillRunning(child.id)) return ended
  const err = await steerRun(child.id, text)
  if (err && /is not running/.test(err.message)) return ended
  return err
}
