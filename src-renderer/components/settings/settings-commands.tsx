import type { CommandEntry } from '../../../src-shared'
import { loadCommandsList } from '../../state/settings-actions'
import { ListingSection, LoadErrors, SourceCell, useWorkspaceListing, WarningCount, WarningList } from './workspace-listing'

/**
 * Settings › Commands (issue 27): every slash command a prompt in the open workspace can use — Agentry's built-ins,
 * the person's, the workspace's once trusted — with its argument hint, description, source file, the agent, model and
 * subtask it sets, its warnings; the command files that could not be loaded with their reason, and how many of the
 * workspace's wait for trust. Read-only: commands are files the person edits.
 */
export function CommandsSection() {
  const { root, list, error } = useWorkspaceListing(loadCommandsList)
  if (!root) return null
  return (
    <ListingSection
      id="settings-commands"
      title="Commands"
      error={error}
      intro={
        <>
          Markdown files in <code>~/.claude/commands/</code>, <code>~/.config/opencode/command(s)/</code>, the data folder&apos;s <code>commands/</code>, and
          the workspace&apos;s <code>.claude/commands/</code>, <code>.opencode/command(s)/</code>, <code>.agents/commands/</code>; a subfolder makes{' '}
          <code>folder:name</code>. Type <code>/name arguments</code> at the start of a prompt, here or in an editor; a later folder&apos;s command replaces an
          earlier one of the same name. Every skill is a command too (<code>/skill-name arguments</code>), unless a command file has its name.
        </>
      }
    >
      {list && list.untrusted > 0 && (
        <div className="callout warn small" data-testid="commands-untrusted">
          {list.untrusted === 1 ? '1 workspace command file is' : `${list.untrusted} workspace command files are`} not offered until you trust the
          workspace (see Trust above).
        </div>
      )}
      {list && <LoadErrors label="Command files not loaded" testId="command-load-errors" itemTestId="command-load-error" errors={list.errors} />}
      {list && (
        <table className="table agents-table">
          <thead>
            <tr>
              <th>Command</th>
              <th>Source</th>
              <th>Runs with</th>
            </tr>
          </thead>
          <tbody>
            {list.commands.map((c) => (
              <tr key={c.name} data-testid="settings-command-row" data-command={c.name}>
                <td>
                  <span className="mono">/{c.name}</span>
                  {c.argumentHint && <span className="muted mono"> {c.argumentHint}</span>}
                  <WarningCount warnings={c.warnings} testId="command-warning-count" />
                  <div className="muted small">{c.description}</div>
                  <WarningList warnings={c.warnings} testId="command-warnings" />
                </td>
                <SourceCell source={c.source} file={c.file} />
                <td className="small" data-testid="command-runs-with">
                  <RunsWith command={c} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListingSection>
  )
}

/** The agent, model and subtask a command's file sets; what the prompt would use otherwise when it sets none. */
function RunsWith({ command: c }: { command: CommandEntry }) {
  if (!c.agent && !c.model && !c.subtask) return <span className="muted">{c.source === 'builtin' ? '—' : 'the session’s agent and model'}</span>
  return (
    <>
      {c.agent && <div>agent {c.agent}</div>}
      {c.model && (
        <div>
          model <span className="mono">{c.model}</span>
        </div>
      )}
      {c.subtask && <div>as a subtask</div>}
    </>
  )
}
