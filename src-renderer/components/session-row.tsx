import { memo, useState } from 'react'
import type { AgentInfo, SessionSummary } from '../../src-shared'
import { agentColor } from '../state/agents-store'
import type { SessionRow } from '../state/sessions-store'
import { toggleCollapsed } from '../state/sessions-store'
import { archiveSession, deleteSession, openSession, renameSession } from '../state/session-actions'
import { notify } from '../state/ui-store'

type Props = {
  session: SessionSummary
  row: SessionRow
  active: boolean
  waiting: number
  parentTitle: string | null
  agent: AgentInfo | undefined
}

export const SessionRowView = memo(function SessionRowView({ session: s, row, active, waiting, parentTitle, agent }: Props) {
  const [editing, setEditing] = useState(false)
  const running = s.status === 'busy' || s.status === 'retrying' || s.status === 'waiting_on_approval' || s.status === 'waiting_on_user'
  const report = (e: Awaited<ReturnType<typeof archiveSession>>) => e && notify(e)

  return (
    <div
      className={`session-row ${active ? 'active' : ''} ${s.archivedAt ? 'archived' : ''}`}
      style={{ paddingLeft: 8 + row.depth * 16 }}
      data-testid="session-row"
      data-session-id={s.id}
      data-agent={s.agent}
      data-status={s.status}
      data-depth={row.depth}
      onClick={() => !editing && void openSession(s.id)}
      onDoubleClick={() => setEditing(true)}
      title={parentTitle ? `${s.title} (child of ${parentTitle})` : s.title}
    >
      {row.hasChildren ? (
        <button
          className="tree-toggle"
          data-testid="session-toggle"
          aria-label={row.collapsed ? 'Expand' : 'Collapse'}
          onClick={(e) => {
            e.stopPropagation()
            toggleCollapsed(s.id)
          }}
        >
          {row.collapsed ? '▸' : '▾'}
        </button>
      ) : (
        <span className="tree-toggle placeholder" />
      )}
      <span className="agent-dot" style={{ background: agentColor(s.agent, agent) }} title={s.agent} />
      {editing ? (
        <input
          className="input rename"
          autoFocus
          defaultValue={s.title}
          onClick={(e) => e.stopPropagation()}
          onBlur={() => setEditing(false)}
          onKeyDown={async (e) => {
            if (e.key === 'Escape') setEditing(false)
            if (e.key === 'Enter') {
              const v = e.currentTarget.value.trim()
              setEditing(false)
              if (v && v !== s.title) report(await renameSession(s.id, v))
            }
          }}
        />
      ) : (
        <span className="session-title" data-testid="session-title">
          {s.title || 'Untitled'}
          {parentTitle && <span className="muted small"> ↳ {parentTitle}</span>}
        </span>
      )}
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
        {running && <span className="badge running" data-testid="badge-running" title="Running"><span className="spinner" /></span>}
        {s.status === 'error' && <span className="badge error" data-testid="badge-error">error</span>}
      </span>
      <span className="row-actions">
        <button
          className="icon-btn"
          title={s.archivedAt ? 'Unarchive' : 'Archive'}
          aria-label={s.archivedAt ? 'Unarchive' : 'Archive'}
          onClick={async (e) => {
            e.stopPropagation()
            report(await archiveSession(s.id, s.archivedAt === null))
          }}
        >
          {s.archivedAt ? 'Unarchive' : 'Archive'}
        </button>
        <button
          className="icon-btn"
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
