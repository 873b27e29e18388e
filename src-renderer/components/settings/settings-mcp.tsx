import { useCallback, useEffect, useState } from 'react'
import type { CallOutput, McpAction, McpServerInfo } from '../../../src-shared'
import { controlMcpServer, loadMcpServers } from '../../state/settings-actions'
import { useSettings } from '../../state/settings-store'
import type { UiError } from '../../state/ui-error'
import { useWorkspace } from '../../state/workspace-store'
import { ErrorNote } from '../common/error-note'

/** Servers start, crash and restart while runs go on: the list is re-read this often while Settings is open. */
const POLL_MS = 3000

const STATUS: Record<McpServerInfo['status'], { label: string; pill: string }> = {
  running: { label: 'running', pill: 'ok' },
  idle: { label: 'not started (starts when a run needs it)', pill: '' },
  starting: { label: 'starting', pill: 'status-running' },
  stopped: { label: 'stopped', pill: '' },
  error: { label: 'error', pill: 'err' },
  invalid: { label: 'invalid definition', pill: 'err' },
  needs_trust: { label: 'needs trust', pill: 'warn' },
  disabled: { label: 'disabled', pill: '' },
}

/**
 * The open workspace's MCP servers: status, tools, where each is configured, the last error (with the server's
 * stderr), and Start / Stop / Restart. A workspace's own servers wait for trust (the section above).
 */
export function McpSection() {
  const root = useWorkspace((s) => s.root)
  const settings = useSettings((s) => s.settings)
  const [list, setList] = useState<CallOutput<'mcp.list'> | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  const [busy, setBusy] = useState<string | null>(null)

  const load = useCallback(async () => {
    if (!root) return
    const r = await loadMcpServers(root)
    if (r.ok) setList(r.data)
    else setError(r.error)
  }, [root])
  useEffect(() => {
    void load()
    const timer = setInterval(() => void load(), POLL_MS)
    return () => clearInterval(timer)
  }, [load, settings])

  const control = async (name: string, action: McpAction) => {
    if (!root) return
    setBusy(name)
    setError(null)
    const failed = await controlMcpServer(root, name, action)
    if (failed) setError(failed)
    setBusy(null)
    await load()
  }

  if (!root) return null
  return (
    <section className="card" data-testid="settings-mcp">
      <h2>MCP servers</h2>
      <p className="muted small">
        From <code>mcp:</code> in your config.yaml, the workspace's <code>.mcp.json</code> and <code>.agents/config.yaml</code>. Their tools are
        called <code>mcp__server__tool</code> and ask first unless your rules say otherwise.
      </p>
      {list && list.servers.length === 0 && <div className="muted small" data-testid="mcp-none">No MCP servers are configured for this workspace.</div>}
      {list?.servers.map((s) => <ServerRow key={s.name} server={s} busy={busy === s.name} onAction={(a) => void control(s.name, a)} />)}
      {list && list.problems.length > 0 && (
        <ul className="issues" data-testid="mcp-problems">
          {list.problems.map((p, i) => (
            <li key={i}>
              <code>{p.file}</code>
              {p.path ? ` › ${p.path}` : ''}: {p.reason}
            </li>
          ))}
        </ul>
      )}
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}

function ServerRow({ server: s, busy, onAction }: { server: McpServerInfo; busy: boolean; onAction(a: McpAction): void }) {
  const status = STATUS[s.status]
  const controllable = !['needs_trust', 'invalid', 'disabled'].includes(s.status)
  const where = s.source.scope === 'agent' ? `agent ${s.source.agent} (${s.source.file})` : s.source.file
  return (
    <div className="mcp-server" data-testid="mcp-server" data-name={s.name} data-status={s.status}>
      <div className="card-head">
        <div>
          <strong>{s.name}</strong>{' '}
          <span className={`pill ${status.pill}`} data-testid="mcp-status">
            {status.label}
          </span>{' '}
          <span className="muted small">
            {s.transport} · {s.tools.length} tool{s.tools.length === 1 ? '' : 's'}
            {s.resources ? ` · ${s.resources.length} resources` : ''}
            {s.prompts ? ` · ${s.prompts.length} prompts` : ''}
            {s.restarts ? ` · restarted ${s.restarts}×` : ''}
          </span>
        </div>
        {controllable && (
          <div className="row">
            {s.status !== 'running' && (
              <button className="btn" data-testid="mcp-start" disabled={busy} onClick={() => onAction('start')}>
                Start
              </button>
            )}
            {s.status === 'running' && (
              <button className="btn" data-testid="mcp-restart" disabled={busy} onClick={() => onAction('restart')}>
                Restart
              </button>
            )}
            {(s.status === 'running' || s.status === 'error' || s.status === 'idle') && (
              <button className="btn ghost" data-testid="mcp-stop" disabled={busy} onClick={() => onAction('stop')}>
                Stop
              </button>
            )}
          </div>
        )}
      </div>
      <div className="mono small mcp-target">{s.target}</div>
      <div className="muted small">
        configured in <code>{where}</code>
        {s.logFile && (
          <>
            {' '}
            · log <code>{s.logFile}</code>
          </>
        )}
      </div>
      {s.status === 'needs_trust' && <div className="muted small">Trust this workspace (Workspace trust, above) to start it.</div>}
      {s.lastError && (
        <pre className="callout error mcp-error" data-testid="mcp-error">
          {s.lastError}
        </pre>
      )}
      {s.problems.length > 0 && (
        <ul className="issues small" data-testid="mcp-notes">
          {s.problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
      {s.tools.length > 0 && (
        <details data-testid="mcp-tools">
          <summary className="small">Tools</summary>
          <ul className="mcp-tool-list">
            {s.tools.map((t) => (
              <li key={t.name} className="small" data-testid="mcp-tool">
                <code>{t.name}</code> <span className="muted">{t.description.split('\n')[0]}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  )
}
