import { loadSkillsList } from '../../state/settings-actions'
import { ListingSection, LoadErrors, SourceCell, useWorkspaceListing, WarningCount, WarningList } from './workspace-listing'

/**
 * Settings › Skills (issue 27): every Agent Skill found for the open workspace — the person's and the workspace's —
 * with its source file, whether the model is offered it (a workspace's wait for trust), its warnings, and the SKILL.md
 * files that could not be used with their reason. Read-only: skills are folders the person edits.
 */
export function SkillsSection() {
  const { root, list, error } = useWorkspaceListing(loadSkillsList)
  if (!root) return null
  return (
    <ListingSection
      id="settings-skills"
      title="Skills"
      error={error}
      intro={
        <>
          Folders with a <code>SKILL.md</code> in <code>~/.claude/skills/</code>, the data folder&apos;s <code>skills/</code>, and the workspace&apos;s{' '}
          <code>.agents/skills/</code>, <code>.claude/skills/</code>, <code>.opencode/skill(s)/</code>. The model sees each one&apos;s name and description
          and loads it with the <code>skill</code> tool; allow or deny one by name with a <code>skill</code> rule.
        </>
      }
    >
      {list && <LoadErrors label="SKILL.md files not used" testId="skill-load-errors" itemTestId="skill-load-error" errors={list.errors} />}
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
                  <WarningCount warnings={s.warnings} testId="skill-warning-count" />
                  <div className="muted small">{s.description}</div>
                  <WarningList warnings={s.warnings} testId="skill-warnings" />
                </td>
                <SourceCell source={s.source} file={s.file} />
                <td className="small" data-testid="skill-offered">
                  {s.offered ? 'yes' : <span className="muted">no: {s.notOffered}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListingSection>
  )
}
