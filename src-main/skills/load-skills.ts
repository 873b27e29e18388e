import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { SkillEntry, SkillProblem, SkillSource, SkillsListing } from '../../src-shared'
import { isMissing, readText } from '../files'
import { parseSkill } from './parse-skill'
import { SkillCache, skillCacheFor } from './skill-cache'

export const SKILL_FILE = 'SKILL.md'

/** A loaded skill: what the listing shows (the `skill` tool reads its body from the file when it loads it). */
export type Skill = SkillEntry

export interface LoadedSkills extends Omit<SkillsListing, 'skills'> {
  skills: Skill[]
}

export interface SkillFolder {
  dir: string
  source: SkillSource
}

/**
 * Where skills are found, in precedence order. The person's first — Agentry's data dir, then Claude Code's
 * `~/.claude/skills` (`HOME` is respected) — then the workspace's `.agents/skills`, `.claude/skills`, `.opencode/skill`,
 * `.opencode/skills`. On a name found twice the first wins and the other is listed as shadowed: a cloned workspace can
 * never replace the person's own skill of that name with instructions of its own (Claude Code's order too).
 */
export function skillFolders(o: { dataDir: string; workdir?: string; home?: string }): SkillFolder[] {
  const home = o.home ?? process.env.HOME ?? os.homedir()
  const person = [path.join(o.dataDir, 'skills'), path.join(home, '.claude', 'skills')]
  const ws = o.workdir ? ['.agents/skills', '.claude/skills', '.opencode/skill', '.opencode/skills'].map((p) => path.join(o.workdir as string, p)) : []
  return [...person.map((dir) => ({ dir, source: 'person' as const })), ...ws.map((dir) => ({ dir, source: 'workspace' as const }))]
}

/**
 * Every skill of the person and the workspace. `trusted`: whether the workspace's skills may be offered to the model;
 * untrusted ones are still listed (with why they are not offered), so the person sees what trusting would bring.
 */
export function loadSkills(o: { dataDir: string; workdir?: string; home?: string; trusted: boolean }): LoadedSkills {
  const skills: Skill[] = []
  const errors: SkillProblem[] = []
  const folders: SkillFolder[] = []
  const byName = new Map<string, Skill>()
  const realWorkdir = o.workdir ? realOr(o.workdir) : undefined
  const cache = skillCacheFor(o.dataDir)
  for (const folder of skillFolders(o)) {
    const names = subfolders(folder.dir, errors)
    if (!names) continue
    folders.push(folder)
    // Real paths by one realpath per folder and one lstat per skill: discovery runs before every prompt (issue 27's
    // bench: 500 skills in well under 50 ms), and only a link needs resolving.
    const realFolder = realOr(folder.dir)
    for (const { name: entry, link } of names) {
      const file = path.join(folder.dir, entry, SKILL_FILE)
      const realDir = link ? realOr(path.join(folder.dir, entry)) : path.join(realFolder, entry)
      const skill = loadOne(file, realDir, entry, folder.source, realWorkdir, errors, cache)
      if (!skill) continue
      const first = byName.get(skill.name)
      if (first) {
        first.warnings.push({ file, reason: `another skill named "${skill.name}" (${file}) is not used: this one comes first` })
        errors.push({ file, field: 'name', reason: `shadowed: a skill named "${skill.name}" is already loaded from ${first.file}` })
        continue
      }
      if (folder.source === 'workspace' && !o.trusted) Object.assign(skill, { offered: false, notOffered: 'the workspace is not trusted (agentry trust)' })
      byName.set(skill.name, skill)
      skills.push(skill)
    }
  }
  cache.flush()
  return { skills, errors, folders }
}

function loadOne(file: string, dir: string, folderName: string, source: SkillSource, realWorkdir: string | undefined, errors: SkillProblem[], cache: SkillCache): Skill | undefined {
  let stat: fs.Stats | undefined
  let realFile = path.join(dir, SKILL_FILE)
  try {
    stat = fs.lstatSync(realFile, { throwIfNoEntry: false })
    if (stat?.isSymbolicLink()) {
      realFile = realOr(realFile)
      stat = fs.statSync(realFile, { throwIfNoEntry: false })
    }
  } catch (err) {
    errors.push({ file, reason: `cannot be read: ${(err as Error).message}` })
    return undefined
  }
  // A folder without SKILL.md is not a skill (a plain folder of files beside others).
  if (!stat) return undefined
  // The file tools may read a skill's folder wherever it is: a workspace's skill must therefore really be in the
  // workspace, or a link (`.claude/skills/x -> /`) would open the whole disk to reading.
  if (source === 'workspace' && realWorkdir && !(within(realWorkdir, dir) && within(realWorkdir, realFile))) {
    errors.push({ file, reason: `links to ${within(realWorkdir, dir) ? realFile : dir}, outside the workspace; a workspace's skill must be inside it` })
    return undefined
  }
  const key = SkillCache.keyOf(stat, folderName)
  let parsed = cache.get(file, key)
  if (!parsed) {
    const read = readText(file)
    if (read.kind !== 'text') {
      if (read.kind === 'unreadable') errors.push({ file, reason: `cannot be read: ${read.reason}` })
      return undefined
    }
    const fresh = parseSkill(read.text, file, folderName)
    cache.set(file, key, fresh)
    parsed = fresh
  }
  if (!parsed.ok) {
    errors.push(parsed.error)
    return undefined
  }
  const s = parsed.skill
  return {
    name: s.name,
    description: s.description,
    source,
    file,
    dir,
    allowedTools: s.allowedTools,
    ...(s.license ? { license: s.license } : {}),
    offered: s.modelInvocable,
    ...(s.modelInvocable ? {} : { notOffered: 'disable-model-invocation: true (the person invokes it, the model does not)' }),
    // A copy: the listing adds shadowing notes to a skill's warnings, never to the cached entry.
    warnings: [...s.warnings],
  }
}

/** The folders of a skills folder (and links, which may be folders), sorted; undefined when the folder does not exist. */
function subfolders(dir: string, errors: SkillProblem[]): { name: string; link: boolean }[] | undefined {
  try {
    const entries = fs.readdirSync(dir, { withFileTypes: true })
    // A link to a folder is a skill too (people link skills in from a clone); its target is checked in loadOne.
    return entries
      .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()))
      .map((e) => ({ name: e.name, link: e.isSymbolicLink() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch (err) {
    if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined
    errors.push({ file: dir, reason: `cannot be read: ${(err as Error).message}` })
    return undefined
  }
}

function realOr(p: string): string {
  try {
    return fs.realpathSync.native(p)
  } catch {
    return path.resolve(p)
  }
}

export function within(root: string, p: string): boolean {
  const rel = path.relative(root, p)
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel))
}
