import { useMemo, useState } from 'react'
import type { AgentMode } from '../../src-shared'
import { useAgents } from '../state/agents-store'
import { useApprovals } from '../state/approvals-store'
import { buildRows, indexSessions, setFilters, useSessions } from '../state/sessions-store'
import { newSession } from '../state/session-actions'
import { useTranscript } from '../state/transcript-store'
import { ErrorNote } from './error-note'
import { SessionRowView } from './session-row'
import { VirtualList } from './virtual-list'

const ROW_HEIGHT = 34

/** The session picker: newest first, filters, archived toggle, children nested under parents, virtualized. */
export function SessionSidebar() {
  const byId = useSessions((s) => s.byId)
  const filters = useSessions((s) => s.filters)
  const collapsed = useSessions((s) => s.collapsed)
  const listError = useSessions((s) => s.listError)
  const agents = useAgents((s) => s.agents)
  const agentsByName = useAgents((s) => s.byName)
  const pending = useApprovals((s) => s.pending)
  const viewId = useTranscript((s) => s.viewId)
  const [search, setSearch] = useState(filters.search)

  const index = useMemo(() => indexSessions(byId), [byId])
  const rows = useMemo(() => buildRows(index, filters, agentsByName, collapsed), [index, filters, agentsByName, collapsed])
  const rowById = useMemo(() => new Map(rows.map((r) => [r.id, r])), [rows])
  const keys = useMemo(() => rows.map((r) => r.id), [rows])
  const waiting = useMemo(() => {
    const counts: Record<string, number> = {}
    for (const a of Object.values(pending)) {
      counts[a.rootSessionId] = (counts[a.rootSessionId] ?? 0) + 1
      if (a.sessionId !== a.rootSessionId) counts[a.sessionId] = (counts[a.sessionId] ?? 0) + 1
    }
    return counts
  }, [pending])
  const agentNames = useMemo(() => [...new Set([...agents.map((a) => a.name), ...index.all.map((s) => s.agent)])].sort(), [agents, index])

  return (
    <aside className="sidebar" data-testid="session-sidebar">
      <div className="sidebar-head">
        <button className="btn primary block" data-testid="new-session" onClick={() => newSession()}>
          + New session
        </button>
        <input
          className="input search"
          type="search"
          placeholder="Search titles"
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
            <option value="">Any mode</option>
            <option value="primary">primary</option>
            <option value="subagent">subagent</option>
            <option value="all">all</option>
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
      <VirtualList
        keys={keys}
        estimate={ROW_HEIGHT}
        overscan={ROW_HEIGHT * 6}
        className="session-list"
        testId="session-list"
        render={(id) => {
          const row = rowById.get(id)
          const s = byId[id]
          if (!row || !s) return null
          return (
            <SessionRowView
              session={s}
              row={row}
              active={id === viewId}
              waiting={waiting[id] ?? 0}
              parentTitle={row.flat && s.parentId ? byId[s.parentId]?.title ?? null : null}
              agent={agentsByName[s.agent]}
            />
          )
        }}
      />
      {keys.length === 0 && (
        <div className="sidebar-empty muted" data-testid="session-list-empty">
          {index.all.length === 0 ? 'No sessions yet in this folder.' : 'No session matches these filters.'}
        </div>
      )}
    </aside>
  )
}
