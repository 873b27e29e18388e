import { formatWhen } from '../lib/format'
import { newSessionShortcut } from '../lib/keys'
import { agentColor, pickable, selectAgent, useAgents } from './agents-store'
import { toggleChangesPanel } from './changes-actions'
import { toggleRunMap } from './run-map-actions'
import { exportConversation } from './export-conversation'
import { chooseModel, modelChoices, pickerProviders, useModels } from './models-store'
import { openInbox } from './inbox-actions'
import { indexSessions, useSessions } from './sessions-store'
import { abortRun, newSession, openSession } from './session-actions'
import { useTranscript } from './transcript-store'
import { focusComposer, notify, useUi } from './ui-store'
import { isNarrow, panelShown, sessionsShown, toggleSessions, useDrawer } from './drawer-store'
import { useWorkspace } from './workspace-store'
import { isRunning } from './session-status'
import { useConnection } from './connection-store'

/** Sub-lists of the palette. */
export type PaletteMode = 'root' | 'session' | 'agent' | 'model'

export type PaletteItem = {
  id: string
  label: string
  detail?: string
  shortcut?: string
  color?: string
  /** opens a sub-list instead of running */
  next?: PaletteMode
  run?: () => void
}

const MAX_SESSIONS = 50

const matches = (q: string, ...texts: string[]): boolean => texts.some((t) => t.toLowerCase().includes(q))

export function paletteItems(mode: PaletteMode, query: string): PaletteItem[] {
  const q = query.trim().toLowerCase()
  if (mode === 'session') return sessionItems(q, MAX_SESSIONS)
  if (mode === 'agent') return agentItems(q)
  if (mode === 'model') return modelItems(query)
  const commands = rootCommands().filter((c) => !q || matches(q, c.label))
  // Typing in the first list also finds sessions by title, to switch in one step.
  return q ? [...commands, ...sessionItems(q, 8)] : commands
}

function rootCommands(): PaletteItem[] {
  const { viewId, transcripts } = useTranscript.getState()
  const status = viewId ? transcripts[viewId]?.status : null
  const list: PaletteItem[] = [
    {
      id: 'new-session',
      label: 'New session',
      shortcut: newSessionShortcut(useConnection.getState().transport === 'websocket'),
      run: () => {
        newSession()
        focusComposer()
      },
    },
    { id: 'switch-session', label: 'Switch session…', next: 'session' },
    { id: 'switch-agent', label: 'Switch agent…', next: 'agent' },
    { id: 'switch-model', label: 'Switch model…', next: 'model' },
    { id: 'inbox', label: 'Open inbox', detail: 'every decision waiting on you, in every workspace', run: openInbox },
    { id: 'settings', label: 'Open settings', run: () => useUi.setState({ screen: 'settings' }) },
    {
      id: 'toggle-sidebar',
      label: sessionsShown(isNarrow(), useDrawer.getState().open, useUi.getState().sidebarCollapsed) ? 'Hide the session list' : 'Show the session list',
      run: toggleSessions,
    },
    { id: 'focus-composer', label: 'Focus the message box', run: focusComposer },
  ]
  if (viewId) {
    const open = panelShown(useUi.getState().changesOpen)
    list.push({ id: 'toggle-changes', label: open ? 'Hide the changes' : 'Show the changes', detail: 'what each turn changed: diffs, revert, undo', run: () => toggleChangesPanel(!open) })
    const mapOpen = panelShown(useUi.getState().runMapOpen)
    list.push({ id: 'toggle-run-map', label: mapOpen ? 'Hide the run map' : 'Show the run map', detail: 'every agent of this conversation: status, spend, message, stop', run: () => toggleRunMap(!mapOpen) })
    list.push({ id: 'export', label: 'Export the conversation (Markdown)', detail: 'messages, tool calls and subagent answers, as a .md file', run: () => exportConversation(viewId) })
  }
  if (viewId && isRunning(status)) {
    list.splice(3, 0, {
      id: 'stop',
      label: 'Stop the running turn',
      detail: 'Esc in an empty message box',
      run: () => void abortRun(viewId).then((e) => e && notify(e)),
    })
  }
  return list
}

function sessionItems(q: string, max: number): PaletteItem[] {
  const { byId } = useSessions.getState()
  const agents = useAgents.getState().byName
  const now = Date.now()
  const out: PaletteItem[] = []
  for (const s of indexSessions(byId).all) {
    if (s.archivedAt !== null) continue
    if (q && !matches(q, s.title || 'untitled')) continue
    out.push({
      id: `session:${s.id}`,
      label: s.title || 'Untitled',
      detail: `${s.parentId ? 'child · ' : ''}${s.agent} · ${formatWhen(s.createdAt, now)}`,
      color: agentColor(s.agent, agents[s.agent]),
      run: () => void openSession(s.id),
    })
    if (out.length >= max) break
  }
  return out
}

function agentItems(q: string): PaletteItem[] {
  const root = useWorkspace.getState().root
  const viewId = useTranscript.getState().viewId
  return pickable(useAgents.getState().agents)
    .filter((a) => !q || matches(q, a.name, a.description))
    .map((a) => ({
      id: `agent:${a.name}`,
      label: a.name,
      detail: a.description,
      color: agentColor(a.name, a),
      run: () => selectAgent(root, a.name, viewId),
    }))
}

/** The model picker's choices (lists the picker loaded, and typed `provider/model`); choosing switches the next turn. */
function modelItems(query: string): PaletteItem[] {
  return modelChoices(query, useModels.getState().lists, pickerProviders()).map((c) => ({
    id: `model:${c.model}`,
    label: c.typed ? `Use ${c.model}` : c.model,
    detail: c.detail ?? c.provider,
    run: () => void chooseModel(c.model).then((e) => e && notify(e)),
  }))
}
