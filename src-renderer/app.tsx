import { useEffect } from 'react'
import { ApprovalDialog } from './components/approval-dialog'
import { Composer } from './components/composer'
import { FirstRun } from './components/first-run'
import { Notices } from './components/notices'
import { SessionSidebar } from './components/session-sidebar'
import { SettingsView } from './components/settings-view'
import { TasksPanel } from './components/tasks-panel'
import { TranscriptView } from './components/transcript-view'
import { WorkspaceBar } from './components/workspace-bar'
import { useConnection } from './state/connection-store'
import { useTranscript } from './state/transcript-store'
import { useUi } from './state/ui-store'

export function App() {
  const screen = useUi((s) => s.screen)
  const viewId = useTranscript((s) => s.viewId)
  const fatal = useConnection((s) => s.fatal)

  useEffect(() => {
    // Ask for notification permission on the first interaction (browsers ignore requests without one).
    const ask = () => {
      if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission()
    }
    window.addEventListener('pointerdown', ask, { once: true })
    return () => window.removeEventListener('pointerdown', ask)
  }, [])

  if (fatal) {
    return (
      <div className="fatal" data-testid="fatal">
        <h1>Agentry cannot reach its host</h1>
        <p>{fatal}</p>
        <p className="muted">Start it with <code>npm run serve</code> and open the URL it prints (it contains the access token).</p>
      </div>
    )
  }

  return (
    <div className="app">
      <WorkspaceBar />
      <div className="app-body">
        <SessionSidebar />
        <main className="main">
          {screen === 'settings' ? (
            <SettingsView />
          ) : (
            <div className="chat">
              <div className="chat-main">
                {viewId ? <TranscriptView /> : <FirstRun />}
                <Composer autoFocus />
              </div>
              {viewId && <TasksPanel />}
            </div>
          )}
        </main>
      </div>
      <ApprovalDialog />
      <Notices />
    </div>
  )
}
