import { useCallback } from 'react'
import { agentColor, useAgents } from '../../state/agents-store'
import { openSession } from '../../state/session-actions'
import { useSessions } from '../../state/sessions-store'
import { readTaskCard } from '../../state/part-data'
import { useRunMap } from '../../state/run-map-store'
import { useTranscript, type TranscriptStoreState } from '../../state/transcript-store'
import { toggleChangesPanel } from '../../state/changes-actions'
import { toggleRunMap } from '../../state/run-map-actions'
import { useUi } from '../../state/ui-store'
import { showTasks, useDrawer, useNarrow } from '../../state/drawer-store'
import { RedoBar } from '../changes/redo-bar'
import { ErrorNote } from '../common/error-note'
import { MessageView } from './message-view'
import { statusLabel } from '../../state/session-status'
import { RetryNotice } from './retry-notice'
import { SessionStats } from './session-stats'
import { TranscriptList } from './transcript-list'

const EMPTY: string[] = []

/** The open session: breadcrumb, header, and the virtualized message list. */
export function TranscriptView() {
  const viewId = useTranscript((s) => s.viewId)
  const fetched = useTranscript((s) => s.viewSession)
  // The sidebar's copy is kept current by session_updated events (title, usage); the fetched one is the fallback.
  const listed = useSessions((s) => (viewId ? s.byId[viewId] : undefined))
  const session = listed ?? fetched
  const ancestors = useTranscript((s) => s.ancestors)
  const loading = useTranscript((s) => s.loading)
  const loadError = useTranscript((s) => s.loadError)
  const messageIds = useTranscript((s) => (viewId ? s.transcripts[viewId]?.messageIds : undefined))
  const status = useTranscript((s) => (viewId ? s.transcripts[viewId]?.status : null))
  // "aborted" of a conversation is the person's Stop (or the host's): grey "stopped". A child's is so only when its
  // card says the person stopped it (its parent may have failed instead).
  const parentId = ancestors.at(-1)?.id
  const stoppedChild = useTranscript((s) => status === 'aborted' && viewId !== null && parentId !== undefined && childStoppedByUser(s, parentId, viewId))
  const stoppedInMap = useRunMap((s) => (viewId ? s.nodes[viewId]?.stoppedByUser === true : false))
  const stopped = status === 'aborted' && (ancestors.length === 0 || stoppedChild || stoppedInMap)
  const info = useAgents((s) => (session ? s.byName[session.agent] : undefined))
  const rootId = useTranscript((s) => s.rootId)
  const taskCount = useTranscript((s) => Object.keys(s.tasks).length)
  const tasksClosed = useUi((s) => s.tasksClosedFor !== null && s.tasksClosedFor === rootId)
  // In a narrow window the side panel is a drawer: on screen only while it is open (state/drawer-store).
  const narrow = useNarrow()
  const panelOnScreen = useDrawer((s) => !narrow || s.open === 'panel')
  const changesOpen = useUi((s) => s.changesOpen) && panelOnScreen
  const runMapOpen = useUi((s) => s.runMapOpen) && panelOnScreen

  const keys = messageIds ?? EMPTY
  const render = useCallback((key: string) => (viewId ? <MessageView sessionId={viewId} messageId={key} /> : null), [viewId])

  if (!viewId) return null
  return (
    <div className="transcript-pane">
      <div className="transcript-head" data-testid="transcript-head">
        {ancestors.length > 0 && (
          <nav className="breadcrumb" data-testid="breadcrumb" aria-label="Parent sessions">
            {ancestors.map((a) => (
              <span key={a.id} className="crumb">
                <button className="link-btn" data-testid="breadcrumb-link" onClick={() => void openSession(a.id)}>
                  {a.title || a.agent}
                </button>
                <span className="sep" aria-hidden>›</span>
              </span>
            ))}
            <span className="crumb current">{session?.title ?? '…'}</span>
          </nav>
        )}
        <div className="title-row">
          {session && <span className="agent-dot lg" style={{ background: agentColor(session.agent, info) }} />}
          <h1 className="session-heading" data-testid="session-heading">{session?.title || (loading ? 'Loading…' : 'Untitled')}</h1>
          {session && <span className="muted nowrap">{session.agent}</span>}
          <span className="spacer" />
          {status && (
            <span className={`pill status-${stopped ? 'stopped' : status}`} data-testid="session-status" data-status={stopped ? 'stopped' : status}>
              {statusLabel(stopped ? 'stopped' : status)}
            </span>
          )}
          {session && <SessionStats session={session} />}
          {(tasksClosed || changesOpen || runMapOpen || narrow) && taskCount > 0 && (
            <button className="btn small" data-testid="tasks-reopen" onClick={showTasks}>
              Tasks ({taskCount})
            </button>
          )}
          <button className="btn small" data-testid="run-map-toggle" aria-pressed={runMapOpen} title="Every agent this conversation started, live: status, time and spend; open one, message a running one, stop a branch" onClick={() => toggleRunMap()}>
            Map
          </button>
          <button className="btn small" data-testid="changes-toggle" aria-pressed={changesOpen} title="What each turn changed in the workspace: diffs, who changed them, revert and undo" onClick={() => toggleChangesPanel()}>
            Changes
          </button>
        </div>
      </div>
      {loadError && <ErrorNote error={loadError} testId="session-load-error" />}
      <TranscriptList key={viewId} sessionId={viewId} keys={keys} render={render} />
      <RetryNotice sessionId={viewId} />
      <RedoBar sessionId={viewId} />
    </div>
  )
}

/** The card of child `childId` in its parent's transcript (when loaded) says the person stopped it. */
function childStoppedByUser(s: TranscriptStoreState, parentId: string, childId: string): boolean {
  const t = s.transcripts[parentId]
  if (!t) return false
  for (let i = t.messageIds.length - 1; i >= 0; i--) {
    for (const p of t.messages.get(t.messageIds[i])?.parts ?? []) {
      const card = p.type === 'tool-task' ? readTaskCard(p) : undefined
      if (card?.taskId === childId) return card.stoppedByUser === true
    }
  }
  return false
}
