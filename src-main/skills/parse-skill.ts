import { z } from 'zod'
import type { SkillProblem } from '../../src-shared'
import { readFrontmatter } from '../config'

/** What a SKILL.md says, before its place (source, folder) is known. */
export interface ParsedSkill {
  name: string
  description: string
  allowedTools: string[]
  license?: string
  /** `disable-model-invocation: true`: the person invokes it, the model is not offered it */
  modelInvocable: boolean
  body: string
  warnings: SkillProblem[]
}

export type SkillParse = { ok: true; skill: ParsedSkill } | { ok: false; error: SkillProblem }

/** The Agent Skills format's name: lowercase letters, digits and hyphens (agentskills.io); other names still load. */
const SPEC_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/
/** What a name may be at all here: it is the `skill` tool's argument and a permission pattern's subject. */
const USABLE_NAME = /^[A-Za-z0-9][\w.:-]{0,99}$/
const MAX_DESCRIPTION = 1024

const Fields = z.object({
  name: z.string().trim().min(1).optional(),
  description: z.string().trim().min(1, 'is empty; say what the skill does and when to use it'),
  // `allowed-tools: Read, Grep` (Claude Code's comma list) or a YAML list
  'allowed-tools': z.union([z.string(), z.array(z.string())]).optional(),
  license: z.string().optional(),
  'disable-model-invocation': z.boolean().optional(),
})

/**
 * One SKILL.md: its frontmatter read leniently (config's readFrontmatter: an unquoted `: ` loads with a warning), then
 * checked with zod. `folderName` is the skill's folder: the name when the file gives none, and what the format says the
 * name must equal. A missing or empty description fails — the model could never know when to use the skill; other
 * departures from the format load with a warning. Unknown keys (`metadata`, `version`, …) are kept by the author and
 * ignored here without a word: the format allows them.
 */
export function parseSkill(text: string, file: string, folderName: string): SkillParse {
  const fm = readFrontmatter(text)
  if (!fm.ok) return { ok: false, error: { file, line: fm.line, reason: fm.reason } }
  const warnings: SkillProblem[] = fm.warnings.map((w) => ({ file, line: w.line, field: w.field, reason: w.reason }))
  const value = fm.value ?? {}
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: { file, line: 1, reason: 'the frontmatter is not a mapping of key: value lines' } }
  const parsed = Fields.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = String(issue.path[0] ?? 'frontmatter')
    const missing = issue.code === 'invalid_type' && (value as Record<string, unknown>)[field] === undefined
    const reason = missing ? `${field} is missing (required: it tells the model when to use the skill)` : `${field}: ${issue.message}`
    return { ok: false, error: { file, line: fm.keyLines[field] ?? 1, field, reason } }
  }
  const f = parsed.data
  const line = (k: string) => fm.keyLines[k]
  let name = f.name ?? folderName
  if (!f.name) warnings.push({ file, line: 1, field: 'name', reason: `no name: the folder's name "${folderName}" is used` })
  if (!USABLE_NAME.test(name)) {
    const slug = folderName
    if (!USABLE_NAME.test(slug)) return { ok: false, error: { file, line: line('name'), field: 'name', reason: `"${name}" cannot be a skill name: use lowercase letters, digits and hyphens` } }
    warnings.push({ file, line: line('name'), field: 'name', reason: `"${name}" is not a usable name (lowercase letters, digits, hyphens); the folder's name "${slug}" is used` })
    name = slug
  } else if (!SPEC_NAME.test(name)) {
    warnings.push({ file, line: line('name'), field: 'name', reason: `"${name}" is not in the Agent Skills form (lowercase letters, digits and hyphens); it still loads` })
  }
  let description = f.description
  if (description.length > MAX_DESCRIPTION) {
    warnings.push({ file, line: line('description'), field: 'description', reason: `longer than ${MAX_DESCRIPTION} characters; the model sees the first ${MAX_DESCRIPTION}` })
    description = `${description.slice(0, MAX_DESCRIPTION - 1)}…`
  }
  // Claude Code's `context: fork` runs the skill as a subagent of its own (`agent:` picks which). Not here: it loads
  // into the agent that calls it, which still follows it — said, so the author knows why it is not a subagent.
  const raw = value as Record<string, unknown>
  if (raw.context === 'fork') warnings.push({ file, line: line('context'), field: 'context', reason: 'fork is not run as a subagent here: the skill loads into the agent that calls it (to run it apart, write a subagent that preloads it with skills:)' })
  const tools = f['allowed-tools']
  const allowedTools = (typeof tools === 'string' ? tools.split(/[,\s]+(?![^(]*\))/) : (tools ?? [])).map((t) => t.trim()).filter(Boolean)
  return {
    ok: true,
    skill: { name, description, allowedTools, license: f.license, modelInvocable: f['disable-model-invocation'] !== true, body: fm.body, warnings },
  }
}
