import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { errnoText, isMissing } from '../files'
import { changes, checkTreeId, type FileChange } from './changes'
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
    checkKey(key)
    checkTreeId(tree, 'tree')
    return serialized(this.dir, async () => {
      const place = this.place()
      // A commit, not the tree itself: refs to commits are what every git tool expects, and it records when.
      const commit = (await runGit(place, ['commit-tree', tree, '-m', key])).stdout.toString('utf8').trim()
      await runGit(place, ['update-ref', `refs/checkpoints/${key}`, commit])
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
    const { stdout } = await runGit(this.place(), ['for-each-ref', '--format=%(refname)%00%(tree)', pattern])
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
   * rest. Returns the store's size before and after.
   */
  prune(): Promise<{ beforeBytes: number; afterBytes: number }> {
    return serialized(this.dir, async () => {
      const beforeBytes = folderBytes(this.dir)
      await runGit(this.place(), ['gc', '--quiet', '--prune=now'])
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
}

/** Opens (creating on first use) the checkpoint store of `workspace` under `dataDir`. */
export const openCheckpoints = (options: { dataDir: string; workspace: string }): Promise<Checkpoints> => Checkpoints.open(options)

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
