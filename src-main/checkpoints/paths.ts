import fs from 'node:fs'
import path from 'node:path'
import { isMissing } from '../files'

/**
 * A path as the store records it: relative to the workspace, '/'-separated, no empty, '.' or '..' part, never inside
 * a `.git` folder (any level, any case: on a case-insensitive disk `.GIT/config` is the repository's config). Throws
 * with the reason otherwise — such a path never comes out of our own trees, so it is a caller's mistake or an attack.
 */
export function checkRelativePath(p: string): void {
  const refuse = (why: string) => {
    throw new Error(`checkpoints: refused path ${JSON.stringify(p)}: ${why}; give a path relative to the workspace`)
  }
  if (typeof p !== 'string' || p === '') refuse('it is empty')
  if (p.includes('\0')) refuse('it contains a NUL byte')
  if (p.startsWith('/') || path.isAbsolute(p) || /^[A-Za-z]:/.test(p)) refuse('it is absolute')
  for (const part of p.split('/')) {
    if (part === '' || part === '.') refuse('it has an empty or "." part')
    if (part === '..') refuse('it leaves the workspace ("..")')
    if (part.toLowerCase() === '.git') refuse('it is inside a .git folder')
  }
}

/** Whether `p` is `prefix` itself or inside the folder `prefix`. */
export function isWithin(p: string, prefix: string): boolean {
  return p === prefix || p.startsWith(`${prefix}/`)
}

/** Whether the absolute path `p` is the folder `root` or inside it. */
export function isInside(p: string, root: string): boolean {
  const rel = path.relative(root, p)
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
}

/** The folders leading to `rel`, outermost first: "a/b/c" → ["a", "a/b"]. */
export function ancestors(rel: string): string[] {
  const parts = rel.split('/')
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'))
}

/**
 * The `info/exclude` of the repository the workspace is in (the workspace itself or a folder above it), when there
 * is one: git reads it only from its own GIT_DIR, and ours is the shadow store's, so we pass the person's as
 * core.excludesFile. Only read, never written. A `.git` file (a linked worktree, a submodule) points at the real git
 * folder with `gitdir:`, and a worktree's `commondir` at the repository whose info/ it shares.
 */
export function personExcludeFile(workspace: string): string | undefined {
  for (let dir = workspace; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git')
    const gitDir = resolveGitDir(dotGit)
    if (gitDir) {
      const file = path.join(commonDir(gitDir), 'info', 'exclude')
      return fs.existsSync(file) ? file : undefined
    }
    if (path.dirname(dir) === dir) return undefined
  }
}

function resolveGitDir(dotGit: string): string | undefined {
  let stat: fs.Stats
  try {
    stat = fs.statSync(dotGit)
  } catch (err) {
    if (isMissing(err)) return undefined
    throw err
  }
  if (stat.isDirectory()) return dotGit
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'))
  return m ? path.resolve(path.dirname(dotGit), m[1]) : undefined
}

function commonDir(gitDir: string): string {
  try {
    return path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim())
  } catch (err) {
    if (isMissing(err)) return gitDir
    throw err
  }
}
