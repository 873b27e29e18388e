import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { errnoCode, errnoText, isMissing, lstatIfPresent } from '../files'
import { checkTreeId, MODE, rawDiff, type RawEntry } from './changes'
import { runGit, type ShadowPlace } from './git'
import { ancestors, checkRelativePath, isInside, isWithin } from './paths'

export type RestoreOptions = {
  /** The snapshot the caller believes the workspace is in now (e.g. the one taken after the turn to undo). */
  expected: string
  /** Paths (files, or folders meaning everything under them) to put back; default: all that differ. */
  paths?: string[]
  /** Check everything (the snapshot and the disk) and report conflicts, but write nothing. */
  dryRun?: boolean
}

export type RestoreConflict = {
  path: string
  reason: 'changed since' | 'deleted since' | 'created since' | 'in the way' | 'unsafe'
  /** One line for a person: what is in the way. */
  detail: string
}

export type RestoreResult = {
  /** False when anything conflicted: then nothing at all was written. */
  ok: boolean
  written: { path: string; action: 'wrote' | 'deleted' }[]
  conflicts: RestoreConflict[]
  /** Paths not restored by design: nested repositories (mode 160000) are never written. */
  skipped: { path: string; reason: string }[]
}

/** One path to put back: its entry in the target (none: delete it), and whether `expected` has it. */
type Plan = { path: string; entry?: { mode: string; blob: string }; inExpected: boolean }

/**
 * Restores `paths` (default: every path that differs between `expected` and `target`) to their state in `target`.
 * First the workspace is snapshotted and compared with `expected`: a path the person (or anything) changed, deleted
 * or created since is a conflict, and then nothing is written — all or nothing, never a file lost. The disk is checked
 * too, for what a snapshot cannot see: ignored files, a file or symlink where a folder must go, a parent that is a
 * symlink (writing through it could land outside the workspace). Files are written beside their place and renamed
 * over it, so a reader never sees half a file.
 */
export async function restore(place: ShadowPlace, target: string, options: RestoreOptions, snapshotNow: () => Promise<string>): Promise<RestoreResult> {
  checkTreeId(target, 'target')
  checkTreeId(options.expected, 'expected')
  for (const p of options.paths ?? []) checkRelativePath(p)
  const chosen = (p: string) => !options.paths || options.paths.some((q) => isWithin(p, q))

  const wanted = (await rawDiff(place, options.expected, target, false)).filter((e) => chosen(e.path))
  const result: RestoreResult = { ok: true, written: [], conflicts: [], skipped: [] }
  const plans: Plan[] = []
  for (const e of wanted) {
    checkRelativePath(e.path)
    if (e.oldMode === MODE.nested || e.newMode === MODE.nested) {
      result.skipped.push({ path: e.path, reason: 'a nested git repository: its own git keeps its files' })
      continue
    }
    plans.push({ path: e.path, entry: e.newMode && e.newBlob ? { mode: e.newMode, blob: e.newBlob } : undefined, inExpected: e.oldMode !== undefined })
  }
  if (!plans.length) return result

  const current = await snapshotNow()
  const drift = await rawDiff(place, options.expected, current, false)
  // One conflict per path: the snapshot's view first, then what only the disk shows.
  const seen = driftConflicts(plans, drift)
  const conflicted = new Set(seen.map((c) => c.path))
  result.conflicts = [...seen, ...diskConflicts(place.workspace, plans.filter((p) => !conflicted.has(p.path)), drift)]
  result.conflicts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  if (result.conflicts.length) return { ...result, ok: false }
  if (options.dryRun) return result

  const blobs = await readBlobs(place, plans.flatMap((p) => (p.entry ? [p.entry.blob] : [])))
  const done = (p: string, action: 'wrote' | 'deleted') => result.written.push({ path: p, action })
  try {
    // Deletions first, deepest first, so a file can replace a folder (and a folder a file) in one restore.
    const deletions = plans.filter((p) => !p.entry).sort((a, b) => b.path.length - a.path.length)
    for (const p of deletions) {
      removeFile(path.join(place.workspace, p.path))
      removeEmptyParents(place.workspace, p.path)
      done(p.path, 'deleted')
    }
    for (const p of plans) {
      if (!p.entry) continue
      writeEntry(place.workspace, p.path, p.entry.mode, blobs.get(p.entry.blob)!)
      done(p.path, 'wrote')
    }
  } catch (err) {
    const so = result.written.length ? ` after restoring ${result.written.map((w) => w.path).join(', ')}` : ''
    throw new Error(`checkpoints: restore stopped${so}: ${errnoText(err)}; check the folder's permissions and restore again`)
  }
  return result
}

const DRIFT: Record<RawEntry['status'], RestoreConflict['reason']> = { A: 'created since', D: 'deleted since', M: 'changed since', T: 'changed since', R: 'changed since' }

/** A planned path whose current state is not `expected`'s — itself, a file under it, or a file where its folder goes. */
function driftConflicts(plans: Plan[], drift: RawEntry[]): RestoreConflict[] {
  // Lookups by path and by folder, so thousands of planned paths against thousands of changes stay linear.
  const byPath = new Map(drift.map((d) => [d.path, d]))
  const firstUnder = new Map<string, RawEntry>()
  for (const d of drift) for (const dir of ancestors(d.path)) if (!firstUnder.has(dir)) firstUnder.set(dir, d)
  const out: RestoreConflict[] = []
  for (const p of plans) {
    const d = byPath.get(p.path) ?? firstUnder.get(p.path) ?? ancestors(p.path).map((a) => byPath.get(a)).find(Boolean)
    if (!d) continue
    const reason = DRIFT[d.status]
    out.push({ path: p.path, reason, detail: `${d.path} was ${reason} the snapshot` })
  }
  return out
}

/** What only the disk shows: ignored files in the way, parents that are files or symlinks, paths leading outside. */
function diskConflicts(workspace: string, plans: Plan[], drift: RawEntry[]): RestoreConflict[] {
  const out: RestoreConflict[] = []
  const deleted = new Set(plans.filter((p) => !p.entry).map((p) => p.path))
  const drifted = new Set(drift.map((d) => d.path))
  for (const p of plans) {
    const conflict = (reason: RestoreConflict['reason'], detail: string) => out.push({ path: p.path, reason, detail })
    let parentOk = true
    let lastDir = workspace
    for (const dir of ancestors(p.path)) {
      const st = lstatIfPresent(path.join(workspace, dir))
      // Missing, or removed by this restore before anything is written: created as a folder then.
      if (!st || deleted.has(dir)) break
      if (st.isSymbolicLink()) {
        conflict('unsafe', `${dir} is a symlink; restoring through it could write outside the workspace`)
        parentOk = false
        break
      }
      if (!st.isDirectory()) {
        conflict('in the way', `${dir} is a file where a folder must be`)
        parentOk = false
        break
      }
      lastDir = path.join(workspace, dir)
    }
    if (!parentOk) continue
    // No parent is a symlink, so this holds unless something moved meanwhile: checked anyway, it is cheap.
    if (!isInside(fs.realpathSync(lastDir), workspace)) {
      conflict('unsafe', `${path.relative(workspace, lastDir)} leads outside the workspace`)
      continue
    }
    const st = lstatIfPresent(path.join(workspace, p.path))
    if (!st || drifted.has(p.path)) continue
    if (st.isDirectory()) {
      const inside = filesUnder(path.join(workspace, p.path), p.path).filter((f) => !deleted.has(f))
      if (inside.length) conflict('in the way', `the folder ${p.path} holds ${inside[0]}${inside.length > 1 ? ` and ${inside.length - 1} more` : ''}`)
    } else if (!p.inExpected) {
      // Not in the expected snapshot, yet on disk, and the snapshot did not see it: an ignored file someone made.
      conflict('created since', `${p.path} exists but is not in the snapshot (an ignored file?)`)
    }
  }
  return out
}

function filesUnder(abs: string, rel: string): string[] {
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const r = `${rel}/${e.name}`
    return e.isDirectory() ? filesUnder(path.join(abs, e.name), r) : [r]
  })
}

/** The blobs' bytes, in one `git cat-file --batch`. */
async function readBlobs(place: ShadowPlace, ids: string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(ids)]
  const out = new Map<string, Buffer>()
  if (!unique.length) return out
  const { stdout } = await runGit(place, ['cat-file', '--batch'], { input: unique.map((id) => `${id}\n`).join('') })
  let at = 0
  for (const id of unique) {
    const eol = stdout.indexOf(0x0a, at)
    const header = stdout.subarray(at, eol).toString('utf8')
    const m = /^([0-9a-f]+) blob (\d+)$/.exec(header)
    if (!m || m[1] !== id) throw new Error(`checkpoints: the store has no file ${id} (git said "${header}"); the snapshot may have been pruned`)
    const size = Number(m[2])
    out.set(id, stdout.subarray(eol + 1, eol + 1 + size))
    at = eol + 1 + size + 1
  }
  return out
}

function removeFile(abs: string): void {
  try {
    fs.unlinkSync(abs)
  } catch (err) {
    if (!isMissing(err)) throw err
  }
}

/** Folders a deletion left empty go too (as git does), up to the workspace. */
function removeEmptyParents(workspace: string, rel: string): void {
  for (const dir of ancestors(rel).reverse()) {
    try {
      fs.rmdirSync(path.join(workspace, dir))
    } catch (err) {
      const code = errnoCode(err)
      if (code === 'ENOTEMPTY' || code === 'EEXIST' || isMissing(err)) return
      throw err
    }
  }
}

function writeEntry(workspace: string, rel: string, mode: string, bytes: Buffer): void {
  const abs = path.join(workspace, rel)
  fs.mkdirSync(path.dirname(abs), { recursive: true })
  // A folder here held only files this restore deleted (checked before): what is left is empty folders.
  if (lstatIfPresent(abs)?.isDirectory()) fs.rmSync(abs, { recursive: true })
  const temp = path.join(path.dirname(abs), `.${path.basename(abs).slice(0, 40)}.agentry-restore-${randomBytes(4).toString('hex')}`)
  try {
    if (mode === MODE.symlink) fs.symlinkSync(bytes.toString('utf8'), temp)
    else fs.writeFileSync(temp, bytes, { mode: mode === MODE.executable ? 0o777 : 0o666, flag: 'wx' })
    fs.renameSync(temp, abs)
  } catch (err) {
    removeFile(temp)
    throw err
  }
}
