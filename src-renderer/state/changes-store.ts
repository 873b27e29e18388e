import { create } from 'zustand'
import type { CallOutput, TurnChanges } from '../../src-shared'
import { agentsWithChanges } from './changes-view'
import type { UiError } from './ui-error'

type ChangesList = CallOutput<'changes.list'>

/** Undo, redo or revert, as the confirm dialog plans and runs it (see changes-actions.ts). */
export type RestoreRequest =
  | { op: 'undo'; sessionId: string; toMessageId: string }
  | { op: 'redo'; sessionId: string; turns: number }
  | { op: 'revert'; sessionId: string; checkpointId?: string; paths?: string[]; agentSessionId?: string; hunk?: number; what: string }
  | { op: 'apply'; sessionId: string; taskId: string; branch: string }

type ChangesStore = {
  /** the session whose recorded turns these are (the session on screen) */
  sessionId: string | null
  turns: TurnChanges[]
  redo: ChangesList['redo']
  /** kept worktrees of the conversation, waiting to be applied */
  worktrees: ChangesList['worktrees']
  /** child sessions that changed files in turns still applied (their cards offer "Revert changes") */
  agents: Set<string>
  loading: boolean
  error: UiError | null
  /** the confirm dialog's request, while it is open */
  dialog: RestoreRequest | null
  /** what the last rewind put into the message box (Redo takes it back out if it is still there untouched) */
  rewoundText: string | null
}

const EMPTY = new Set<string>()

export const useChanges = create<ChangesStore>(() => ({
  sessionId: null,
  turns: [],
  redo: null,
  worktrees: [],
  agents: EMPTY,
  loading: false,
  error: null,
  dialog: null,
  rewoundText: null,
}))

/** A fresh answer of `changes.list` for `sessionId`. */
export function setChanges(sessionId: string, list: ChangesList): void {
  useChanges.setState({
    sessionId,
    turns: list.turns,
    redo: list.redo,
    worktrees: list.worktrees,
    agents: agentsWithChanges(list.turns),
    loading: false,
    error: null,
  })
}

/** Another session on screen (or none): what was listed belongs to the previous one. */
export function resetChanges(sessionId: string | null): void {
  useChanges.setState({ sessionId, turns: [], redo: null, worktrees: [], agents: EMPTY, loading: sessionId !== null, error: null, dialog: null })
}

export function openRestore(request: RestoreRequest): void {
  useChanges.setState({ dialog: request })
}

export function closeRestore(): void {
  useChanges.setState({ dialog: null })
}
