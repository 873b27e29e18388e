import { create } from 'zustand'
import type { AgentListEntry, AgentMode, SessionRecord, SessionSummary } from '../../src-shared'
import type { UiError } from './ui-error'

export type SessionFilters = { agent: string; mode: AgentMode | ''; search: string; archived: boolean }

type SessionsStore = {
  byId: Record<string, SessionSummary>
  filters: SessionFilters
  /**
   * Conversations whose children the person opened in the list. The list shows conversations: a conversation's
   * subagents live inside it (its transcript, the run map) and show here only when opened (▸), or on the way to the
   * session on screen.
   */
  expanded: Record<string, true>
  loaded: boolean
  listError: UiError | null
}

export const useSessions = create<SessionsStore>(() => ({
  byId: {},
  filters: { agent: '', mode: '', search: '', archived: false },
  expanded: {},
  loaded: false,
  listError: null,
}))

export function setFilters(patch: Partial<SessionFilters>): void {
  useSessions.setState((s) => ({ filters: { ...s.filters, ...patch } }))
}

export function toggleCollapsed(id: string): void {
  useSessions.setState((s) => {
    const expanded = { ...s.expanded }
    if (expanded[id]) delete expanded[id]
    else expanded[id] = true
    return { expanded }
  })
}

/** A session record from an event: keep the counters we already had (the record does not carry them). */
export function upsertSession(rec: SessionRecord, workspaceRoot: string | null): void {
  if (workspaceRoot && rec.workspaceRoot !== workspaceRoot) return
  useSessions.setState((s) => {
    const prev = s.byId[rec.id]
    const next: SessionSummary = { ...rec, pendingApprovals: prev?.pendingApprovals ?? 0, queued: prev?.queued ?? 0, childCount: prev?.childCount ?? 0 }
    const byId = { ...s.byId, [rec.id]: next }
    if (!prev && rec.parentId && byId[rec.parentId]) {
      byId[rec.parentId] = { ...byId[rec.parentId], childCount: byId[rec.parentId].childCount + 1 }
    }
    return { byId }
  })
}

export function patchSession(id: string, patch: Partial<SessionSummary>): void {
  useSessions.setState((s) => {
    const prev = s.byId[id]
    if (!prev) return s
    return { byId: { ...s.byId, [id]: { ...prev, ...patch } } }
  })
}

export function removeSession(id: string): void {
  useSessions.setState((s) => {
    const byId = { ...s.byId }
    delete byId[id]
    for (const x of Object.values(byId)) if (x.parentId === id) delete byId[x.id]
    return { byId }
  })
}

export type SessionRow = { id: string; depth: number; hasChildren: boolean; collapsed: boolean; flat: boolean }

/** Sorted, lowercased view of the sessions, rebuilt only when the set changes (not on every keystroke). */
export type SessionIndex = {
  roots: SessionSummary[]
  children: Map<string, SessionSummary[]>
  all: SessionSummary[]
  byId: Map<string, SessionSummary>
  lower: Map<string, string>
}

export function indexSessions(byId: Record<string, SessionSummary>): SessionIndex {
  const all = Object.values(byId).sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
  const roots: SessionSummary[] = []
  const children = new Map<string, SessionSummary[]>()
  const lower = new Map<string, string>()
  for (const s of all) {
    lower.set(s.id, s.title.toLowerCase())
    if (s.parentId && byId[s.parentId]) {
      let list = children.get(s.parentId)
      if (!list) children.set(s.parentId, (list = []))
      list.push(s)
    } else roots.push(s)
  }
  // Children read best in the order they were spawned.
  for (const list of children.values()) list.reverse()
  return { roots, children, all, byId: new Map(all.map((x) => [x.id, x])), lower }
}

/**
 * The rows the picker shows. Without filters: the conversations, each one's children nested under it once opened
 * (and always on the way to `viewId`, the session on screen).
 * With an agent, mode or search filter: a flat list of every matching session, children included.
 */
export function buildRows(
  index: SessionIndex,
  f: SessionFilters,
  agents: Record<string, AgentListEntry>,
  expanded: Record<string, true>,
  viewId: string | null = null,
): SessionRow[] {
  const rows: SessionRow[] = []
  const visible = (s: SessionSummary): boolean => f.archived || s.archivedAt === null
  const q = f.search.trim().toLowerCase()
  if (f.agent || f.mode || q) {
    for (const s of index.all) {
      if (!visible(s)) continue
      if (f.agent && s.agent !== f.agent) continue
      if (f.mode && agents[s.agent]?.mode !== f.mode) continue
      if (q && !(index.lower.get(s.id) ?? '').includes(q)) continue
      rows.push({ id: s.id, depth: 0, hasChildren: false, collapsed: false, flat: true })
    }
    return rows
  }
  // The session on screen is always in the list: its ancestors are open.
  const onPath = new Set<string>()
  for (let p = viewId ? index.byId.get(viewId)?.parentId : null; p; p = index.byId.get(p)?.parentId) onPath.add(p)
  const walk = (s: SessionSummary, depth: number): void => {
    const kids = (index.children.get(s.id) ?? []).filter(visible)
    const isCollapsed = !expanded[s.id] && !onPath.has(s.id)
    rows.push({ id: s.id, depth, hasChildren: kids.length > 0, collapsed: isCollapsed, flat: false })
    if (!isCollapsed) for (const k of kids) walk(k, depth + 1)
  }
  for (const r of index.roots) if (visible(r)) walk(r, 0)
  return rows
}
