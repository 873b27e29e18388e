import type { CallInput, CallOutput } from '../../src-shared'
import { useAgents, pickable, rememberedAgent } from './agents-store'
import { replaceApprovals } from './approvals-store'
import { call } from './bridge'
import { toUiError, type UiResult } from './ui-error'
import { startGlobalFeed } from './events'
import { useSessions } from './sessions-store'
import { useSettings } from './settings-store'
import { useWorkspace } from './workspace-store'

const LAST_ROOT = 'agentry.workspace'

/** Startup: pick the workspace (last used, else the host's default), then load everything the screens need. */
export async function boot(): Promise<void> {
  startGlobalFeed()
  const res = await call('workspaces.list', {})
  if (!res.ok) {
    useWorkspace.setState({ error: toUiError('Loading workspaces', res.error) })
    return
  }
  const stored = safeGet(LAST_ROOT)
  const root = stored ?? res.data.recent[0]?.root ?? res.data.defaultRoot
  useWorkspace.setState({ recent: res.data.recent, defaultRoot: res.data.defaultRoot })
  await openWorkspace(root)
}

export async function openWorkspace(root: string): Promise<boolean> {
  const res = await call('workspaces.open', { root })
  if (!res.ok) {
    // The host's message says what is wrong with the path and what to do; the generic hint of its code ("it may have
    // been deleted or archived", "the app sent something the host rejected") was a second, wrong sentence.
    useWorkspace.setState({ error: { ...toUiError(`Opening ${root}`, res.error), ...(res.error.code === 'not_found' || res.error.code === 'invalid_request' ? { hint: '' } : {}) } })
    return false
  }
  safeSet(LAST_ROOT, res.data.root)
  useWorkspace.setState((s) => ({
    root: res.data.root,
    error: null,
    recent: [{ root: res.data.root, lastOpenedAt: Date.now() }, ...s.recent.filter((r) => r.root !== res.data.root)].slice(0, 10),
  }))
  await Promise.all([loadAgents(), refreshSessions(), loadSettings(), refreshApprovals()])
  return true
}

export async function loadAgents(): Promise<void> {
  const root = useWorkspace.getState().root
  if (!root) return
  const res = await call('agents.list', { workspaceRoot: root })
  if (!res.ok) {
    useAgents.setState({ loadError: toUiError('Loading agents', res.error) })
    return
  }
  const byName = Object.fromEntries(res.data.agents.map((a) => [a.name, a]))
  const choices = pickable(res.data.agents)
  const remembered = rememberedAgent(root)
  const current = useAgents.getState().selected
  const selected =
    [remembered, current, 'build'].find((n) => n && choices.some((a) => a.name === n)) ?? choices[0]?.name ?? null
  useAgents.setState({ agents: res.data.agents, errors: res.data.errors, folders: res.data.folders, disabled: res.data.disabled, byName, selected, loadError: null })
}

/** Writes a new agent file (never over an existing one), then reloads the agents so it shows like any other. */
export async function createAgent(input: CallInput<'agents.create'>): Promise<UiResult<CallOutput<'agents.create'>>> {
  const res = await call('agents.create', input)
  if (!res.ok) return { ok: false, error: toUiError('Creating the agent', res.error) }
  await loadAgents()
  return res
}

export async function refreshSessions(): Promise<void> {
  const root = useWorkspace.getState().root
  if (!root) return
  const res = await call('sessions.list', { workspaceRoot: root, includeArchived: true, includeChildren: true, limit: 20_000 })
  if (!res.ok) {
    useSessions.setState({ listError: toUiError('Loading sessions', res.error), loaded: true })
    return
  }
  useSessions.setState({ byId: Object.fromEntries(res.data.sessions.map((s) => [s.id, s])), listError: null, loaded: true })
}

/**
 * Settings from the host. `reseed: 'always'` (Refresh): the Settings forms start again from what was loaded, whatever
 * was typed. `reseed: 'if-changed'` (opening Settings): only when the host's answer differs from what the forms were
 * seeded with — the answer may arrive after the person started typing, and remounting then would drop what they
 * typed (and a save would send the old value: seen on a loaded machine). Without `reseed` (after a save) the forms
 * keep what the person typed and the notes they show.
 */
export async function loadSettings(o: { reseed?: 'always' | 'if-changed' } = {}): Promise<void> {
  const root = useWorkspace.getState().root ?? undefined
  const [s, r] = await Promise.all([call('settings.get', { workspaceRoot: root }), call('rules.list', { workspaceRoot: root })])
  if (!s.ok) return useSettings.setState({ loadError: toUiError('Loading settings', s.error) })
  if (!r.ok) return useSettings.setState({ settings: s.data, loadError: toUiError('Loading permission rules', r.error) })
  useSettings.setState((st) => ({
    settings: s.data,
    rules: r.data.rules,
    loadError: null,
    version: o.reseed === 'always' || (o.reseed === 'if-changed' && JSON.stringify(st.settings) !== JSON.stringify(s.data)) ? st.version + 1 : st.version,
  }))
}

export async function refreshApprovals(): Promise<void> {
  const res = await call('approvals.list', {})
  if (res.ok) replaceApprovals(res.data.approvals)
}


function safeGet(k: string): string | null {
  try {
    return localStorage.getItem(k)
  } catch (err) {
    console.warn('[agentry] localStorage unavailable:', err)
    return null
  }
}

function safeSet(k: string, v: string): void {
  try {
    localStorage.setItem(k, v)
  } catch (err) {
    console.warn('[agentry] localStorage unavailable:', err)
  }
}

/** Folders under a path being typed, from the host's file system (none when it cannot list them). */
export async function completeFolder(partial: string): Promise<string[]> {
  const r = await call('workspaces.complete', { partial })
  return r.ok ? r.data.folders : []
}

/** The desktop app's OS folder dialog, or null in a browser tab (the preload is only there). */
export { nativeFolderPicker } from '../bridge'
