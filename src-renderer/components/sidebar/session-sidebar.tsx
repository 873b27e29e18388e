import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { AgentMode } from '../../../src-shared'
import { useNow } from '../../lib/use-now'
import { useAgents } from '../../state/agents-store'
import { useApprovals, waitingCounts } from '../../state/approvals-store'
import { buildRows, indexSessions, setFilters, toggleCollapsed, useSessions } from '../../state/sessions-store'
import { openSession, newSession } from '../../state/session-actions'
import { useTranscript } from '../../state/transcript-store'
import { ErrorNote } from '../common/error-note'
import { InboxEntry } from '../inbox/inbox-entry'
import { sidebarEmptyState } from '../../state/search-view'
import { MessageHits, useMessageSearch } from './message-hits'
import { SessionRowView } from './session-row'

const ROW_HEIGHT = 46

/** The session picker: newest first, filters, archived toggle, children nested under parents, virtualized. */
export function SessionSidebar() {
  const byId = useSessions((s) => s.byId)
  const filters = useSessions((s) => s.filters)
  const expanded = useSessions((s) => s.expanded)
  const listError = useSessions((s) => s.listError)
  const agents = useAgents((s) => s.agents)
  const agentsByName = useAgents((s) => s.byName)
  const pending = useApprovals((s) => s.pending)
  const viewId = useTranscript((s) => s.viewId)
  const [search, setSearch] = useState(filters.search)
  const now = useNow(true, 60_000)

  const index = useMemo(() => indexSessions(byId), [byId])
  const rows = useMemo(() => buildRows(index, filters, agentsByName, expanded, viewId), [index, filters, agentsByName, expanded, viewId])
  const waiting = useMemo(() => waitingCounts(pending), [pending])
  const messageSearch = useMessageSearch(search, filters.archived)
  const hits = messageSearch.hits
  const empty = sidebarEmptyState({
    sessions: index.all.length,
    rows: rows.length,
    query: search,
    // A failed message search (its error is shown) says nothing about messages: judge the titles alone.
    messageSearch: hits === 'off' || messageSearch.error ? 'off' : hits === null ? 'pending' : hits.length,
  })
  // Both kinds of results on screen: say which list is which.
  const titlesLabel = Array.isArray(hits) && hits.length > 0 && rows.length > 0
  // Hidden agents (title, summary, compaction) never own a session a person looks for.
  const agentNames = useMemo(
    () => [...new Set([...agents.map((a) => a.name), ...index.all.map((s) => s.agent)])].filter((n) => !agentsByName[n]?.hidden).sort(),
    [agents, agentsByName, index],
  )

  return (
    <aside className="sidebar" data-testid="session-sidebar" aria-label="Sessions">
      <div className="sidebar-head">
        <InboxEntry />
        <button className="btn primary block" data-testid="new-session" onClick={() => newSession()}>
          + New session
        </button>
        <input
          className="input search"
          type="search"
          aria-label="Search sessions and messages"
          placeholder="Search titles and messages"
          data-testid="session-search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value)
            setFilters({ search: e.target.value })
          }}
        />
        <div className="filter-row">
          <select
            className="select"
            aria-label="Filter by agent"
            data-testid="filter-agent"
            value={filters.agent}
            onChange={(e) => setFilters({ agent: e.target.value })}
          >
            <option value="">All agents</option>
            {agentNames.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <select
            className="select"
            aria-label="Filter by agent mode"
            data-testid="filter-mode"
            value={filters.mode}
            onChange={(e) => setFilters({ mode: e.target.value as AgentMode | '' })}
          >
            <option value="">Any kind</option>
            <option value="primary">Main agents</option>
            <option value="subagent">Subagents</option>
            <option value="all">Main or sub</option>
          </select>
        </div>
        <label className="check">
          <input
            type="checkbox"
            data-testid="filter-archived"
            checked={filters.archived}
            onChange={(e) => setFilters({ archived: e.target.checked })}
          />
          Show archived
        </label>
      </div>
      {listError && <ErrorNote error={listError} />}
      <MessageHits search={messageSearch} />
      {titlesLabel && (
        <div className="popover-label sidebar-group-label" data-testid="titles-label">
          In titles
        </div>
      )}
      <SessionTree rows={rows} viewId={viewId} waiting={waiting} now={now} />
      {empty && (
        <div className="sidebar-empty muted" data-testid={empty.testId} role="status">
          {empty.text}
        </div>
      )}
    </aside>
  )
}

type TreeProps = { rows: ReturnType<typeof buildRows>; viewId: string | null; waiting: Record<string, number>; now: number }

/** The rows as an ARIA tree: one Tab stop, arrows move, Enter opens, ←/→ fold, F2 renames. */
function SessionTree({ rows, viewId, waiting, now }: TreeProps) {
  const byId = useSessions((s) => s.byId)
  const agentsByName = useAgents((s) => s.byName)
  const scroller = useRef<HTMLDivElement>(null)
  const [focusId, setFocusId] = useState<string | null>(null)
  const [editing, setEditing] = useState<string | null>(null)
  const keyboardMove = useRef(false)
  const indexOf = useMemo(() => new Map(rows.map((r, i) => [r.id, i])), [rows])
  // The Tab stop: the row last moved to, else the open session, else the first row.
  const current = focusId !== null && indexOf.has(focusId) ? focusId : viewId !== null && indexOf.has(viewId) ? viewId : (rows[0]?.id ?? null)
  const currentIndex = current === null ? -1 : (indexOf.get(current) ?? -1)
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => rows[i].id,
    overscan: 6,
    // The Tab stop is always in the page, even scrolled far away: otherwise Tab landed on the list itself, where the
    // arrows only scrolled. Focusing it scrolls it into view.
    rangeExtractor: (range) => {
      const shown = defaultRangeExtractor(range)
      return currentIndex < 0 || shown.includes(currentIndex) ? shown : [...shown, currentIndex].sort((a, b) => a - b)
    },
  })

  useEffect(() => {
    if (!keyboardMove.current || current === null) return
    keyboardMove.current = false
    scroller.current?.querySelector<HTMLElement>(`[data-session-id="${CSS.escape(current)}"]`)?.focus()
  }, [current])

  const moveTo = (i: number) => {
    const r = rows[Math.max(0, Math.min(rows.length - 1, i))]
    if (!r) return
    keyboardMove.current = true
    v.scrollToIndex(indexOf.get(r.id) ?? 0, { align: 'auto' })
    setFocusId(r.id)
  }

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (editing || current === null || (e.target as HTMLElement).getAttribute('role') !== 'treeitem') return
    const i = indexOf.get(current) ?? 0
    const row = rows[i]
    const s = byId[current]
    const handled = () => e.preventDefault()
    switch (e.key) {
      case 'ArrowDown':
        handled()
        return moveTo(i + 1)
      case 'ArrowUp':
        handled()
        return moveTo(i - 1)
      case 'Home':
        handled()
        return moveTo(0)
      case 'End':
        handled()
        return moveTo(rows.length - 1)
      case 'Enter':
      case ' ':
        handled()
        return void openSession(current)
      case 'ArrowRight':
        handled()
        if (row.hasChildren && row.collapsed) toggleCollapsed(row.id)
        else if (row.hasChildren) moveTo(i + 1)
        return
      case 'ArrowLeft':
        handled()
        if (row.hasChildren && !row.collapsed) toggleCollapsed(row.id)
        else if (s?.parentId && indexOf.has(s.parentId)) moveTo(indexOf.get(s.parentId) ?? 0)
        return
      case 'F2':
        handled()
        setEditing(current)
        return
    }
  }

  const items = v.getVirtualItems()
  if (rows.length === 0) return null
  return (
    <div
      ref={scroller}
      className="vlist session-list"
      data-testid="session-list"
      role="tree"
      aria-label="Sessions in this folder"
      onKeyDown={onKey}
      onFocus={(e) => {
        const id = (e.target as HTMLElement).dataset.sessionId
        if (id && id !== focusId) setFocusId(id)
      }}
    >
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rows[item.index]
          const s = byId[row.id]
          if (!s) return null
          return (
            <div key={item.key} className="vrow" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}>
              <SessionRowView
                session={s}
                depth={row.depth}
                hasChildren={row.hasChildren}
                collapsed={row.collapsed}
                active={row.id === viewId}
                current={row.id === current}
                waiting={waiting[row.id] ?? 0}
                parentTitle={row.flat && s.parentId ? (byId[s.parentId]?.title ?? null) : null}
                agent={agentsByName[s.agent]}
                now={now}
                editing={editing === row.id}
                setEditing={setEditing}
              />
            </div>
          )
        })}
      </div>
    </div>
  )
}
