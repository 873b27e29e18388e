import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { RestoreConflict, TaskWorktree } from '../../src-shared'
import { errnoText, lstatIfPresent } from '../files'
import type { Checkpoints, Entry } from '../checkpoints'
import { mergeFile } from './merge-file'
import type { PathPlan } from './plan'

/**
 * Git in the person's repository, reading only: objects (`cat-file`), a diff, the worktree's file list; optional
 * locks off, so not even the stat cache of an index is refreshed. Hooks are off (none of these runs one anyway).
 */
function git(cwd: string, args: string[], okCodes: number[] = []): Promise<{ stdout: Buffer; code: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.hooksPath=/dev/null', ...args],
      { cwd, encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0
        if (code === 0 || okCodes.includes(code)) resolve({ stdout, code })
        else reject(new Error(`git ${args[0]} failed: ${stderr.toString('utf8').trim().split('\n')[0] || err?.message}`))
      },
    )
  })
}

const z = (b: Buffer) => b.toString('utf8').split('\0').filter(Boolean)

/** A file as bytes and mode, or null when it is not there. */
type Side = { bytes: Buffer; mode: string } | null

function readSide(abs: string): Side {
  const st = lstatIfPresent(abs)
  if (!st) return null
  if (st.isSymbolicLink()) return { bytes: Buffer.from(fs.readlinkSync(abs), 'utf8'), mode: '120000' }
  if (!st.isFile()) return null
  return { bytes: fs.readFileSync(abs), mode: st.mode & 0o111 ? '100755' : '100644' }
}

const same = (a: Side, b: Side) => (a === null ? b === null : b !== null && a.mode === b.mode && a.bytes.equals(b.bytes))

/**
 * What applying a kept worktree to the workspace means, file by file, as a three-way merge: the worktree's base commit
 * is the common ancestor, the worktree's files are theirs, the workspace's are ours. A file only they changed is
 * taken; one both changed is merged by `git merge-file` (the same merge git does), and a conflict there — or a file
 * one side deleted and the other changed — is a conflict of the whole apply. Nothing here writes the workspace.
 */
export async function planWorktreeApply(store: Checkpoints, worktree: TaskWorktree, beforeTree: string): Promise<{ plans: PathPlan[]; conflicts: RestoreConflict[]; skipped: { path: string; reason: string }[] }> {
  if (!fs.existsSync(worktree.path)) throw new Error(`the worktree ${worktree.path} no longer exists`)
  const tracked = z((await git(worktree.path, ['diff', '--name-only', '-z', '--no-renames', worktree.base, '--'])).stdout)
  const untracked = z((await git(worktree.path, ['ls-files', '-z', '--others', '--exclude-standard'])).stdout)
  const out = { plans: [] as PathPlan[], conflicts: [] as RestoreConflict[], skipped: [] as { path: string; reason: string }[] }
  const relOf = (repoPath: string) => path.relative(store.workspace, path.join(worktree.repo, repoPath)).split(path.sep).join('/')
  const paths = [...new Set([...tracked, ...untracked])].sort()
  const current: Map<string, Entry> = await store.entries(beforeTree, paths.map(relOf).filter((r) => !r.startsWith('..')))
  try {
    for (const repoPath of paths) {
      const rel = relOf(repoPath)
      if (rel.startsWith('..') || path.isAbsolute(rel)) {
        out.skipped.push({ path: repoPath, reason: 'outside this workspace (elsewhere in the repository)' })
        continue
      }
      const theirs = readSide(path.join(worktree.path, repoPath))
      const ours = readSide(path.join(store.workspace, rel))
      const base = await baseSide(worktree, repoPath)
      if (same(theirs, ours)) continue
      let target: Side
      if (same(ours, base)) target = theirs
      else if (!ours || !theirs || !base || ours.mode === '120000' || theirs.mode === '120000') {
        out.conflicts.push({ path: rel, reason: 'changed since', detail: `${rel} was changed both here and in the worktree (${!theirs ? 'deleted there' : !ours ? 'deleted here' : 'one side is new or a link'}); apply it by hand` })
        continue
      } else {
        const merged = await mergeFile(ours.bytes, base.bytes, theirs.bytes)
        if (merged === null) {
          out.conflicts.push({ path: rel, reason: 'changed since', detail: `${rel} was changed both here and in the worktree, on the same lines (or it is binary); apply it by hand` })
          continue
        }
        target = { bytes: merged, mode: theirs.mode }
      }
      const entry = target ? await store.writeEntry(target.bytes, target.mode) : null
      out.plans.push({ path: rel, expected: current.get(rel) ?? null, target: entry })
    }
  } catch (err) {
    throw new Error(`could not compare the worktree with the workspace: ${errnoText(err)}`)
  }
  return out
}

async function baseSide(worktree: TaskWorktree, repoPath: string): Promise<Side> {
  const ls = z((await git(worktree.path, ['ls-tree', '-z', worktree.base, '--', `:(literal)${repoPath}`])).stdout)[0]
  const m = ls && /^(\d{6}) blob ([0-9a-f]+)\t/.exec(ls)
  if (!m) return null
  return { bytes: (await git(worktree.path, ['cat-file', 'blob', m[2]])).stdout, mode: m[1] }
}
