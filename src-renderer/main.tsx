import { createRoot } from 'react-dom/client'
import { App } from './app'
import { connectToHost } from './bridge'
import { setBridge } from './state/bridge'
import { setNotificationOpener } from './state/browser-notifications'
import { openConversation } from './state/inbox-actions'
import { notify } from './state/ui-store'
import { useConnection } from './state/connection-store'
import { boot, openWorkspace, refreshApprovals, refreshSessions } from './state/workspace-actions'
import { newSession, openSession, reloadView } from './state/session-actions'
import { applyTheme } from './state/theme'
import './styles/app.css'
import './styles/changes.css'
import './styles/narrow.css'

function start(): void {
  applyTheme()
  try {
    const { client, transport, onAppCommand } = connectToHost()
    setBridge(client)
    useConnection.setState({ transport, state: client.state })
    // The desktop shell's File › Open Folder… lands here.
    onAppCommand((cmd) => {
      if (cmd.type === 'workspace-opened') void openWorkspace(cmd.root).then((ok) => ok && newSession())
      // A desktop notification was clicked: its conversation, in whichever workspace it lives.
      else if (cmd.type === 'open-session') void openConversation(cmd.sessionId).then((e) => e && notify(e))
    })
    // A browser notification was clicked (daemon mode): the same.
    setNotificationOpener((sessionId, root) => void openConversation(sessionId, root).then((e) => e && notify(e)))
    let wasDown = false
    client.onConnectionChange((state) => {
      useConnection.setState({ state })
      if (state !== 'open' && state !== 'connecting') wasDown = true
      // Back after a drop: the host may have restarted and cleaned up orphans; show its view of things.
      if (state === 'open' && wasDown) {
        wasDown = false
        void Promise.all([refreshSessions(), refreshApprovals(), reloadView()])
      }
    })
  } catch (err) {
    useConnection.setState({ fatal: err instanceof Error ? err.message : String(err) })
  }
  const el = document.getElementById('root')
  if (!el) throw new Error('index.html must contain <div id="root">')
  createRoot(el).render(<App />)
  if (useConnection.getState().fatal) return
  const initial = /^#\/s\/(.+)$/.exec(location.hash)?.[1]
  void boot().then(() => {
    if (initial) void openSession(decodeURIComponent(initial))
  })
}

start()
