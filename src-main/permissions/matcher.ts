import picomatch from 'picomatch/posix'
import { commandPatternRegExp } from './shell/command-glob'

/** What a rule's pattern is matched against; decides the glob flavour (see `matchSubject`). */
export type SubjectKind = 'path' | 'command' | 'host' | 'name' | 'other'

type Test = (subject: string) => boolean

// `decide` runs on every tool call, so compiled matchers are cached by pattern.
// The cap only guards against an unbounded stream of distinct runtime patterns.
const MAX_CACHED = 5_000
const cache = new Map<string, Test>()

/**
 * The posix build is used on purpose: backslashes in commands and patterns must mean the same on
 * every platform (file subjects are already `/`-separated workspace-relative paths).
 */
function compile(pattern: string): Test {
  const hit = cache.get(pattern)
  if (hit) return hit
  let test: Test
  try {
    test = picomatch(pattern, { dot: true })
  } catch (err) {
    // picomatch only throws for pathological patterns (e.g. over its length limit). Falling back
    // to exact equality keeps such a rule meaningful instead of silently dropping it.
    if (!(err instanceof Error)) throw err
    test = (subject) => subject === pattern
  }
  if (cache.size >= MAX_CACHED) cache.clear()
  cache.set(pattern, test)
  return test
}

/** Tool keys are globs over tool names ("*" = every tool). */
export function matchTool(pattern: string, tool: string): boolean {
  if (pattern === '*') return true
  return compile(pattern)(tool)
}

/** Absolute on POSIX, or a Windows drive path, in case a caller passes one through. */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)
}

/** `./src/a.ts` and `src/a.ts` must match the same rules. */
export function normalizePathSubject(p: string): string {
  let out = p
  while (out.startsWith('./')) out = out.slice(2)
  return out
}

function basename(p: string): string {
  const trimmed = p.endsWith('/') ? p.slice(0, -1) : p
  const i = trimmed.lastIndexOf('/')
  return i === -1 ? trimmed : trimmed.slice(i + 1)
}

/**
 * Can a NON-absolute deny rule still reach a path outside the workspace? Catch-alls (`*`, `**`),
 * name-only patterns (`*.env` on the basename) and patterns led by a globstar segment do, so a
 * tool an agent denies stays denied everywhere; workspace-anchored patterns like `src/**` never
 * do. Only deny rules may use this (see evaluateRuleset): relative allow/ask rules must never
 * open a way out.
 */
export function matchOutsideForDeny(pattern: string, subject: string): boolean {
  if (pattern === '*' || pattern === '**') return true
  if (!pattern.includes('/')) return compile(pattern)(basename(subject))
  if (pattern.startsWith('**/')) return compile(pattern)(subject.replace(/^\/+/, ''))
  return false
}

/**
 * Does `pattern` match `subject` of this kind?
 * - path: `*` is a catch-all for workspace paths; a pattern without `/` also matches the basename.
 *   Subjects outside the workspace (absolute) are matched ONLY by absolute patterns, so no
 *   catch-all ever lets a tool leave the workspace.
 * - command: `*` spans any text (see shell/command-glob.ts); a pattern ending in ` *` also matches the bare
 *   command (`git status *` covers `git status`).
 * - host, name, other: plain globs; `*` matches everything.
 */
export function matchSubject(pattern: string, subject: string, kind: SubjectKind, outsideWorkspace = false): boolean {
  if (kind === 'path') {
    const outside = outsideWorkspace || isAbsolutePath(subject)
    const patternAbsolute = isAbsolutePath(pattern)
    if (outside !== patternAbsolute) return false
    if (pattern === '*') return true
    const s = normalizePathSubject(subject)
    const test = compile(pattern)
    if (test(s)) return true
    return !pattern.includes('/') && test(basename(s))
  }
  if (pattern === '*') return true
  if (kind === 'command') {
    if (commandPatternRegExp(pattern).test(subject)) return true
    return pattern.endsWith(' *') && commandPatternRegExp(pattern.slice(0, -2)).test(subject)
  }
  return compile(pattern)(subject)
}
