import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { errnoText, isMissing } from '../files'
import { changes, checkTreeId, rawDiff, type FileChange, type RawEntry } from './changes'
import { compose, entriesOf, type Entry, type Override } from './compose'
import { GitError, runGit, type ShadowPlace } from './git'
import { personExcludeFile } from './paths'
import { restore, type RestoreOptions, type RestoreResult } from './restore'
import { snapshotWorkspace, type SnapshotMemo } from './snapshot'

/**
 * `.gitattributes` of the workspace may ask for line-ending conversion (`text`, `eol`), clean/smudge filters (`filter`,
 * git-lfs), `ident` or an encoding: each would make the recorded bytes differ from the file's. info/attributes wins
 * over every `.gitattributes`, so these are unset for every path and a restore gives back exactly what was there.
 */
const ATTRIBUTES = '* -text -eol -filter -ident -working-tree-encoding\n'

/** A key names a kept snapshot: ref-safe parts joined by '/', e.g. "ses_123/turn-4/after". */
const KEY = /^[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*$/

function checkKey(key: string): void {
  if (typeof key !== 'string' || !KEY.test(key) || /\.\.|\.lock(\/|$)|\.$/.test(key)) {
    throw new Error(`checkpoints: ${JSON.stringify(key)} is not a usable key; use letters, digits, '.', '_', '-' in parts joined by '/', each starting with a letter, digit or '_' (e.g. "ses_1/turn-2")`)
  }
}

/**
 * Folders no checkpoint records, even where no `.gitignore` names them (a workspace that is not a repository has
 * none): installed packages and caches, rebuilt from their sources, often 100,000 files — recording them would make
 * the first checkpoint take minutes and the store gigabytes. And the data dir itself when it lies in the workspace
 * (a person who opens their home folder), or every checkpoint would record the previous one.
 */
const ALWAYS_EXCLUDED = ['node_modules/', '.venv/', '__pycache__/', '.pytest_cache/', '.mypy_cache/', '.tox/', '.next/', '.turbo/', '.gradle/', '.DS_Store']

function excludes(workspace: string, dataDir: string): string {
  const lines = [...ALWAYS_EXCLUDED]
  const rel = path.relative(workspace, fs.existsSync(dataDir) ? fs.realpathSync(dataDir) : dataDir)
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) lines.push(`/${rel.split(path.sep).join('/')}/`)
  return `${lines.join('\n')}\n`
}

/** The folder of a workspace's shadow store: `<dataDir>/checkpoints/<first 16 hex of sha256(realpath)>`. */
export function storeDir(dataDir: string, workspaceRealpath: string): string {
  return path.join(dataDir, 'checkpoints', createHash('sha256').update(workspaceRealpath).digest('hex').slice(0, 16))
}

/**
 * One operation at a time per store, in this process: git's index.lock would otherwise fail a second `add` at random,
 * and `prune()` running between a snapshot's `add` and `write-tree` could drop objects not yet reachable.
 */
const queues = new Map<string, Promise<unknown>>()
function serialized<T>(key: string, op: () => Promise<T>): Promise<T> {
  const next = (queues.get(key) ?? Promise.resolve()).then(op, op)
  const tail = next.catch(() => undefined)
  queues.set(key, tail)
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key)
  })
  return next
}

/**
 * A workspace's checkpoints: snapshots of its files in a git object store of our own (never the person's `.git`),
 * what changed between two of them, and putting files back. Open with `openCheckpoints`.
 */
export class Checkpoints {
  private constructor(
    /** The workspace's real path (symlinks resolved): what is recorded and restored. */
    readonly workspace: string,
    /** The shadow store's folder in the data dir. */
    readonly dir: string,
  ) {}

  private readonly memo: SnapshotMemo = {}

  /** Opens (creating on first use) the store of `workspace` under `dataDir`. Needs git on PATH. */
  static async open(options: { dataDir: string; workspace: string }): Promise<Checkpoints> {
    let workspace: string
    try {
      workspace = fs.realpathSync(options.workspace)
    } catch (err) {
      throw new Error(`checkpoints: cannot open the workspace ${options.workspace} (${errnoText(err)}); check that the folder exists`)
    }
    if (!fs.statSync(workspace).isDirectory()) throw new Error(`checkpoints: the workspace ${workspace} is not a folder`)
    const store = new Checkpoints(workspace, storeDir(options.dataDir, workspace))
    await serialized(store.dir, () => store.init())
    return store
  }

  private place(): ShadowPlace {
    return {
      gitDir: path.join(this.dir, 'git'),
      indexFile: path.join(this.dir, 'index'),
      workspace: this.workspace,
      // Read every time: the workspace may become a repository (or gain an exclude) while we watch it.
      excludesFile: personExcludeFile(this.workspace) ?? '/dev/null',
    }
  }

  private async init(): Promise<void> {
    const place = this.place()
    if (!fs.existsSync(path.join(place.gitDir, 'HEAD'))) {
      fs.mkdirSync(place.gitDir, { recursive: true })
      await runGit(place, ['init', '--quiet'])
    }
    fs.mkdirSync(path.join(place.gitDir, 'info'), { recursive: true })
    fs.writeFileSync(path.join(place.gitDir, 'info', 'attributes'), ATTRIBUTES)
    fs.writeFileSync(path.join(place.gitDir, 'info', 'exclude'), excludes(this.workspace, path.dirname(path.dirname(this.dir))))
    // For a person looking into the data dir: which folder this store records.
    fs.writeFileSync(path.join(this.dir, 'workspace'), `${this.workspace}\n`)
  }

  /**
   * Records the workspace as it is now and returns the snapshot's id (a git tree id). Unchanged files cost a stat
   * each (the shadow index's stat cache); an unchanged workspace gives the same id again. Not kept by itself: name it
   * with `keep()` or a later `prune()` may drop it.
   */
  snapshot(): Promise<string> {
    return serialized(this.dir, () => this.snapshotNow())
  }

  private snapshotNow(): Promise<string> {
    return snapshotWorkspace(this.place(), this.memo)
  }

  /** Keeps a snapshot under `key` (replacing what the key held): kept snapshots survive `prune()`. */
  async keep(key: string, tree: string): Promise<void> {
    return this.keepAll([{ key, tree }])
  }

  /**
   * Keeps several snapshots in one git call (a turn keeps its before and after together). The refs point at the trees
   * themselves: a commit around each would cost a git call more per key and record nothing we read.
   */
  async keepAll(entries: { key: string; tree: string }[]): Promise<void> {
    for (const e of entries) {
      checkKey(e.key)
      checkTreeId(e.tree, 'tree')
    }
    if (!entries.length) return
    return serialized(this.dir, async () => {
      await runGit(this.place(), ['update-ref', '--stdin'], { input: entries.map((e) => `update refs/checkpoints/${e.key} ${e.tree}\n`).join('') })
    })
  }

  /** The snapshot kept under `key`, or undefined. */
  async kept(key: string): Promise<string | undefined> {
    checkKey(key)
    return serialized(this.dir, async () => {
      const r = await runGit(this.place(), ['rev-parse', '--verify', '--quiet', `refs/checkpoints/${key}^{tree}`], { okCodes: [1] })
      return r.code === 0 ? r.stdout.toString('utf8').trim() : undefined
    })
  }

  /** The kept snapshots whose key is `prefix` or under `prefix/` (all of them without a prefix), by key. */
  async keys(prefix?: string): Promise<{ key: string; tree: string }[]> {
    if (prefix !== undefined) checkKey(prefix)
    return serialized(this.dir, () => this.keysNow(prefix))
  }

  private async keysNow(prefix?: string): Promise<{ key: string; tree: string }[]> {
    const pattern = prefix === undefined ? 'refs/checkpoints/' : `refs/checkpoints/${prefix}`
    // Key names cannot hold a newline or NUL (checkKey, git's ref rules), so one line per ref is safe.
    const { stdout } = await runGit(this.place(), ['for-each-ref', '--format=%(refname)%00%(objectname)', pattern])
    const out: { key: string; tree: string }[] = []
    for (const line of stdout.toString('utf8').split('\n')) {
      const [ref, tree] = line.split('\0')
      if (ref && tree) out.push({ key: ref.slice('refs/checkpoints/'.length), tree })
    }
    return out
  }

  /**
   * Drops the keys equal to `prefix` or under `prefix/` ("ses_1" drops "ses_1/turn-2", not "ses_10"); returns how many.
   * Their files stay in the store until `prune()`.
   */
  async forget(prefix: string): Promise<number> {
    checkKey(prefix)
    return serialized(this.dir, async () => {
      const keys = await this.keysNow(prefix)
      if (!keys.length) return 0
      const input = keys.map((k) => `delete refs/checkpoints/${k.key}\n`).join('')
      await runGit(this.place(), ['update-ref', '--stdin'], { input })
      return keys.length
    })
  }

  /** Bytes the store takes on disk (objects, refs, its index). */
  sizeBytes(): Promise<number> {
    return serialized(this.dir, async () => folderBytes(this.dir))
  }

  /**
   * Deletes what no kept snapshot (and not the latest snapshot, which the shadow index holds) needs, and packs the
   * rest; with `keepRecentMinutes`, what was written that recently stays too. Returns the store's size before and after.
   */
  prune(options: { keepRecentMinutes?: number } = {}): Promise<{ beforeBytes: number; afterBytes: number }> {
    return serialized(this.dir, async () => {
      const beforeBytes = folderBytes(this.dir)
      // A grace period keeps what a turn in progress snapshotted and has not kept yet (it keeps both at its end).
      const prune = options.keepRecentMinutes ? `--prune=${Math.ceil(options.keepRecentMinutes)}.minutes.ago` : '--prune=now'
      await runGit(this.place(), ['gc', '--quiet', prune])
      return { beforeBytes, afterBytes: folderBytes(this.dir) }
    })
  }

  /** Every file that differs between two snapshots, with its diff (see changes.ts). */
  async changes(fromTree: string, toTree: string): Promise<FileChange[]> {
    return serialized(this.dir, () => changes(this.place(), fromTree, toTree))
  }

  /**
   * Puts paths back as they are in `target`, unless the person changed any of them since `expected`: then nothing is
   * written and the conflicts say why (see restore.ts).
   */
  async restore(target: string, options: RestoreOptions): Promise<RestoreResult> {
    return serialized(this.dir, () => restore(this.place(), target, options, () => this.snapshotNow()))
  }

  /** Each path's entry before and after, between two snapshots (no rename detection: a rename is a delete and an add). */
  async rawChanges(fromTree: string, toTree: string): Promise<RawEntry[]> {
    return serialized(this.dir, () => rawDiff(this.place(), fromTree, toTree, false))
  }

  /** The entries of `paths` in a snapshot (absent: the snapshot does not hold that file). */
  async entries(tree: string, paths: string[]): Promise<Map<string, Entry>> {
    return serialized(this.dir, () => entriesOf(this.place(), tree, paths))
  }

  /**
   * Puts each path back to its own `target` entry (null: remove it), unless it is not as `expected` says now — then
   * nothing is written (all or nothing, as `restore`). What undo across turns and revert of one agent need: every
   * file has its own before and after.
   */
  async restorePaths(plans: { path: string; expected: Entry | null; target: Entry | null }[], options: { dryRun?: boolean } = {}): Promise<RestoreResult> {
    return serialized(this.dir, async () => {
      const place = this.place()
      const current = await this.snapshotNow()
      const expected = await compose(place, current, plans.map((p) => ({ path: p.path, entry: p.expected })))
      const target = await compose(place, current, plans.map((p) => ({ path: p.path, entry: p.target })))
      return restore(place, target, { expected, paths: plans.map((p) => p.path), dryRun: options.dryRun }, () => this.snapshotNow())
    })
  }

  /** The bytes of a recorded file. */
  async readEntry(entry: Entry): Promise<Buffer> {
    checkTreeId(entry.blob, 'blob')
    return serialized(this.dir, async () => (await runGit(this.place(), ['cat-file', 'blob', entry.blob])).stdout)
  }

  /** Stores bytes as a file of the store (for a restore to write): its entry, with `mode`. */
  async writeEntry(bytes: Buffer, mode: string): Promise<Entry> {
    return serialized(this.dir, async () => ({ mode, blob: (await runGit(this.place(), ['hash-object', '-w', '--no-filters', '--stdin'], { input: bytes })).stdout.toString('utf8').trim() }))
  }

  /** A snapshot that is `base` with some paths set to other entries or removed (see compose.ts). */
  async compose(base: string, overrides: Override[]): Promise<string> {
    return serialized(this.dir, () => compose(this.place(), base, overrides))
  }
}

/** Opens (creating on first use) the checkpoint store of `workspace` under `dataDir`. */
export const openCheckpoints = (options: { dataDir: string; workspace: string }): Promise<Checkpoints> => Checkpoints.open(options)

/** Every workspace's store under `dataDir`: its folder and the workspace it records (from its `workspace` file). */
export function listStores(dataDir: string): { dir: string; workspace: string | undefined; bytes: number }[] {
  const root = path.join(dataDir, 'checkpoints')
  let names: string[]
  try {
    names = fs.readdirSync(root)
  } catch (err) {
    if (isMissing(err)) return []
    throw err
  }
  return names.map((name) => {
    const dir = path.join(root, name)
    let workspace: string | undefined
    try {
      workspace = fs.readFileSync(path.join(dir, 'workspace'), 'utf8').trim() || undefined
    } catch (err) {
      if (!isMissing(err)) throw err
    }
    return { dir, workspace, bytes: folderBytes(dir) }
  })
}

function folderBytes(dir: string): number {
  let total = 0
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch (err) {
    // A pack file git removes while we walk: no longer there, so no longer counted.
    if (isMissing(err)) return 0
    throw err
  }
  for (const e of entries) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) total += folderBytes(p)
    else {
      try {
        total += fs.lstatSync(p).size
      } catch (err) {
        if (!isMissing(err)) throw err
      }
    }
  }
  return total
}

export { GitError }
