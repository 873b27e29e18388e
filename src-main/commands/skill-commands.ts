import type { SkillEntry } from '../../src-shared'
import { readFrontmatter } from '../config'
import { readText } from '../files'
import type { CommandDef } from './command-file'
import type { CommandSet } from './discover'

/**
 * Skills are slash commands too, as in Claude Code: `/pdf fill form.pdf` puts the skill's instructions (and its folder,
 * for the files beside it) into the prompt, with the arguments as `$ARGUMENTS` or an `ARGUMENTS:` line. A skill with
 * `disable-model-invocation: true` is meant exactly for this: the person invokes it, the model is never offered it.
 * A command file of the same name keeps it (it was written as a command); a built-in always does. A workspace's skills
 * need trust here as everywhere. The body is read only for `only` (the one command a prompt calls): the listing and
 * the composer's completion need the name and description, which discovery already has.
 */
export function withSkillCommands(set: CommandSet, skills: SkillEntry[], o: { trusted: boolean; only?: string }): CommandSet {
  const byName = new Map(set.byName)
  const names = new Set(set.names)
  const errors = [...set.errors]
  for (const s of skills) {
    if (s.source === 'workspace' && !o.trusted) continue
    names.add(s.name)
    if (byName.has(s.name)) continue
    if (o.only !== undefined && o.only !== s.name) continue
    const template = o.only === s.name ? skillTemplate(s) : ''
    if (typeof template !== 'string') {
      errors.push({ file: s.file, reason: template.error })
      continue
    }
    const def: CommandDef = { name: s.name, description: s.description, source: 'skill', file: s.file, allowedTools: s.allowedTools, warnings: [], template }
    byName.set(s.name, def)
  }
  return { ...set, commands: [...byName.values()], byName, errors, names: [...names] }
}

function skillTemplate(s: SkillEntry): string | { error: string } {
  const read = readText(s.file)
  if (read.kind !== 'text') return { error: read.kind === 'missing' ? 'the SKILL.md file is gone; reload the list' : `cannot be read: ${read.reason}` }
  const fm = readFrontmatter(read.text)
  if (!fm.ok) return { error: `${fm.line}: ${fm.reason}` }
  return `Use the skill "${s.name}" for this. Its folder is ${s.dir} (read the files beside SKILL.md there with read_file).\n\n${fm.body.trim()}`
}
