// Undo, redo, revert and the Changes view (issue 24): the calls to the host, and what follows a change (the list
// reloaded, the rewound message back in the message box, a notice).
import type { CallOutput, RestoreOutcome } from '../../src-shared'
import { call } from './bridge'
import { plural, restoredText } from './changes-view'
import { closeRestore, resetChanges, setChanges, useChanges, type RestoreRequest } from './changes-store'
import { panelOpened, panelShown } from './drawer-store'
import { messageText } from './part-data'
import { useTranscript } from './transcript-store'
import { toUiError, toUiResult, type UiResult } from './ui-error'
import { fillComposer, notify, notifyInfo, useUi } from './ui-store'

/** Loads the recorded turns of `sessionId` (the session on screen); a newer request for another session wins. */
export async function loadChanges(sessionId: string): Promise<void> {
  if (useChanges.getState().sessionId !== sessionId) resetChanges(sessionId)
  else useChanges.setState({ loading: true })
  const res = await call('changes.list', { sessionId })
  if (useChanges.getState().sessionId !== sessionId) return
  if (res.ok) setChanges(sessionId, res.data)
  else useChanges.setState({ loading: false, error: toUiError('Loading the changes', res.error) })
}

let pending: ReturnType<typeof setTimeout> | null = null

/**
 * An event that may change the list (a turn ended, messages were hidden, a redo showed them again): reload it, once
 * for a burst of events. A new message only matters while Redo is on offer (a redo shows its messages again).
 */
export function changesMayHaveChanged(sessionId: string, kind: 'turn' | 'hidden' | 'message'): void {
  const st = useChanges.getState()
  if (st.sessionId !== sessionId) return
  if (kind === 'message' && !st.redo) return
  if (pending) clearTimeout(pending)
  pending = setTimeout(() => {
    pending = null
    if (useChanges.getState().sessionId === sessionId) void loadChanges(sessionId)
  }, 150)
}

/** The plan of an undo, redo or revert (a dry run): what would be written, and what stands in the way. */
export function planRestore(req: RestoreRequest, includeProtected: boolean): Promise<UiResult<RestoreOutcome>> {
  return restore(req, { dryRun: true, includeProtected })
}

/**
 * Runs it for real. Done (`applied`): the list is reloaded; a rewind puts the message's text back into the message
 * box; a notice says how many files were restored. Not done (conflicts found since the plan): nothing was written.
 */
export async function runRestore(req: RestoreRequest, includeProtected: boolean): Promise<UiResult<RestoreOutcome>> {
  // Read before the undo hides the message.
  const text = req.op === 'undo' ? textOf(req.sessionId, req.toMessageId) : null
  const res = await restore(req, { includeProtected })
  if (!res.ok || !res.data.applied) return res
  closeRestore()
  const done = restoredText(res.data)
  if (req.op === 'undo') {
    if (text) fillComposer(text)
    useChanges.setState({ rewoundText: text })
    notifyInfo(`Rewound: ${done}. ${text ? 'Your message is back in the message box.' : ''}`.trim())
  } else if (req.op === 'redo') {
    const rewound = useChanges.getState().rewoundText
    if (rewound) fillComposer('', rewound)
    useChanges.setState({ rewoundText: null })
    notifyInfo(`Redone: ${plural(req.turns, 'turn')} back, ${done}.`)
  } else if (req.op === 'apply') {
    notifyInfo(`Applied ${req.branch}: ${plural(res.data.steps.length, 'file')} written.`)
  } else {
    notifyInfo(`Reverted: ${done}.`)
  }
  await loadChanges(req.sessionId)
  return res
}

async function restore(req: RestoreRequest, o: { dryRun?: boolean; includeProtected: boolean }): Promise<UiResult<RestoreOutcome>> {
  const flags = { ...(o.dryRun ? { dryRun: true } : {}), ...(o.includeProtected ? { includeProtected: true } : {}) }
  const doing = o.dryRun ? 'Checking what would change' : { undo: 'Rewinding', redo: 'Redoing', revert: 'Reverting', apply: 'Applying the worktree' }[req.op]
  switch (req.op) {
    case 'undo':
      return toUiResult(doing, await call('changes.undo', { sessionId: req.sessionId, toMessageId: req.toMessageId, ...flags }))
    case 'redo':
      return toUiResult(doing, await call('changes.redo', { sessionId: req.sessionId, ...flags }))
    case 'revert': {
      const { sessionId, checkpointId, paths, agentSessionId, hunk } = req
      const which = { ...(checkpointId ? { checkpointId } : {}), ...(paths ? { paths } : {}), ...(agentSessionId ? { agentSessionId } : {}), ...(hunk !== undefined ? { hunk } : {}) }
      return toUiResult(doing, await call('changes.revert', { sessionId, ...which, ...flags }))
    }
    case 'apply':
      return toUiResult(doing, await call('changes.applyWorktree', { sessionId: req.sessionId, taskId: req.taskId, ...flags }))
  }
}

/** The text the person wrote in a message on screen. */
function textOf(sessionId: string, messageId: string): string | null {
  const m = useTranscript.getState().transcripts[sessionId]?.messages.get(messageId)
  return m ? messageText(m.parts) || null : null
}

/** Opens or closes the Changes panel (it takes the tasks panel's place); opening reloads the list. */
export function toggleChangesPanel(open = !panelShown(useUi.getState().changesOpen)): void {
  // One panel beside the transcript at a time: the changes take the run map's place.
  useUi.setState(open ? { changesOpen: true, runMapOpen: false } : { changesOpen: false })
  if (open) panelOpened()
  const viewId = useTranscript.getState().viewId
  if (open && viewId) void loadChanges(viewId)
}

export async function loadCheckpointSpace(): Promise<UiResult<CallOutput<'checkpoints.space'>>> {
  return toUiResult('Measuring the checkpoints', await call('checkpoints.space', {}))
}

export async function pruneCheckpoints(): Promise<UiResult<CallOutput<'checkpoints.space'>>> {
  return toUiResult('Pruning the checkpoints', await call('checkpoints.space', { prune: true }))
}

/** Opens a changed file with the person's default application (on the machine the host runs on). */
export async function openChangedFile(sessionId: string, path: string): Promise<void> {
  const res = await call('changes.open', { sessionId, path })
  if (!res.ok) notify(toUiError(`Opening ${path}`, res.error))
}
