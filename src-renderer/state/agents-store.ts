import { create } from 'zustand'
import type { AgentFolderInfo, AgentListEntry, AgentLoadError } from '../../src-shared'
import type { UiError } from './ui-error'

type AgentsStore = {
  agents: AgentListEntry[]
  errors: AgentLoadError[]
  /** agent folders that exist: read, or shadowed by the first-existing-folder rule */
  folders: AgentFolderInfo[]
  disabled: { name: string; file: string }[]
  byName: Record<string, AgentListEntry>
  /** the agent a new session starts with (per workspace, remembered in localStorage) */
  selected: string | null
  /** agents picked in the chip while viewing a session: the next message there goes to it */
  perSession: Record<string, string>
  loadError: UiError | null
}

export const useAgents = create<AgentsStore>(() => ({ agents: [], errors: [], folders: [], disabled: [], byName: {}, selected: null, perSession: {}, loadError: null }))

/** What the main screen's badge counts: files that did not load, agents with warnings, shadowed folders. */
export function agentIssueCount(s: Pick<AgentsStore, 'agents' | 'errors' | 'folders'>): { errors: number; warnings: number } {
  const files = new Set(s.errors.map((e) => e.file))
  const warned = s.agents.filter((a) => a.warnings.length > 0).length
  return { errors: files.size, warnings: warned + s.folders.filter((f) => f.status === 'shadowed').length }
}

/** Agents a person may pick for the composer: primary or all, and not hidden. */
export function pickable(agents: AgentListEntry[]): AgentListEntry[] {
  return agents.filter((a) => (a.mode === 'primary' || a.mode === 'all') && !a.hidden)
}

/** Agents offered by `@` completion: anything a task call could reach, minus hidden ones. */
export function addressable(agents: AgentListEntry[]): AgentListEntry[] {
  return agents.filter((a) => (a.mode === 'subagent' || a.mode === 'all') && !a.hidden)
}

const storageKey = (root: string): string => `agentry.agent:${root}`

export function rememberedAgent(root: string): string | null {
  try {
    return localStorage.getItem(storageKey(root))
  } catch (err) {
    // Storage can be disabled (privacy mode); the picker then simply starts from the default agent.
    console.warn('[agentry] localStorage unavailable:', err)
    return null
  }
}

/**
 * Picks the agent for the next message: in the session being viewed (it applies to that session's next turn)
 * and as the workspace's default for new sessions.
 */
export function selectAgent(root: string | null, name: string, sessionId: string | null = null): void {
  useAgents.setState((s) => ({ selected: name, perSession: sessionId ? { ...s.perSession, [sessionId]: name } : s.perSession }))
  if (!root) return
  try {
    localStorage.setItem(storageKey(root), name)
  } catch (err) {
    console.warn('[agentry] could not remember the agent choice:', err)
  }
}

/** Fallback colours so every agent has a stable accent even without `color` in its manifest. */
const PALETTE = ['#5b8def', '#e0883e', '#49a86b', '#b365d6', '#d65c7a', '#3aa6a6', '#c9a227', '#7d8597']

export function agentColor(name: string, info?: AgentListEntry): string {
  if (info?.color) return info.color
  let h = 0
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0
  return PALETTE[h % PALETTE.length]
}
