import { useState } from 'react'
import type { CallOutput, StaticRuleRow } from '../../../src-shared'
import { revokeRule } from '../../state/settings-actions'
import { useSettings } from '../../state/settings-store'
import type { UiError } from '../../state/ui-error'
import { ErrorNote } from '../common/error-note'
import { GrantTable } from '../approvals/grant-table'
import { CopyButton } from '../common/copy-button'

type Settings = CallOutput<'settings.get'>

const ACTION_PILL: Record<StaticRuleRow['action'], string> = { allow: 'ok', ask: 'warn', deny: 'err' }

/**
 * Settings › Permissions: the rules of the person's and the workspace's permissions.jsonc as tables (edited in the
 * files), and the "Always allow" grants in force — the workspace's, and each conversation's, named by its title — with
 * Revoke.
 */
export function RulesSection({ settings }: { settings: Settings }) {
  const [yours, workspace] = settings.permissionsFiles
  return (
    <section className="card" data-testid="settings-rules" aria-labelledby="rules-title">
      <h2 id="rules-title">Permission rules</h2>
      <p className="muted small">
        What agents may do without asking. An agent&apos;s own rules come first, then these files, then your &quot;Always allow&quot; answers; within a file
        the last matching rule wins, and nothing lifts a deny. Edit the files to change these rules: they apply from the next prompt.
      </p>
      {settings.permissionErrors.map((e, i) => (
        <div key={i} className="callout error" data-testid="permission-error">
          <code>{e.file}</code>: {e.reason} — treated as &quot;ask for everything&quot; until fixed.
        </div>
      ))}
      <StaticRules title="Your rules" file={yours} rows={settings.staticRules.filter((r) => r.from === 'yours')} testId="static-rules-yours" />
      {workspace && (
        <StaticRules
          title="This workspace’s rules"
          file={workspace}
          rows={settings.staticRules.filter((r) => r.from === 'workspace')}
          testId="static-rules-workspace"
          note="Until you trust the workspace (Sandbox & trust), its file can only tighten your rules: its allows do not apply."
        />
      )}
    </section>
  )
}

function StaticRules({ title, file, rows, testId, note }: { title: string; file: string; rows: StaticRuleRow[]; testId: string; note?: string }) {
  const untrusted = rows.some((r) => r.tightenOnly)
  return (
    <div className="static-rules" data-testid={testId}>
      <h3 className="rules-file-head">
        {title}
        <span className="rules-file">
          <code title={file}>{file}</code>
          <CopyButton text={() => file} label="Copy the file's path" testId="rules-file-copy" />
        </span>
      </h3>
      {untrusted && note && <p className="muted small">{note}</p>}
      {rows.length === 0 ? (
        <div className="muted small" data-testid="static-rules-empty">
          No rules in this file{file.endsWith('.agents/permissions.jsonc') ? ' (create it to give this workspace rules of its own)' : ''}.
        </div>
      ) : (
        <table className="table rules-table">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Pattern</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-testid="static-rule-row" data-tool={r.tool} data-action={r.action}>
                <td className="mono">{r.tool}</td>
                <td className="mono">{r.pattern}</td>
                <td>
                  <span className={`pill ${ACTION_PILL[r.action]}`}>{r.action}</span>
                  {r.tightenOnly && r.action === 'allow' && <span className="muted small"> not applied</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}

/** The "Always allow" answers in force: this workspace's, and those of its conversations (this session, this run). */
export function GrantsSection() {
  const rules = useSettings((s) => s.rules)
  const [error, setError] = useState<UiError | null>(null)
  const revoke = async (id: string) => {
    const failed = await revokeRule(id)
    if (failed) setError(failed)
  }
  const ordered = [...rules].sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] || a.createdAt - b.createdAt)
  return (
    <section className="card" data-testid="settings-grants" aria-labelledby="grants-title">
      <h2 id="grants-title">Allowed by your answers</h2>
      <p className="muted small">
        What you allowed with &quot;Always allow&quot;: for this workspace, for one conversation, or while an agent runs (gone when it stops). Revoke
        one and the next such call asks again.
      </p>
      {rules.length === 0 ? (
        <div className="muted small" data-testid="rules-empty">
          None yet.
        </div>
      ) : (
        <GrantTable rules={ordered} conversation onRevoke={(id) => void revoke(id)} />
      )}
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}

const SCOPE_ORDER = { workspace: 0, session: 1, run: 2 } as const
