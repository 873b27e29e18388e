import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import picomatch from 'picomatch/posix'
import { isMissing } from '../files'

/**
 * Files and folders whose contents decide what agents may do: Agentry's own rules, agents and config, the
 * conventions of the hosts whose files we read (Claude Code, opencode, MCP), and the git settings that run
 * commands (`core.fsmonitor`, aliases, filters in `.git/config`; hooks). A write to any of them always asks the
 * person — even under `--yes` or an "always allow" rule — because an agent that could write them could raise its
 * own permissions. (Literal locations, e.g. for a sandbox's read-only view; `protectedWriteReason` also covers the
 * git files below `.git/modules` and `.git/worktrees`, the `.git` pointer file and a configured `core.hooksPath`.)
 */
export const PROTECTED_IN_WORKSPACE = ['.agents', '.claude', '.opencode', '.mcp.json', '.git/config', '.git/config.worktree', '.git/hooks'] as const

/** One protected area: a workspace-relative base and, for `.git`, which paths below it count. */
interface Area {
  base: string
  /** globs relative to the base ('' = the base itself); absent = the base and everything below it */
  only?: string[]
}

const AREAS: Area[] = [
  { base: '.agents' },
  { base: '.claude' },
  { base: '.opencode' },
  { base: '.mcp.json' },
  {
    base: '.git',
    // Not the whole of .git: `git commit` in a sandbox must still write objects, refs and the index. These are the
    // files git reads commands from; `.git` itself (a worktree's `gitdir:` pointer file) could redirect to a
    // git dir the agent wrote.
    only: ['', 'config', 'config.worktree', 'hooks', 'hooks/**', 'modules/**/config', 'modules/**/config.worktree', 'modules/**/hooks', 'modules/**/hooks/**', 'worktrees/*/config.worktree'],
  },
]

const gitMatchers = new Map<string, (rel: string) => boolean>()
function gitMatch(glob: string): (rel: string) => boolean {
  let m = gitMatchers.get(glob)
  if (!m) gitMatchers.set(glob, (m = picomatch(glob, { dot: true, nocase: true })))
  return m
}

export interface ProtectedRoot {
  /** absolute path as configured (workspace-relative entries joined to the workdir) */
  path: string
  /** what it is, for the approval text */
  label: string
}

/** The protected locations for a workspace and a data dir, absolute (literal ones; see PROTECTED_IN_WORKSPACE). */
export function protectedRoots(workdir: string, dataDir: string): ProtectedRoot[] {
  const roots: ProtectedRoot[] = PROTECTED_IN_WORKSPACE.map((rel) => ({ path: path.join(workdir, rel), label: rel }))
  const hooks = gitHooksPath(workdir)
  if (hooks) roots.push({ path: hooks, label: 'the git hooks folder (core.hooksPath)' })
  roots.push({ path: dataDir, label: 'the Agentry data dir' })
  return withRealNames(roots)
}

/**
 * Why a write to `absTarget` (already resolved through symlinks as far as it exists) needs the person, or null.
 * The text names the location and says what is at stake, for the approval dialog and the headless denial.
 * Names compare case-insensitively: on macOS and Windows `.AGENTS` is `.agents`, and elsewhere asking once too
 * often costs nothing.
 */
export function protectedWriteReason(absTarget: string, workdir: string, dataDir: string): string | null {
  const label = protectedLabel(absTarget, workdir, dataDir) ?? hardLinkedLabel(absTarget, workdir, dataDir)
  return label ? `${label} is protected configuration: this changes what agents may do` : null
}

function protectedLabel(absTarget: string, workdir: string, dataDir: string): string | null {
  for (const area of AREAS) {
    for (const base of namesOf(path.join(workdir, area.base))) {
      const rel = below(absTarget, base)
      if (rel === null) continue
      if (!area.only) return area.base
      const hit = area.only.find((glob) => (glob === '' ? rel === '' : gitMatch(glob)(rel)))
      if (hit !== undefined) return hit === '' ? '.git' : hit.startsWith('hooks') || hit.includes('/hooks') ? '.git/hooks' : `.git/${rel}`
    }
  }
  const extra: ProtectedRoot[] = [{ path: dataDir, label: DATA_DIR_LABEL }]
  const hooks = gitHooksPath(workdir)
  if (hooks) extra.push({ path: hooks, label: 'the git hooks folder (core.hooksPath)' })
  for (const root of withRealNames(extra)) {
    if (below(absTarget, root.path) === null) continue
    // A task's git worktree lives in the data dir but is that task's workspace: inside it, only what is protected in
    // any workspace (AREAS, checked above against it) asks. The rest of the data dir stays protected.
    if (root.label === DATA_DIR_LABEL && inTaskWorktree(absTarget, workdir, dataDir)) continue
    return root.label
  }
  return null
}

const DATA_DIR_LABEL = 'the Agentry data dir'

/** `absTarget` is inside `workdir`, and `workdir` is a task worktree (`{dataDir}/worktrees/…`). */
function inTaskWorktree(absTarget: string, workdir: string, dataDir: string): boolean {
  const worktrees = namesOf(path.join(dataDir, 'worktrees'))
  return namesOf(workdir).some((w) => below(absTarget, w) !== null && worktrees.some((t) => (below(w, t) ?? '') !== ''))
}

/** `target` relative to `base` ('' when equal, `/`-separated), or null when it is not at or below it. */
function below(target: string, base: string): string | null {
  const t = target.toLowerCase()
  const b = base.toLowerCase()
  if (t === b) return ''
  if (!t.startsWith(b + path.sep)) return null
  return target.slice(base.length + 1).split(path.sep).join('/')
}

function namesOf(p: string): string[] {
  const real = realpathIfExists(p)
  return real && real !== p ? [p, real] : [p]
}

function withRealNames(roots: ProtectedRoot[]): ProtectedRoot[] {
  return roots.flatMap((root) => namesOf(root.path).map((p) => ({ path: p, label: root.label })))
}

/**
 * A file with several hard links is one file under several names: writing `notes.txt` could change
 * `.agents/permissions.jsonc` if they are the same inode. Only then are the protected files compared by inode.
 */
function hardLinkedLabel(absTarget: string, workdir: string, dataDir: string): string | null {
  const st = fs.statSync(absTarget, { throwIfNoEntry: false })
  if (!st || !st.isFile() || st.nlink < 2) return null
  for (const file of protectedFiles(workdir, dataDir)) {
    const other = fs.lstatSync(file, { throwIfNoEntry: false })
    if (other && other.ino === st.ino && other.dev === st.dev) {
      return `${path.relative(workdir, file).startsWith('..') ? file : path.relative(workdir, file)} (the same file under another name)`
    }
  }
  return null
}

const MAX_SCANNED = 5_000

/** The protected regular files (bounded): the configuration areas, git's command files, the data dir's own files. */
function protectedFiles(workdir: string, dataDir: string): string[] {
  const out: string[] = []
  const walk = (dir: string, depth: number) => {
    if (out.length >= MAX_SCANNED || depth > 8) return
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true })
    } catch (err) {
      if (isMissing(err)) return
      throw err
    }
    for (const e of entries) {
      const p = path.join(dir, e.name)
      if (e.isDirectory()) walk(p, depth + 1)
      else if (e.isFile()) out.push(p)
    }
  }
  for (const base of ['.agents', '.claude', '.opencode']) walk(path.join(workdir, base), 0)
  out.push(path.join(workdir, '.mcp.json'), path.join(workdir, '.git', 'config'), path.join(workdir, '.git', 'config.worktree'))
  walk(path.join(workdir, '.git', 'hooks'), 0)
  const hooks = gitHooksPath(workdir)
  if (hooks) walk(hooks, 0)
  for (const name of ['config.yaml', 'permissions.jsonc', 'keys.json', 'trust.json', 'workspaces.json']) out.push(path.join(dataDir, name))
  walk(path.join(dataDir, 'agents'), 0)
  return out
}

const hooksCache = new Map<string, { stamp: string; value: string | null }>()

/**
 * `core.hooksPath` of the workspace's repository (absolute), when set: e.g. husky's `.husky`, whose files git runs
 * as hooks. Read with git itself (`--file`, so no repository discovery and nothing runs), re-read when the config
 * file changes.
 */
export function gitHooksPath(workdir: string): string | null {
  const config = path.join(workdir, '.git', 'config')
  const st = fs.statSync(config, { throwIfNoEntry: false })
  if (!st || !st.isFile()) return null
  const stamp = `${st.mtimeMs}:${st.size}:${st.ino}`
  const hit = hooksCache.get(config)
  if (hit && hit.stamp === stamp) return hit.value
  let value: string | null = null
  try {
    const out = execFileSync('git', ['config', '--file', config, '--includes', '--get', 'core.hooksPath'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    }).trim()
    if (out) value = path.resolve(workdir, out.startsWith('~/') ? path.join(os.homedir(), out.slice(2)) : out)
  } catch (err) {
    // Exit status 1 = the key is not set. Git not installed (ENOENT) = git cannot run hooks from here either.
    // Anything else (a config git cannot parse): git would refuse to run as well, so there is nothing to protect.
    const e = err as NodeJS.ErrnoException & { status?: number }
    if (e.code !== 'ENOENT' && typeof e.status !== 'number') throw err
  }
  if (hooksCache.size > 100) hooksCache.clear()
  hooksCache.set(config, { stamp, value })
  return value
}

function realpathIfExists(p: string): string | null {
  try {
    return fs.realpathSync.native(p)
  } catch (err) {
    // A protected location that does not exist yet has no other name; anything else is a real problem.
    if (isMissing(err)) return null
    throw err
  }
}

