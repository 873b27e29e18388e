import { skillBody } from '../skills'
import type { RunLevel } from './level'
import { skillsForRun } from './skill-tool'

/**
 * The skills an agent's definition preloads (Claude Code's `skills:` of a subagent file), as a section of its system
 * prompt: each one's instructions and folder, as the skill tool would return them, so the agent starts with them
 * instead of spending a step loading them. Only skills this run may load (offered, not denied by a `skill` rule
 * at any level): a preload never widens what the rules allow. Names that are missing or denied are said in one
 * line, so the agent does not go looking for instructions it was promised. Read when the run's prompt is built.
 */
export function preloadedSkills(level: RunLevel): string | undefined {
  const wanted = level.agent.skills
  if (!wanted?.length) return undefined
  const seen = new Map(skillsForRun(level).map((s) => [s.name, s]))
  const sections: string[] = []
  const missing: string[] = []
  for (const name of wanted) {
    const skill = seen.get(name)
    const read = skill ? skillBody(skill.file) : undefined
    if (!skill || !read?.ok) {
      missing.push(read && !read.ok ? `${name} (${read.reason})` : name)
      continue
    }
    sections.push(`<skill name="${skill.name}">\nFolder: ${skill.dir} (read the files beside SKILL.md with read_file)\n\n${read.body.trim()}\n</skill>`)
  }
  if (missing.length) sections.push(`Not available here, so not loaded: ${missing.join(', ')}.`)
  return `# Skills loaded for you\nFollow these instructions where the task calls for them.\n\n${sections.join('\n\n')}`
}
