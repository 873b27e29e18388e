import { memo, useState } from 'react'
import type { AgentListEntry, SessionSummary } from '../../../src-shared'
import { formatDateTime, formatWhen } from '../../lib/format'
import { agentColor } from '../../state/agents-store'
import { toggleCollapsed } from '../../state/sessions-store'
import { archiveSession, deleteSession, openSession, renameSession } from '../../state/session-actions'
import { notify } from '../../state/ui-store'
import { isRunning } from '../../state/session-status'

type Props = {
  session: SessionSummary
  depth: number
  hasChildren: boolean
  collapsed: boolean
  active: boolean
  /** the row keyboard focus lands on when Tab enters the list (roving tabindex) */
  current: boolean
  waiting: number
  parentTitle: string | null
  agent: AgentListEntry | undefined
  now: number
  editing: boolean
  /** stable across renders (the row is memoized): start or stop renaming a row */
  setEditing: (id: string | null) => void
}


/** One session in the sidebar tree: title, agent colour, badges, time; click or Enter opens it. */
export const SessionRowView = memo(function SessionRowView({ session: s, depth, hasChildren, collapsed, active, current, waiting, parentTitle, agent, now, editing, setEditing }: Props) {
  const [busy, setBusy] = useState(false)
  const running = isRunning(s.status)
  const report = (e: Awaited<ReturnType<typeof archiveSession>>) => e && notify(e)
  const inner = current ? 0 : -1

  return (
    <div
      className={`session-row ${active ? 'active' : ''} ${s.archivedAt ? 'archived' : ''}`}
      style={{ paddingLeft: 8 + depth * 16 }}
      role="treeitem"
      aria-level={depth + 1}
      aria-selected={active}
      aria-expanded={hasChildren ? !collapsed : undefined}
      tabIndex={current ? 0 : -1}
      data-testid="session-row"
      data-session-id={s.id}
      data-agent={s.agent}
      data-status={s.status}
      data-depth={depth}
      onClick={() => !editing && void openSession(s.id)}
      onDoubleClick={() => setEditing(s.id)}
      title={parentTitle ? `${s.title} (child of ${parentTitle})` : s.title}
    >
      {hasChildren ? (
        <button
          className="tree-toggle"
          tabIndex={-1}
          data-testid="session-toggle"
          aria-label={collapsed ? 'Show its subagents' : 'Hide its subagents'}
          title={collapsed ? 'Show its subagents' : 'Hide its subagents'}
          onClick={(e) => {
            e.stopPropagation()
            toggleCollapsed(s.id)
          }}
        >
          {collapsed ? '▸' : '▾'}
        </button>
      ) : (
        <span className="tree-toggle placeholder" />
      )}
      <span className="agent-dot" style={{ background: agentColor(s.agent, agent) }} />
      <span className="session-text">
        {editing ? (
          <input
            className="input rename"
            aria-label="New title"
            autoFocus
            defaultValue={s.title}
            onClick={(e) => e.stopPropagation()}
            onBlur={() => setEditing(null)}
            onKeyDown={async (e) => {
              e.stopPropagation()
              if (e.key === 'Escape') setEditing(null)
              if (e.key === 'Enter') {
                const v = e.currentTarget.value.trim()
                setEditing(null)
                if (v && v !== s.title) report(await renameSession(s.id, v))
              }
            }}
          />
        ) : (
          <span className="session-title" data-testid="session-title">
            {s.title || 'Untitled'}
          </span>
        )}
        <span className="session-meta">
          <span className="session-agent">{s.agent}</span>
          {parentTitle && <span className="session-parent"> · in {parentTitle}</span>}
          {' · '}
          <time className="session-time" data-testid="session-time" dateTime={new Date(s.createdAt).toISOString()} title={`Started ${formatDateTime(s.createdAt)}`}>
            {formatWhen(s.createdAt, now)}
          </time>
        </span>
      </span>
      <span className="badges">
        {waiting > 0 && (
          <span className="badge waiting" data-testid="badge-waiting" title={`${waiting} approval(s) waiting`}>
            ⚑ {waiting}
          </span>
        )}
        {s.queued > 0 && (
          <span className="badge queued" data-testid="badge-queued" title="Messages queued">
            {s.queued} queued
          </span>
        )}
        {running && (
          <span className="badge running" data-testid="badge-running" title="Running">
            <span className="spinner" role="img" aria-label="running" />
          </span>
        )}
        {s.status === 'error' && <span className="badge error" data-testid="badge-error">error</span>}
      </span>
      <span className="row-actions">
        <button
          className="icon-btn"
          tabIndex={inner}
          disabled={busy}
          title={s.archivedAt ? 'Unarchive' : 'Archive'}
          onClick={async (e) => {
            e.stopPropagation()
            setBusy(true)
            report(await archiveSession(s.id, s.archivedAt === null))
            setBusy(false)
          }}
        >
          {s.archivedAt ? 'Unarchive' : 'Archive'}
        </button>
        <button
          className="icon-btn"
          tabIndex={inner}
          title="Delete"
          aria-label="Delete"
          onClick={async (e) => {
            e.stopPropagation()
            if (confirm(`Delete "${s.title}" and its child sessions? This cannot be undone.`)) report(await deleteSession(s.id))
          }}
        >
          ×
        </button>
      </span>
    </div>
  )
})
