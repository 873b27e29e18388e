import fs from 'node:fs'
import path from 'node:path'
import type { CommandProblem, CommandSource } from '../../src-shared'
import { readText } from '../files'
import { BUILTIN_COMMANDS } from './builtins'
import { parseCommandFile, type CommandDef } from './command-file'

export interface CommandSet {
  /** built-ins first, then the person's, then the workspace's (when trusted); a later one replaces an earlier name */
  commands: CommandDef[]
  byName: Map<string, CommandDef>
  errors: CommandProblem[]
  /** every command name found (built-ins too), parsed or not: for the close matches of an unknown name */
  names: string[]
  /** workspace command files left out because the workspace is not trusted */
  untrusted: number
}

/** The command folders of one scope, read in this order (a later folder's command replaces an earlier one's). */
export function commandFolders(o: { home: string; dataDir: string; workdir: string }): { dir: string; source: Exclude<CommandSource, 'builtin'> }[] {
  return [
    { dir: path.join(o.home, '.claude', 'commands'), source: 'person' },
    { dir: path.join(o.home, '.config', 'opencode', 'command'), source: 'person' },
    { dir: path.join(o.home, '.config', 'opencode', 'commands'), source: 'person' },
    { dir: path.join(o.dataDir, 'commands'), source: 'person' },
    { dir: path.join(o.workdir, '.claude', 'commands'), source: 'workspace' },
    { dir: path.join(o.workdir, '.opencode', 'command'), source: 'workspace' },
    { dir: path.join(o.workdir, '.opencode', 'commands'), source: 'workspace' },
    { dir: path.join(o.workdir, '.agents', 'commands'), source: 'workspace' },
  ]
}

/**
 * Every command for a workspace. Workspace files are commands only once the person trusts the workspace: a cloned
 * repository's command could otherwise put any text (and `!` shell lines) into a prompt the person did not write.
 * Read on each call (an edit applies to the next prompt without a restart); a file unchanged since it was last parsed
 * in this process (path, size, mtime) is not parsed again. `only`: the one command a prompt calls — the other files
 * are listed by name (for the close matches) but not read, so a cold `agentry run "/name"` parses one file.
 */
export function discoverCommands(o: { home: string; dataDir: string; workdir: string; trusted: boolean; only?: string }): CommandSet {
  const byName = new Map<string, CommandDef>(BUILTIN_COMMANDS.map((c) => [c.name, c]))
  const names = new Set(byName.keys())
  const errors: CommandProblem[] = []
  let untrusted = 0
  for (const { dir, source } of commandFolders(o)) {
    const files = markdownFiles(dir)
    if (source === 'workspace' && !o.trusted) {
      untrusted += files.length
      continue
    }
    for (const rel of files) {
      const file = path.join(dir, rel)
      const name = rel.replace(/\.md$/i, '').split(path.sep).join(':')
      names.add(name)
      if (o.only !== undefined && name !== o.only) continue
      const parsed = parseCached(file, name, source)
      if ('error' in parsed) {
        errors.push(parsed.error)
        continue
      }
      const builtin = byName.get(name)?.source === 'builtin'
      if (builtin) {
        // A built-in is an action of Agentry (a new session, the model picker); a file cannot take its name.
        errors.push({ file, field: 'name', reason: `/${name} is a built-in command; rename the file to use it` })
        continue
      }
      byName.set(name, parsed.command)
    }
  }
  return { commands: [...byName.values()], byName, errors, names: [...names], untrusted }
}

const parsedFiles = new Map<string, { stamp: string; result: ReturnType<typeof parseCommandFile> }>()

/** A command file parsed, or the parse of it this process already made while its size and mtime are the same. */
function parseCached(file: string, name: string, source: Exclude<CommandSource, 'builtin'>): ReturnType<typeof parseCommandFile> {
  let stamp: string | undefined
  try {
    const st = fs.statSync(file)
    stamp = `${name}\0${source}\0${st.size}\0${st.mtimeMs}`
  } catch {
    stamp = undefined
  }
  const hit = stamp ? parsedFiles.get(file) : undefined
  if (hit && hit.stamp === stamp) return hit.result
  const read = readText(file)
  if (read.kind !== 'text') return { error: { file, reason: read.kind === 'missing' ? 'the file disappeared while it was read' : `cannot read the file (${read.reason})` } }
  const result = parseCommandFile({ name, file, source, text: read.text })
  if (stamp) parsedFiles.set(file, { stamp, result })
  return result
}

/** `**\/*.md` under a folder, relative paths in a stable order; a missing folder is none. */
function markdownFiles(dir: string): string[] {
  let entries: string[]
  try {
    entries = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
  } catch {
    return []
  }
  return entries.filter((e) => /\.md$/i.test(e) && !e.split(path.sep).some((p) => p.startsWith('.'))).sort()
}

/** Names close to `name` (a typo, a missing namespace): for the unknown-command error. */
export function closeMatches(name: string, names: string[]): string[] {
  const lower = name.toLowerCase()
  const scored = names
    .map((n) => {
      const l = n.toLowerCase()
      const tail = l.split(':').pop() ?? l
      const score = l.includes(lower) || lower.includes(tail) ? 0 : Math.min(distance(lower, l), distance(lower, tail))
      return { n, score }
    })
    .filter((s) => s.score <= Math.max(2, Math.floor(name.length / 3)))
  return scored.sort((a, b) => a.score - b.score || a.n.localeCompare(b.n)).slice(0, 5).map((s) => s.n)
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return row[b.length]
}
