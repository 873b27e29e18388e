import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { TaskWorktree } from '../../src-shared'
import { ToolError } from '../tools'

const run = promisify(execFile)

/**
 * Git for worktree isolation. Hooks are switched off (`core.hooksPath=/dev/null`): checking out a worktree would
 * otherwise run the repository's post-checkout hook in the host, outside any sandbox and without anyone's approval.
 */
async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
    maxBuffer: 64 * 1024 * 1024,
  })
  return stdout
}

/**
 * One git operation at a time per repository: parallel children adding and removing worktrees would otherwise race
 * for the repository's lock files (`config.lock`, ref locks) and fail at random.
 */
const queues = new Map<string, Promise<unknown>>()
function serialized<T>(repo: string, op: () => Promise<T>): Promise<T> {
  const before = queues.get(repo) ?? Promise.resolve()
  const next = before.then(op, op)
  const tail = next.catch(() => undefined)
  queues.set(repo, tail)
  void tail.then(() => {
    if (queues.get(repo) === tail) queues.delete(repo)
  })
  return next
}

function gitMessage(err: unknown): string {
  const e = err as { stderr?: string; message?: string }
  return (e.stderr || e.message || String(err)).trim().split('\n')[0]
}

/** Where a task's worktree lives: `{dataDir}/worktrees/{taskId}`, on the branch `agentry/{taskId}`. */
export function worktreePlace(dataDir: string, taskId: string): { path: string; branch: string } {
  return { path: path.join(dataDir, 'worktrees', taskId), branch: `agentry/${taskId}` }
}

/**
 * A fresh worktree of the repository `workdir` is in, on a new branch at its HEAD. The child works in the same
 * folder of it that `workdir` is of the repository. Not a repository (or one without a commit) → a tool error saying so.
 */
export async function createWorktree(workdir: string, dataDir: string, taskId: string): Promise<{ worktree: TaskWorktree; workdir: string }> {
  let root: string
  let base: string
  try {
    root = (await git(workdir, ['rev-parse', '--show-toplevel'])).trim()
  } catch (err) {
    throw new ToolError(`isolation "worktree" needs a git repository, and ${workdir} is not in one (${gitMessage(err)}). Run the task without isolation, or run "git init" and commit first.`)
  }
  try {
    base = (await git(root, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim()
  } catch {
    throw new ToolError(`isolation "worktree" needs a commit to start from, and the repository at ${root} has none yet. Commit first, or run the task without isolation.`)
  }
  const place = worktreePlace(dataDir, taskId)
  fs.mkdirSync(path.dirname(place.path), { recursive: true })
  try {
    // Parallel checkout (one worker per core): writing the files is most of the cost on a large repository.
    await serialized(root, () => git(root, ['-c', 'checkout.workers=0', 'worktree', 'add', '--quiet', '-b', place.branch, place.path, base]))
  } catch (err) {
    throw new ToolError(`could not create a worktree for this task: ${gitMessage(err)}`)
  }
  const sub = path.relative(fs.realpathSync(root), fs.realpathSync(workdir))
  return { worktree: { path: place.path, branch: place.branch, base, repo: root, state: 'active' }, workdir: path.join(place.path, sub) }
}

/**
 * The worktree a task runs in: the one it kept from an earlier run (a resumed task goes on where it left off; its
 * start is where its branch left the repository's HEAD), else a new one.
 */
export async function openWorktree(workdir: string, dataDir: string, taskId: string): Promise<{ worktree: TaskWorktree; workdir: string }> {
  const place = worktreePlace(dataDir, taskId)
  if (!fs.existsSync(place.path)) return createWorktree(workdir, dataDir, taskId)
  const root = (await git(workdir, ['rev-parse', '--show-toplevel'])).trim()
  const base = (await git(place.path, ['merge-base', 'HEAD', (await git(root, ['rev-parse', 'HEAD'])).trim()])).trim()
  const sub = path.relative(fs.realpathSync(root), fs.realpathSync(workdir))
  return { worktree: { path: place.path, branch: place.branch, base, repo: root, state: 'active' }, workdir: path.join(place.path, sub) }
}

/** Untracked files count as changes: they are made visible to `git diff` (intent-to-add) in the task's own index. */
async function stageIntent(worktree: TaskWorktree): Promise<void> {
  await git(worktree.path, ['add', '--intent-to-add', '--all'])
}

/**
 * When the child ends: no change (no new commit, nothing modified or added) → the worktree and its branch are
 * removed; otherwise what the child left uncommitted is committed on its branch (`message`), so the branch holds all
 * of its work and a plain `git merge` takes it, and both are kept, described by `git diff --shortstat` against where
 * it started. A commit that fails (say, the repository refuses it) leaves the changes uncommitted, and says so.
 */
export async function finishWorktree(worktree: TaskWorktree, message: string): Promise<TaskWorktree> {
  const head = (await git(worktree.path, ['rev-parse', 'HEAD'])).trim()
  const status = (await git(worktree.path, ['status', '--porcelain', '--untracked-files=all'])).trim()
  if (head === worktree.base && status === '') {
    await removeWorktree(worktree)
    return { ...worktree, state: 'removed' }
  }
  let uncommitted = false
  if (status) {
    try {
      await commitAll(worktree, message)
    } catch {
      // Kept as it is: the diff below still counts it (intent-to-add), and the note says it is not on the branch.
      uncommitted = true
    }
  }
  await stageIntent(worktree)
  const stat = (await git(worktree.path, ['diff', '--shortstat', worktree.base])).trim()
  return { ...worktree, state: 'kept', diffStat: stat || 'no file changes (commits only)', ...(uncommitted ? { uncommitted: true } : {}) }
}

/**
 * Everything in the worktree, committed on its own branch — never anywhere else in the person's repository. Hooks
 * and signing are off (nobody approved running them, and a signing prompt would hang); the person's git identity is
 * used when they have one, else Agentry's.
 */
async function commitAll(worktree: TaskWorktree, message: string): Promise<void> {
  await git(worktree.path, ['add', '--all'])
  let identity: string[] = []
  try {
    await git(worktree.path, ['config', '--get', 'user.email'])
  } catch {
    identity = ['-c', 'user.name=Agentry', '-c', 'user.email=agentry@localhost']
  }
  await git(worktree.path, [...identity, '-c', 'commit.gpgsign=false', 'commit', '--quiet', '--no-verify', '--message', message])
}

/** The worktree's changes since it started, as a unified diff (committed and not, new files included). */
export async function worktreeDiff(worktree: TaskWorktree): Promise<string> {
  if (!fs.existsSync(worktree.path)) throw new Error(`the worktree ${worktree.path} no longer exists`)
  await stageIntent(worktree)
  return git(worktree.path, ['diff', worktree.base])
}

/** Removes the worktree folder and its branch (what it changed is gone: the caller asked for that). */
export function removeWorktree(worktree: TaskWorktree): Promise<void> {
  return serialized(worktree.repo, async () => {
    if (fs.existsSync(worktree.path)) await git(worktree.repo, ['worktree', 'remove', '--force', worktree.path])
    else await git(worktree.repo, ['worktree', 'prune'])
    try {
      await git(worktree.repo, ['branch', '-D', worktree.branch])
    } catch (err) {
      // Already gone (removed by hand) is the state we want; anything else is reported.
      if (!/not found/.test(gitMessage(err))) throw err
    }
  })
}

/**
 * What the parent's model reads about a kept worktree: the branch and the exact commands to review and merge it, run
 * in the repository — never the worktree's folder in the data dir, where nobody should work.
 */
export function worktreeNote(w: TaskWorktree): string {
  const base = w.base.slice(0, 12)
  const lines = [
    `Worktree kept: branch ${w.branch} (${w.diffStat ?? 'changed'}), started from ${base}.`,
    `To review: git diff ${base}...${w.branch} — to merge: git merge ${w.branch} (in ${w.repo}).`,
  ]
  if (w.uncommitted) lines.push('Changes it left uncommitted are only in its worktree, not on the branch: tell the user (its card shows the diff).')
  return lines.join('\n')
}

/**
 * The child ended: its worktree is removed if it changed nothing, else committed, kept and named in what the parent
 * reads. One that cannot be inspected is kept, never deleted, and says why.
 */
export async function closeWorktree(open: TaskWorktree, message: string): Promise<TaskWorktree> {
  try {
    return await finishWorktree(open, message)
  } catch (err) {
    return { ...open, state: 'kept', diffStat: `could not be inspected (${err instanceof Error ? err.message : String(err)})` }
  }
}
