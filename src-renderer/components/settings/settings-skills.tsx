import { useEffect, useState } from 'react'
import type { CallOutput } from '../../../src-shared'
import { loadSkillsList } from '../../state/settings-actions'
import { useSettings } from '../../state/settings-store'
import type { UiError } from '../../state/ui-error'
import { useWorkspace } from '../../state/workspace-store'
import { ErrorNote } from '../common/error-note'

/**
 * Settings › Skills (issue 27): every Agent Skill found for the open workspace — the person's and the workspace's —
 * with its source file, whether the model is offered it (a workspace's wait for trust), its warnings, and the SKILL.md
 * files that could not be used with their reason. Read-only: skills are folders the person edits.
 */
export function SkillsSection() {
  const root = useWorkspace((s) => s.root)
  const settings = useSettings((s) => s.settings)
  const [list, setList] = useState<CallOutput<'skills.list'> | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  useEffect(() => {
    if (!root) return
    void loadSkillsList(root).then((r) => (r.ok ? (setList(r.data), setError(null)) : setError(r.error)))
  }, [root, settings])

  if (!root) return null
  return (
    <section className="card" data-testid="settings-skills" id="settings-skills">
      <h2>Skills</h2>
      <p className="muted small">
        Folders with a <code>SKILL.md</code> in <code>~/.claude/skills/</code>, the data folder&apos;s <code>skills/</code>, and the workspace&apos;s{' '}
        <code>.agents/skills/</code>, <code>.claude/skills/</code>, <code>.opencode/skill(s)/</code>. The model sees each one&apos;s name and description
        and loads it with the <code>skill</code> tool; allow or deny one by name with a <code>skill</code> rule.
      </p>
      {error && <ErrorNote error={error} />}
      {list && list.errors.length > 0 && (
        <div className="load-errors" data-testid="skill-load-errors">
          <div className="label">SKILL.md files not used</div>
          {list.errors.map((e, i) => (
            <div key={i} className="callout error" data-testid="skill-load-error">
              <code>
                {e.file}
                {e.line ? `:${e.line}` : ''}
              </code>
              <div>{e.reason}</div>
            </div>
          ))}
        </div>
      )}
      {list && list.skills.length === 0 && <p className="muted small">No skills found.</p>}
      {list && list.skills.length > 0 && (
        <table className="table agents-table">
          <thead>
            <tr>
              <th>Skill</th>
              <th>Source</th>
              <th>Offered</th>
            </tr>
          </thead>
          <tbody>
            {list.skills.map((s) => (
              <tr key={s.name} data-testid="settings-skill-row" data-skill={s.name}>
                <td>
                  {s.name}
                  {s.warnings.length > 0 && (
                    <span className="badge waiting" data-testid="skill-warning-count" title={s.warnings.map((w) => `${w.line ? `line ${w.line}: ` : ''}${w.reason}`).join('\n')}>
                      ⚠ {s.warnings.length}
                    </span>
                  )}
                  <div className="muted small">{s.description}</div>
                  {s.warnings.length > 0 && (
                    <ul className="issues small" data-testid="skill-warnings">
                      {s.warnings.map((w, i) => (
                        <li key={i}>
                          {w.line ? <span className="muted">line {w.line}: </span> : null}
                          {w.reason}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="small">
                  {s.source === 'person' ? 'yours' : 'workspace'}
                  <div className="mono muted" title={s.file}>
                    {s.file}
                  </div>
                </td>
                <td className="small" data-testid="skill-offered">
                  {s.offered ? 'yes' : <span className="muted">no: {s.notOffered}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
