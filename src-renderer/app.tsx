import { useEffect } from 'react'
import { ApprovalPanel } from './components/approvals/approval-panel'
import { ChangesPanel } from './components/changes/changes-panel'
import { RestoreDialog } from './components/changes/restore-dialog'
import { CommandPalette } from './components/shell/command-palette'
import { Composer } from './components/composer/composer'
import { ConnectionBanner } from './components/shell/connection-banner'
import { FirstRun } from './components/shell/first-run'
import { useInboxTitle } from './components/inbox/inbox-entry'
import { InboxView } from './components/inbox/inbox-view'
import { Drawer } from './components/shell/drawer'
import { Notices } from './components/shell/notices'
import { SessionSidebar } from './components/sidebar/session-sidebar'
import { SettingsView } from './components/settings/settings-view'
import { TasksPanel } from './components/transcript/tasks-panel'
import { RunMapPanel } from './components/run-map/run-map-panel'
import { RunNodeTranscript } from './components/run-map/run-node-transcript'
import { TranscriptView } from './components/transcript/transcript-view'
import { WorkspaceBar } from './components/shell/workspace-bar'
import { isAltN, modKey } from './lib/keys'
import { useConnection } from './state/connection-store'
import { useDrawer, useNarrow, watchDrawers } from './state/drawer-store'
import { useRunMap } from './state/run-map-store'
import { newSession } from './state/session-actions'
import { useTranscript } from './state/transcript-store'
import { focusComposer, useUi } from './state/ui-store'

export function App() {
  const screen = useUi((s) => s.screen)
  const sidebarCollapsed = useUi((s) => s.sidebarCollapsed)
  const viewId = useTranscript((s) => s.viewId)
  const fatal = useConnection((s) => s.fatal)
  const changesOpen = useUi((s) => s.changesOpen)
  const runMapOpen = useUi((s) => s.runMapOpen)
  // An opaque child chosen on the run map has no session of its own: its transcript takes the transcript's place.
  const shownNode = useRunMap((s) => (runMapOpen && s.shown && s.shown.viewId === viewId ? s.shown.id : null))
  // Below the breakpoint the session list and the side panel are drawers over the chat (closed until asked for).
  const narrow = useNarrow()
  const drawer = useDrawer((s) => s.open)
  useEffect(() => watchDrawers(), [])

  // The count of waiting decisions in the window title. Notification permission is asked only from the inbox's
  // (or Settings') "Turn on notifications" button, never on load or on a first click.
  useInboxTitle()

  useEffect(() => {
    // App shortcuts. (A browser tab never gets Ctrl/Cmd+N, so Alt+N starts a session there too.)
    const startNew = (e: KeyboardEvent) => {
      e.preventDefault()
      useUi.setState({ paletteOpen: false })
      newSession()
      requestAnimationFrame(focusComposer)
    }
    const onKey = (e: KeyboardEvent) => {
      if (isAltN(e)) return startNew(e)
      if (!modKey(e) || e.altKey || e.shiftKey) return
      const key = e.key.toLowerCase()
      if (key === 'k') {
        e.preventDefault()
        useUi.setState((s) => ({ paletteOpen: !s.paletteOpen }))
      } else if (key === 'n') startNew(e)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  if (fatal) {
    return (
      <main className="fatal" data-testid="fatal">
        <h1>Agentry cannot reach its host</h1>
        <p>{fatal}</p>
        <p>
          Start it with <code>npm run serve</code> and open the URL it prints (it contains the access token).
        </p>
      </main>
    )
  }

  return (
    <div className="app">
      <WorkspaceBar />
      <ConnectionBanner />
      <div className="app-body">
        {narrow ? (
          drawer === 'sessions' && (
            <Drawer name="sessions" side="left" label="Sessions" returnTo="[data-testid=sidebar-toggle]">
              <SessionSidebar />
            </Drawer>
          )
        ) : (
          !sidebarCollapsed && <SessionSidebar />
        )}
        <main className="main">
          {screen === 'settings' ? (
            <SettingsView />
          ) : screen === 'inbox' ? (
            <InboxView />
          ) : (
            <div className={`chat ${viewId && changesOpen ? 'changes-open' : ''}`}>
              <div className="chat-main">
                {viewId ? shownNode ? <RunNodeTranscript id={shownNode} /> : <TranscriptView /> : <FirstRun />}
                <ApprovalPanel />
                <Composer autoFocus />
              </div>
              {viewId &&
                (!narrow ? (
                  <SidePanel runMapOpen={runMapOpen} changesOpen={changesOpen} />
                ) : (
                  drawer === 'panel' && (
                    <Drawer
                      name="panel"
                      side="right"
                      label={runMapOpen ? 'Run map' : changesOpen ? 'Changes' : 'Background tasks'}
                      returnTo={`[data-testid=${runMapOpen ? 'run-map-toggle' : changesOpen ? 'changes-toggle' : 'tasks-reopen'}], [data-testid=composer-input]`}
                    >
                      <SidePanel runMapOpen={runMapOpen} changesOpen={changesOpen} />
                    </Drawer>
                  )
                ))}
            </div>
          )}
        </main>
      </div>
      <CommandPalette />
      <RestoreDialog />
      <Notices />
    </div>
  )
}

/** Beside the transcript (in its drawer when narrow): the run map, the changes, or the background tasks. */
function SidePanel({ runMapOpen, changesOpen }: { runMapOpen: boolean; changesOpen: boolean }) {
  return runMapOpen ? <RunMapPanel /> : changesOpen ? <ChangesPanel /> : <TasksPanel />
}
