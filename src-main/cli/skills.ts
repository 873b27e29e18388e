import path from 'node:path'
import type { SkillsListing } from '../../src-shared'
import type { ParsedArgs } from './args'
import { refuseExtraArguments, withHost } from './list-commands'
import type { CliIO } from './run'

/**
 * `agentry skills`: every Agent Skill found for the workspace — name, whether the model is offered it, source and file,
 * description, warnings — then the SKILL.md files that could not be used, each with its reason (what Settings › Skills
 * shows, through the same call). `--json`: one object per line (`skill`, `folder`, `error`).
 */
export async function skillsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  refuseExtraArguments('skills', args.positionals)
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  const listed = await withHost(args, io, workdir, (api) => api.calls['skills.list']({ workspaceRoot: workdir }))
  if (args.values.json) {
    for (const s of listed.skills) io.stdout.write(`${JSON.stringify({ type: 'skill', ...s })}\n`)
    for (const f of listed.folders) io.stdout.write(`${JSON.stringify({ type: 'folder', ...f })}\n`)
    for (const e of listed.errors) io.stdout.write(`${JSON.stringify({ type: 'error', ...e })}\n`)
    return 0
  }
  io.stdout.write(skillsText(listed))
  return 0
}

export function skillsText({ skills, errors, folders }: SkillsListing): string {
  const rel = (file: string) => path.relative(process.cwd(), file) || file
  const out: string[] = []
  if (skills.length === 0) out.push(`No skills. Put a folder with a SKILL.md in ${folders.length ? 'one of the skill folders' : '~/.claude/skills/ or the workspace\'s .claude/skills/'} (see README, "Skills").`)
  const width = Math.max(4, ...skills.map((s) => s.name.length))
  for (const s of skills) {
    const state = s.offered ? '' : `  (not offered: ${s.notOffered})`
    out.push(`${s.name.padEnd(width)}  ${s.source.padEnd(9)}  ${rel(s.file)}${state}`, `    ${s.description.replace(/\s+/g, ' ')}`)
    for (const w of s.warnings) out.push(`    ⚠ ${w.line ? `line ${w.line}: ` : ''}${w.reason}`)
  }
  if (errors.length) {
    out.push('', `${errors.length} SKILL.md file(s) not used:`)
    for (const e of errors) out.push(`  ✗ ${rel(e.file)}${e.line ? `:${e.line}` : ''}: ${e.reason}`)
  }
  return `${out.join('\n')}\n`
}
