import { useEffect, useState } from 'react'
import type { CallOutput } from '../../../src-shared'
import { loadHooksList } from '../../state/settings-actions'
import { useSettings } from '../../state/settings-store'
import type { UiError } from '../../state/ui-error'
import { useWorkspace } from '../../state/workspace-store'
import { ErrorNote } from '../common/error-note'

/**
 * Settings › Hooks (issue 27): every Claude Code hook read for the open workspace — event, matcher, command, timeout
 * and the file it came from; a workspace's wait for trust — and each part of a configuration that could not be used.
 * Read-only: hooks live in the person's settings files.
 */
export function HooksSection() {
  const root = useWorkspace((s) => s.root)
  const settings = useSettings((s) => s.settings)
  const [list, setList] = useState<CallOutput<'hooks.list'> | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  useEffect(() => {
    if (!root) return
    void loadHooksList(root).then((r) => (r.ok ? (setList(r.data), setError(null)) : setError(r.error)))
  }, [root, settings])

  if (!root) return null
  return (
    <section className="card" data-testid="settings-hooks" id="settings-hooks">
      <h2>Hooks</h2>
      <p className="muted small">
        Claude Code hooks from <code>~/.claude/settings.json</code>, <code>hooks:</code> in your <code>config.yaml</code>, and — once you trust the
        workspace — its <code>.claude/settings.json</code>, <code>.claude/settings.local.json</code> and <code>.agents/config.yaml</code>. They run in the
        sandbox with the workspace as their folder. A hook can block a call or ask you; it never allows what your rules deny or ask.
      </p>
      {error && <ErrorNote error={error} />}
      {list && list.problems.length > 0 && (
        <div className="load-errors" data-testid="hook-problems">
          <div className="label">Not used</div>
          {list.problems.map((p, i) => (
            <div key={i} className="callout error" data-testid="hook-problem">
              <code>
                {p.file}
                {p.path ? ` › ${p.path}` : ''}
              </code>
              <div>{p.reason}</div>
            </div>
          ))}
        </div>
      )}
      {list && list.hooks.length === 0 && <p className="muted small">No hooks configured.</p>}
      {list && list.hooks.length > 0 && (
        <table className="table agents-table">
          <thead>
            <tr>
              <th>Event</th>
              <th>Matcher</th>
              <th>Command</th>
              <th>Source</th>
            </tr>
          </thead>
          <tbody>
            {list.hooks.map((h, i) => (
              <tr key={i} data-testid="settings-hook-row" data-event={h.event} className={h.active ? undefined : 'muted'}>
                <td className="small">{h.event}</td>
                <td className="small mono">{h.matcher || <span className="muted">all</span>}</td>
                <td className="small">
                  <code>{h.command}</code>
                  <div className="muted small">timeout {h.timeoutSeconds} s</div>
                </td>
                <td className="small">
                  <div className="mono muted" title={h.source}>
                    {h.source}
                  </div>
                  {!h.active && <span className="badge waiting">waits for trust</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
