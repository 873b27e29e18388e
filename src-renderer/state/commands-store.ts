import { create } from 'zustand'
import type { CommandEntry } from '../../src-shared'
import { call } from './bridge'
import { chooseModel } from './models-store'
import { newSession } from './session-actions'
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
 * `/model` the palette's pickers (`/model provider/model` switches at once). Null when `text` is none of them.
 */
export async function runAppCommand(text: string): Promise<{ error: UiError | null } | null> {
  const m = /^\/(clear|agents|model)(?:\s+(.*))?$/s.exec(text.trim())
  if (!m) return null
  const [, name, arg] = m
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
