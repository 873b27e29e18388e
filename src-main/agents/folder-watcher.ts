import fs from 'node:fs'
import path from 'node:path'
import { isMissing } from '../files'

/**
 * Watches an agents folder that may not exist yet, e.g. `{workdir}/.agents/agents`.
 *
 * Every existing level from `root` down to `target` gets an `fs.watch`; a parent level only
 * reacts to its child's name, so a folder created (or deleted and re-created) later is picked
 * up by re-arming the levels below. The target and each of its subfolders react to `.md` names
 * and to subfolders appearing or going.
 *
 * Watching is best effort — it only makes changes show up promptly and drives `onChange`.
 * Correctness never depends on it: the folder cache re-checks a readdir+mtime signature on
 * every resolve, which also covers file systems where `fs.watch` is unreliable.
 */
export class FolderWatcher {
  private readonly chain: string[]
  private readonly watchers: (fs.FSWatcher | undefined)[]
  private closed = false
  /**
   * The first missing level while its parent level is watched: the parent's watcher re-arms when it appears,
   * so arm() need not retry. Retrying meant a failing fs.watch (an ENOENT exception) on every resolve(), which
   * runs for every prompt and subagent spawn.
   */
  private waitingAt: number | undefined
  /** watchers of the target's subfolders, by path */
  private readonly subfolders = new Map<string, fs.FSWatcher>()

  constructor(
    root: string,
    target: string,
    private readonly onChange: () => void,
  ) {
    const rel = path.relative(root, target)
    const parts = rel ? rel.split(path.sep) : []
    this.chain = [root, ...parts.map((_, i) => path.join(root, ...parts.slice(0, i + 1)))]
    this.watchers = this.chain.map(() => undefined)
  }

  /** Starts watching every level that exists and is not watched yet. Cheap to call often. */
  arm(): void {
    if (this.closed || this.waitingAt !== undefined) return
    for (let level = 0; level < this.chain.length; level++) {
      if (this.watchers[level]) continue
      const watcher = this.watch(level)
      if (watcher === 'missing') {
        // This level does not exist, so none below it can.
        if (level > 0 && this.watchers[level - 1]) this.waitingAt = level
        return
      }
      if (watcher !== 'unwatchable') this.watchers[level] = watcher
    }
  }

  close(): void {
    this.closed = true
    this.closeFrom(0)
  }

  private watch(level: number): fs.FSWatcher | 'missing' | 'unwatchable' {
    const dir = this.chain[level]
    const isTarget = level === this.chain.length - 1
    const child = isTarget ? undefined : path.basename(this.chain[level + 1])
    let watcher: fs.FSWatcher
    try {
      // persistent: false — a CLI run must be able to exit while the registry is alive.
      watcher = fs.watch(dir, { persistent: false }, (_event, filename) => {
        const name = filename === null ? null : String(filename)
        if (isTarget) return this.onTargetEvent(name)
        if (name !== null && name !== child) return
        // The child folder appeared, vanished or was replaced: watch the new one.
        this.closeFrom(level + 1)
        this.waitingAt = undefined
        this.arm()
        this.onChange()
      })
    } catch (err) {
      // ENOENT/ENOTDIR: the folder does not exist (yet); the parent level reports its creation.
      // Anything else (ENOSPC: inotify limit, EACCES, EMFILE) leaves this level unwatched; the
      // signature check on resolve still sees every change, only onChange stays silent.
      return isMissing(err) ? 'missing' : 'unwatchable'
    }
    watcher.on('error', () => {
      // The watched folder went away under us (reported as an error on some platforms).
      // Drop this level; the next arm() re-creates it if the folder is back.
      this.closeFrom(level)
      this.onChange()
    })
    if (isTarget) this.armSubfolders()
    return watcher
  }

  /** In the target or one of its subfolders: a manifest changed, or a name without an extension (a subfolder?). */
  private onTargetEvent(name: string | null): void {
    if (name !== null && name.endsWith('.md')) return this.onChange()
    this.armSubfolders()
    this.onChange()
  }

  /**
   * Agent files may sit in subfolders (`.claude/agents/team/x.md`): each existing subfolder gets a watcher of its
   * own. Not `fs.watch(…, {recursive: true})`: on Linux that adds an inotify watch and a stat for every file.
   */
  private armSubfolders(): void {
    const target = this.chain[this.chain.length - 1]
    let dirs: string[]
    try {
      dirs = fs
        .readdirSync(target, { withFileTypes: true, recursive: true })
        .filter((e) => e.isDirectory())
        .map((e) => path.join(e.parentPath, e.name))
    } catch (err) {
      // The target itself is gone: its own watcher reports that and the next arm() starts over.
      if (isMissing(err)) dirs = []
      else throw err
    }
    const wanted = new Set(dirs)
    for (const [dir, w] of this.subfolders) {
      if (wanted.has(dir)) continue
      w.close()
      this.subfolders.delete(dir)
    }
    for (const dir of wanted) {
      if (this.subfolders.has(dir)) continue
      try {
        const w = fs.watch(dir, { persistent: false }, (_event, filename) => this.onTargetEvent(filename === null ? null : String(filename)))
        w.on('error', () => {
          w.close()
          this.subfolders.delete(dir)
          this.onChange()
        })
        this.subfolders.set(dir, w)
      } catch (err) {
        // Gone since the listing, or a watch limit: the signature check on resolve still sees every change.
        if (!(err instanceof Error && 'code' in err)) throw err
      }
    }
  }

  private closeFrom(level: number): void {
    // The parent of the level we wait for is going away: only arm() can notice the folder now.
    if (this.waitingAt !== undefined && level < this.waitingAt) this.waitingAt = undefined
    for (let i = level; i < this.watchers.length; i++) {
      this.watchers[i]?.close()
      this.watchers[i] = undefined
    }
    for (const w of this.subfolders.values()) w.close()
    this.subfolders.clear()
  }
}
