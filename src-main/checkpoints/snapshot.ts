import fs from 'node:fs'
import path from 'node:path'
import { isMissing } from '../files'
import { runGit, type ShadowPlace } from './git'

/** What a store remembers between snapshots in this process, to skip work on an unchanged workspace. */
export type SnapshotMemo = { lastTree?: string; indexStamp?: string; excludeStamp?: string }

/** Packs a store may have before a snapshot folds them into one (each snapshot that adds files makes one). */
const MAX_PACKS = 50

/**
 * Records the workspace in the shadow index and returns its tree id. `add -A` is stat-cached (an unchanged file costs
 * a stat); when it changed nothing — no verbose line and the index file as we left it — the tree is the last one and
 * `write-tree` is skipped, so an unchanged workspace costs one git call. The index stamp also catches another process
 * that snapshotted the same store meanwhile.
 */
export async function snapshotWorkspace(place: ShadowPlace, memo: SnapshotMemo): Promise<string> {
  const changed = await addAll(place)
  const ignoresChanged = ignoresMayHaveChanged(place, memo, changed)
  if (!changed.length && !ignoresChanged && memo.lastTree && fileStamp(place.indexFile) === memo.indexStamp) return memo.lastTree
  let tree = await writeTree(place)
  if (ignoresChanged && (await dropIgnored(place))) tree = await writeTree(place)
  memo.lastTree = tree
  memo.indexStamp = fileStamp(place.indexFile)
  await foldPacks(place)
  return tree
}

/** Runs `add -A`; returns the lines of `--verbose` ("add 'path'", "remove 'path'"): what changed, for free. */
async function addAll(place: ShadowPlace): Promise<string[]> {
  // --ignore-errors: a nested repository without a commit is an error for `add` ("does not have a commit checked
  // out") that would fail every snapshot; it is left out instead. Any other error still fails the snapshot.
  // core.bigFileThreshold=1 streams new files into one pack per call instead of a loose object file each: a first
  // snapshot of 10,000 files writes one file, not 10,000 (and 1.6 MB instead of 41 MB). Only for `add`: for diff the
  // same setting would call every file binary.
  const added = await runGit(place, ['-c', 'core.bigFileThreshold=1', 'add', '-A', '--ignore-errors', '--verbose'], { okCodes: [1] })
  if (added.code !== 0) {
    const errors = added.stderr.split('\n').filter((l) => /^(error|fatal):/.test(l) && !/does not have a commit checked out|adding files failed/.test(l))
    if (errors.length) {
      throw new Error(`checkpoints: could not record ${place.workspace} (${errors[0].trim()}); make the file readable or list it in .gitignore`)
    }
  }
  return added.stdout.toString('utf8').split('\n').filter(Boolean)
}

async function writeTree(place: ShadowPlace): Promise<string> {
  return (await runGit(place, ['write-tree'])).stdout.toString('utf8').trim()
}

/**
 * Whether the ignore rules may have changed since the last snapshot: always for the first one in this process,
 * else when `add` touched a `.gitignore` (its verbose lines quote the path) or the repository's info/exclude changed
 * on disk. Skipping the check otherwise keeps a snapshot at two git calls.
 */
function ignoresMayHaveChanged(place: ShadowPlace, memo: SnapshotMemo, changed: string[]): boolean {
  // /dev/null's times move with every write to it anywhere: not a change of rules
  const stamp = place.excludesFile === '/dev/null' ? 'none' : fileStamp(place.excludesFile)
  const excludeChanged = stamp !== memo.excludeStamp
  memo.excludeStamp = stamp
  return !memo.lastTree || excludeChanged || changed.some((l) => /[/'"]\.gitignore['"]?$/.test(l))
}

/** Size, mtime and inode of a file (git replaces its index by renaming a new one over it), or "missing". */
function fileStamp(file: string): string {
  try {
    const st = fs.statSync(file)
    return `${file} ${st.size} ${st.mtimeMs} ${st.ino}`
  } catch (err) {
    if (isMissing(err)) return `${file} missing`
    throw err
  }
}

/**
 * A file recorded before it was ignored stays in an index (git's rule for tracked files); a snapshot follows the
 * ignores as they are now instead, so a node_modules/ ignored late is not recorded again and again. True when any
 * entry was dropped.
 */
async function dropIgnored(place: ShadowPlace): Promise<boolean> {
  const ignored = await runGit(place, ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'])
  if (!ignored.stdout.length) return false
  await runGit(place, ['--literal-pathspecs', 'rm', '--cached', '--quiet', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: ignored.stdout })
  return true
}

/** Many small packs slow every object lookup: past MAX_PACKS, one repack (unkept snapshots are kept too). */
async function foldPacks(place: ShadowPlace): Promise<void> {
  let packs: string[]
  try {
    packs = fs.readdirSync(path.join(place.gitDir, 'objects', 'pack')).filter((f) => f.endsWith('.pack'))
  } catch (err) {
    if (isMissing(err)) return
    throw err
  }
  if (packs.length > MAX_PACKS) await runGit(place, ['repack', '-a', '-d', '-q', '--keep-unreachable'])
}
