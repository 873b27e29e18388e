import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Ruleset } from '../permissions'

/**
 * The scratchpad (seed 003): one folder per conversation (root session), outside the workspace and outside every
 * protected path, where every agent of the conversation reads and writes notes without asking — a child writes its
 * findings, a sibling reads them. Sandboxed bash may write there too. It is removed when the conversation is
 * archived or deleted.
 *
 * It lives in the system temp folder, in a folder of this person's own (mode 0700) per data dir: the data dir itself
 * is protected and hidden from bash. A base folder that is a link, another user's, or open to others is refused.
 */
export class Scratchpads {
  /** the folder every scratchpad of this data dir is in */
  readonly base: string

  constructor(dataDir: string, tmp = os.tmpdir()) {
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0
    const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12)
    this.base = path.join(tmp, `agentry-scratch-${uid}-${id}`)
  }

  /** The conversation's scratchpad (its real path), made if needed; throws when the base folder is not safe to use. */
  open(rootSessionId: string): string {
    this.ensureBase()
    const dir = path.join(this.base, rootSessionId)
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    return fs.realpathSync(dir)
  }

  /** The conversation's scratchpad folder, whether or not it exists. */
  pathOf(rootSessionId: string): string {
    return path.join(this.base, rootSessionId)
  }

  /** Removes a conversation's scratchpad (archived or deleted). */
  remove(rootSessionId: string): void {
    fs.rmSync(this.pathOf(rootSessionId), { recursive: true, force: true })
  }

  /** Scratchpads of conversations that are gone (deleted, or archived while this host was not running). */
  sweep(keep: (rootSessionId: string) => boolean): string[] {
    let names: string[]
    try {
      names = fs.readdirSync(this.base)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
    const removed = names.filter((n) => n.startsWith('ses_') && !keep(n))
    for (const n of removed) this.remove(n)
    return removed
  }

  private ensureBase(): void {
    try {
      fs.mkdirSync(this.base, { mode: 0o700 })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    const st = fs.lstatSync(this.base)
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
    if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`the scratchpad folder ${this.base} is not a plain folder; remove it`)
    if (uid !== undefined && st.uid !== uid) throw new Error(`the scratchpad folder ${this.base} belongs to another user; remove it`)
    if ((st.mode & 0o077) !== 0) fs.chmodSync(this.base, 0o700)
  }
}

/** File tools whose paths the scratchpad opens. */
const FILE_TOOLS = ['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep']

/**
 * The scratchpad as rules of the runtime layer: reading and writing in it is allowed without asking. Like every
 * runtime rule it never lifts a deny of the agent's or the person's rules (an agent without write_file still cannot
 * write there).
 */
export function scratchpadRules(dir: string | undefined): Ruleset {
  if (!dir) return []
  return FILE_TOOLS.flatMap((tool) => [
    { tool, pattern: dir, action: 'allow' as const },
    { tool, pattern: `${dir}/**`, action: 'allow' as const },
  ])
}
