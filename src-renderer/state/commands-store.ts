import { create } from 'zustand'
import type { CommandEntry } from '../../src-shared'
import { call } from './bridge'
import { openRestore } from './changes-store'
import { chooseModel } from './models-store'
import { newSession } from './session-actions'
import { isRunning } from './session-status'
import { lastPersonMessage } from './transcript-model'
import { useTranscript } from './transcript-store'
import type { UiError } from './ui-error'
import { focusComposer, useUi } from './ui-store'
import { useWorkspace } from './workspace-store'

type CommandsStore = {
  commands: CommandEntry[]
  /** the workspace the list is for */
  root: string | null
}

export const useCommands = create<CommandsStore>(() => ({ commands: [], root: null }))

/** Reads the workspace's commands (the composer asks each time `/` opens its list: an edited file shows at once). */
export async function loadCommands(): Promise<void> {
  const root = useWorkspace.getState().root
  if (!root) return
  const res = await call('commands.list', { workspaceRoot: root })
  // No list is no completion: typing `/name` still works (the host resolves it), so a failure here stays quiet.
  if (res.ok) useCommands.setState({ commands: res.data.commands, root })
}

/** Commands whose name fits what was typed after `/`: names starting with it first, then names containing it. */
export function commandMatches(commands: CommandEntry[], typed: string, max = 10): CommandEntry[] {
  const q = typed.toLowerCase()
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q))
  const within = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q))
  return [...starts, ...within].slice(0, max)
}

/**
 * Built-ins that are actions of this app (the host refuses them): `/clear` opens a new session, `/agents` and
 * `/model` the palette's pickers (`/model provider/model` switches at once), `/undo` the Rewind dialog for the
 * person's last message (the plan first, as the button beside it). Null when `text` is none of them.
 */
export async function runAppCommand(text: string): Promise<{ error: UiError | null } | null> {
  const m = /^\/(clear|agents|model|undo)(?:\s+(.*))?$/s.exec(text.trim())
  if (!m) return null
  const [, name, arg] = m
  if (name === 'undo') return { error: undoLast() }
  if (name === 'clear') {
    newSession()
    focusComposer()
    return { error: null }
  }
  if (name === 'model' && arg?.trim()) {
    return { error: await chooseModel(arg.trim()) }
  }
  useUi.setState({ paletteOpen: true, paletteStart: name === 'agents' ? 'agent' : 'model' })
  return { error: null }
}

function undoLast(): UiError | null {
  const { viewId, transcripts, queue } = useTranscript.getState()
  const t = viewId ? transcripts[viewId] : undefined
  if (!viewId || !t) return { context: '/undo', message: 'There is nothing to undo: open a session first.', hint: '' }
  if (isRunning(t.status) || (queue[viewId]?.length ?? 0) > 0) return { context: '/undo', message: 'This session is still working: stop it (or wait for it to finish), then /undo.', hint: '' }
  const last = lastPersonMessage(t)
  if (!last) return { context: '/undo', message: 'There is nothing to undo in this session yet.', hint: '' }
  openRestore({ op: 'undo', sessionId: viewId, toMessageId: last.id })
  return null
}
