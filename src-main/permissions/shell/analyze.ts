import os from 'node:os'
import { shellParser } from './grammar'
import { SyntaxTooDeep } from './syntax'
import { ShellWalker, type ShellCommand, type ShellWrite } from './walk'

export type { ShellCommand, ShellWrite } from './walk'

/** What a bash line would run and write, as far as it can be known without running it. */
export interface ShellAnalysis {
  /** every command that would execute, wrappers peeled off (`sudo rm x` → `sudo rm x` and `rm x`) */
  commands: ShellCommand[]
  /**
   * Why the line cannot be judged statically (a command name computed at run time, `eval "$x"`, `${v@P}`,
   * `git -c core.pager=…`, a syntax error, …). Non-empty means the line asks, whatever the rules say.
   */
  mustAsk: string[]
  /** files the line writes through redirects, `tee`, `dd of=`; relative to each of `dirs` */
  writes: ShellWrite[]
  /** folders a relative write may land in: `.` (the workspace) plus every `cd` target the line names */
  dirs: string[]
}

/** Longer lines are not parsed; they ask. */
export const MAX_LINE_CHARS = 64 * 1024
/** More folder combinations than this (from many `cd`s) and the line asks. */
const MAX_DIRS = 16
const CACHE_SIZE = 256
const cache = new Map<string, ShellAnalysis>()

/**
 * Parses `line` with tree-sitter-bash and walks it: every command in pipelines, lists, subshells, groups,
 * functions, case arms, loop and if bodies, command and process substitutions (in words, assignments and
 * redirect targets) and backticks; here-documents are data unless a shell reads them. Wrappers are unwrapped
 * (see unwrap.ts) and names normalized (`'rm'`, `r\m`, `/bin/rm`, `$'\x72m'` → `rm`). Results are cached by line:
 * the bash tool and the permission check both ask for the same line (`cached: false` measures a fresh parse).
 */
export function analyzeShell(line: string, o: { cached?: boolean } = {}): ShellAnalysis {
  if (o.cached === false) return analyzeUncached(line)
  const hit = cache.get(line)
  if (hit) {
    cache.delete(line)
    cache.set(line, hit)
    return hit
  }
  const result = analyzeUncached(line)
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  cache.set(line, result)
  return result
}

function analyzeUncached(line: string): ShellAnalysis {
  const asking = (reason: string): ShellAnalysis => ({ commands: [], mustAsk: [reason], writes: [], dirs: ['.'] })
  if (line.length > MAX_LINE_CHARS) return asking(`the line is longer than ${MAX_LINE_CHARS} characters`)
  if (line.includes('\0')) return asking('the line contains a NUL character')
  const state = shellParser()
  if (!state.ok) return asking(state.reason)
  const walker = new ShellWalker(state.parser, os.homedir())
  try {
    walker.run(line)
  } catch (err) {
    if (err instanceof SyntaxTooDeep) return asking(err.message)
    throw err
  }
  const mustAsk = [...walker.mustAsk]
  const dirs = ['.']
  for (const target of walker.cdTargets) {
    for (const d of [...dirs]) {
      const joined = target.startsWith('/') ? target : d === '.' ? target : `${d}/${target}`
      if (!dirs.includes(joined)) dirs.push(joined)
    }
  }
  const relativeWrite = walker.writes.some((w) => !w.target.startsWith('/'))
  if (relativeWrite && walker.cdUnknown) mustAsk.push('the line changes to a folder known only at run time and then writes to a relative path')
  if (dirs.length > MAX_DIRS) mustAsk.push(`the line changes folders too often to tell where it writes`)
  return { commands: dedupe(walker.commands), mustAsk, writes: walker.writes, dirs: dirs.slice(0, MAX_DIRS) }
}

function dedupe(commands: ShellCommand[]): ShellCommand[] {
  const seen = new Set<string>()
  return commands.filter((c) => {
    const key = `${c.withEnv ?? ''}\u0000${c.text}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The strings rules are matched against: each command, and its form with leading assignments. */
export function commandSubjects(a: ShellAnalysis): string[] {
  return [...new Set(a.commands.flatMap((c) => (c.withEnv ? [c.withEnv, c.text] : [c.text])))]
}
