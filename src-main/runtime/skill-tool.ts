import path from 'node:path'
import { z } from 'zod'
import { decideRequests, type LayeredRules, type Ruleset } from '../permissions'
import { filesBeside, skillBody, type Skill } from '../skills'
import { defineTool, ToolError, type ToolDef } from '../tools'
import type { RunLevel } from './level'

const visible = new WeakMap<RunLevel, Skill[]>()

/**
 * The skills a run is offered: loaded, offered (trusted workspace, model-invocable), and not denied by a `skill` rule
 * for that name at any level of the chain — a subagent sees the intersection of its rules and its parents'. Only the
 * agent's and the person's (or workspace's) static rules can deny, so the answer holds for the whole run.
 */
export function skillsForRun(level: RunLevel): Skill[] {
  const hit = visible.get(level)
  if (hit) return hit
  const { static: staticRules, workspace } = level.settings.rules
  const chain: LayeredRules[] = level.chain.map((agent, i) => ({ agent, static: staticRules, workspace, runtime: [], agentName: level.agentPath[i] }))
  const offered = (level.settings.skills ?? []).filter((s) => s.offered)
  const decide = (name: string) => decideRequests(chain, [{ tool: 'skill', kind: 'name', subjects: [name] }]).action !== 'deny'
  // When no rule that could apply to `skill` names a pattern other than a catch-all, every name gets the same answer:
  // one decision instead of one per skill (500 skills × every agent a task listing describes was most of a run's start).
  const uniform = chain.every((l) => [...l.agent, ...l.static, ...(l.workspace ?? [])].every((r) => !mayMatchSkill(r.tool) || r.pattern === '*' || r.pattern === '**'))
  const skills = uniform ? (offered.length && decide(offered[0].name) ? offered : []) : offered.filter((s) => decide(s.name))
  visible.set(level, skills)
  return skills
}

/** A rule's tool that is `skill`, or a glob that might match it. */
function mayMatchSkill(tool: string): boolean {
  return tool === 'skill' || /[*?[{]/.test(tool)
}

const READ_TOOLS = ['read_file', 'list_dir', 'glob', 'grep']
const WRITE_TOOLS = ['write_file', 'edit_file']
// A folder whose path has glob characters cannot be named exactly by a pattern: it gets no allowance (safe side).
const GLOB_CHARS = /[*?[\]{}()!+@\\]/

/**
 * The skill folders of a run as runtime rules: the file tools read them without asking, even outside the workspace,
 * and nothing writes there — the write denies come last, so they win over any allow of this layer (a person's "Always
 * allow" included), and the runtime layer is judged before the person's static allows. Like every runtime rule they
 * never lift a deny of the agent's or the person's (an agent without read_file still cannot read them).
 *
 * One pair of patterns per skills folder (`~/.claude/skills`, …) when the run sees every skill in it, else one per
 * skill it sees: rules are read at every permission decision, and 500 skills made 6,000 rules (a quarter of a second
 * added to every run). Made once per run level.
 */
export function skillFolderRules(level: RunLevel): Ruleset {
  const hit = folderRules.get(level)
  if (hit) return hit
  const seen = skillsForRun(level)
  const rules: Ruleset = []
  const reads: string[] = []
  const writes: { dir: string; label: string; file: string }[] = []
  for (const [root, group] of byRoot(level.settings.skills ?? [], seen)) {
    const whole = group.all === group.seen.length && SKILL_ROOT.test(path.basename(root)) && !GLOB_CHARS.test(root)
    const dirs = whole ? [root] : group.seen.filter((s) => !GLOB_CHARS.test(s.dir)).map((s) => s.dir)
    reads.push(...dirs)
    const person = group.seen.filter((s) => s.source === 'person')
    if (whole && person.length === group.seen.length) writes.push({ dir: root, label: `your skills folder ${root} (read-only)`, file: person[0].file })
    else for (const s of person) if (!GLOB_CHARS.test(s.dir)) writes.push({ dir: s.dir, label: `the skill folder of "${s.name}" (read-only)`, file: s.file })
  }
  for (const dir of reads) for (const pattern of [dir, `${dir}/**`]) rules.push(...READ_TOOLS.map((tool) => ({ tool, pattern, action: 'allow' as const })))
  // Labelled, so the model reads why ("denied by the skill folder of …"), not an "always allow" rule it never saw.
  for (const w of writes) {
    const source = { file: w.file, label: w.label }
    for (const pattern of [w.dir, `${w.dir}/**`]) rules.push(...WRITE_TOOLS.map((tool) => ({ tool, pattern, action: 'deny' as const, source })))
  }
  folderRules.set(level, rules)
  return rules
}

const folderRules = new WeakMap<RunLevel, Ruleset>()
/** The folders skills are found in are named so (`skills`, opencode's `skill`); a linked skill's parent is not one. */
const SKILL_ROOT = /^skills?$/

/** Skills grouped by the folder they sit in: how many are loaded there (offered or not), and which this run sees. */
function byRoot(all: Skill[], seen: Skill[]): Map<string, { all: number; seen: Skill[] }> {
  const groups = new Map<string, { all: number; seen: Skill[] }>()
  const group = (dir: string) => {
    const root = path.dirname(dir)
    let g = groups.get(root)
    if (!g) groups.set(root, (g = { all: 0, seen: [] }))
    return g
  }
  for (const s of all) group(s.dir).all++
  for (const s of seen) group(s.dir).seen.push(s)
  return groups
}

const SkillParameters = z.object({ name: z.string().min(1).max(100).describe('The skill\'s name, exactly as listed.') })

/**
 * The `skill` tool: progressive disclosure as the Agent Skills format intends. Its description lists each skill's name
 * and description (what the model needs to decide); a call returns the SKILL.md body, the folder and the files
 * beside it, which the model reads with read_file when the instructions call for them. See docs/prompts.md.
 */
export function skillTool(skills: Skill[]): ToolDef {
  const byName = new Map(skills.map((s) => [s.name, s]))
  const list = skills.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, ' ')}`).join('\n')
  return defineTool({
    name: 'skill',
    description: `Load a skill by name: its instructions, its folder and the files beside them.
When a task matches a skill's description, load it before you start and follow it. Read the files it mentions with read_file (readable, never writable).

Available skills:
${list}`,
    parameters: SkillParameters,
    permission: (input) => ({ kind: 'name', subjects: [input.name] }),
    async validate(input) {
      return byName.has(input.name) ? null : `No skill named "${input.name}". Available: ${[...byName.keys()].join(', ')}.`
    },
    async execute(input) {
      const s = byName.get(input.name)
      if (!s) throw new ToolError(`No skill named "${input.name}".`)
      const read = skillBody(s.file)
      if (!read.ok) throw new ToolError(`The skill "${s.name}" cannot be loaded: ${read.reason}`)
      const { files, more } = filesBeside(s.dir)
      const listing = files.length ? files.map((f) => `- ${f}`).join('\n') + (more ? `\n(… and ${more} more)` : '') : '(none)'
      const output = `<skill name="${s.name}">
Folder: ${s.dir}
Files beside SKILL.md (read them with read_file, e.g. ${s.dir}/${files[0] ?? 'FILE'}):
${listing}

${read.body.trim()}
</skill>`
      return { output, metadata: { skill: s.name, source: s.source, dir: s.dir } }
    },
  })
}
