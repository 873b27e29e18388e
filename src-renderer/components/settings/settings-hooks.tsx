import { loadHooksList } from '../../state/settings-actions'
import { ListingSection, LoadErrors, useWorkspaceListing } from './workspace-listing'

/**
 * Settings › Hooks (issue 27): every Claude Code hook read for the open workspace — event, matcher, command, timeout
 * and the file it came from; a workspace's wait for trust — and each part of a configuration that could not be used.
 * Read-only: hooks live in the person's settings files.
 */
export function HooksSection() {
  const { root, list, error } = useWorkspaceListing(loadHooksList)
  if (!root) return null
  return (
    <ListingSection
      id="settings-hooks"
      title="Hooks"
      error={error}
      intro={
        <>
          Claude Code hooks from <code>~/.claude/settings.json</code>, <code>hooks:</code> in your <code>config.yaml</code>, and — once you trust the
          workspace — its <code>.claude/settings.json</code>, <code>.claude/settings.local.json</code> and <code>.agents/config.yaml</code>. They run in the
          sandbox with the workspace as their folder. A hook can block a call or ask you; it never allows what your rules deny or ask.
        </>
      }
    >
      {list && <LoadErrors label="Not used" testId="hook-problems" itemTestId="hook-problem" errors={list.problems} />}
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
    </ListingSection>
  )
}
