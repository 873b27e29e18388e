import { useState, type FormEvent } from 'react'
import { shortPath } from '../../lib/format'
import { useConnection } from '../../state/connection-store'
import { shortcut } from '../../lib/keys'
import { useUi } from '../../state/ui-store'
import { sessionsShown, toggleSessions, useDrawer, useNarrow } from '../../state/drawer-store'
import { openWorkspace } from '../../state/workspace-actions'
import { useWorkspace } from '../../state/workspace-store'
import { newSession } from '../../state/session-actions'
import { AgentIssuesBadge } from './agent-issues-badge'
import { ErrorNote } from '../common/error-note'
import { FolderField, PickFolderButton } from './folder-field'

const CONN_TEXT: Record<ReturnType<typeof useConnection.getState>['state'], string> = {
  open: 'Connected',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  refused: 'Access token no longer valid',
  closed: 'Disconnected',
}

/** Top bar: the open folder (with recent ones and a path field), connection state, settings. */
export function WorkspaceBar() {
  const root = useWorkspace((s) => s.root)
  const recent = useWorkspace((s) => s.recent)
  const error = useWorkspace((s) => s.error)
  const conn = useConnection((s) => s.state)
  const screen = useUi((s) => s.screen)
  // Narrow: the list is a drawer (closed until asked for); wide: the sidebar, collapsible.
  const shown = sessionsShown(useNarrow(), useDrawer((s) => s.open), useUi((s) => s.sidebarCollapsed))
  const [open, setOpen] = useState(false)
  const [path, setPath] = useState('')

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!path.trim()) return
    if (await openWorkspace(path.trim())) {
      setOpen(false)
      setPath('')
      newSession()
    }
  }

  return (
    <header className="workspace-bar" data-testid="workspace-bar">
      <button
        className="icon-btn sidebar-toggle"
        data-testid="sidebar-toggle"
        aria-label={shown ? 'Hide the session list' : 'Show the session list'}
        aria-expanded={shown}
        title={shown ? 'Hide the session list' : 'Show the session list'}
        onClick={toggleSessions}
      >
        <span aria-hidden>☰</span>
      </button>
      <div className="brand">
        <span className="brand-mark" aria-hidden>◆</span> <span className="brand-name">Agentry</span>
      </div>
      <div className="workspace-menu">
        <button className="workspace-btn" data-testid="workspace-button" title={root ?? ''} onClick={() => setOpen(!open)}>
          <span className="folder-icon" aria-hidden>▣</span>
          <span className="workspace-path" data-testid="workspace-path">{root ? shortPath(root) : 'No folder'}</span>
          <span className="caret" aria-hidden>▾</span>
        </button>
        {open && (
          <div className="popover workspace-popover" data-testid="workspace-popover">
            <form onSubmit={submit} className="row">
              <FolderField value={path} onChange={setPath} onEscape={() => setOpen(false)} />
              <PickFolderButton onPicked={() => setOpen(false)} />
              <button className="btn primary" type="submit">Open folder</button>
            </form>
            {recent.length > 0 && <div className="popover-label">Recent</div>}
            {recent.map((r) => (
              <button
                key={r.root}
                className={`popover-item ${r.root === root ? 'current' : ''}`}
                onClick={async () => {
                  if (await openWorkspace(r.root)) {
                    setOpen(false)
                    newSession()
                  }
                }}
              >
                {r.root}
              </button>
            ))}
            {error && <ErrorNote error={error} onDismiss={() => useWorkspace.setState({ error: null })} />}
          </div>
        )}
      </div>
      <div className="spacer" />
      <AgentIssuesBadge />
      <span className={`conn conn-${conn}`} data-testid="connection-state" title={`Connection: ${conn}`}>
        <span className="dot" />
        <span className="conn-text">{CONN_TEXT[conn]}</span>
      </span>
      <button className="btn ghost palette-btn" data-testid="open-palette" onClick={() => useUi.setState({ paletteOpen: true })} title="Command palette">
        <span className="palette-btn-label">Commands</span> <kbd>{shortcut('K')}</kbd>
      </button>
      <button
        className={`btn ghost ${screen === 'settings' ? 'active' : ''}`}
        data-testid="open-settings"
        onClick={() => useUi.setState({ screen: screen === 'settings' ? 'chat' : 'settings' })}
      >
        <span aria-hidden>⚙</span> Settings
      </button>
    </header>
  )
}
