import os from 'node:os'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { HostError } from '../../src-shared'
import { readTextIfPresent } from '../files'

const Recent = z.array(z.object({ root: z.string(), lastOpenedAt: z.number() }))
const MAX_RECENT = 20

/** Recently opened workspace folders, kept in `{dataDir}/workspaces.json`. */
export class Workspaces {
  private readonly file: string

  constructor(
    dataDir: string,
    readonly defaultRoot: string,
  ) {
    this.file = path.join(dataDir, 'workspaces.json')
  }

  recent(): z.infer<typeof Recent> {
    const text = readTextIfPresent(this.file)
    if (text === undefined) return []
    const parsed = Recent.safeParse(safeJson(text))
    if (!parsed.success) {
      console.error(`[agentry] ${this.file} is not a valid recent-workspaces list; starting a new one.`)
      return []
    }
    return parsed.data
  }

  /** Validates the folder (exists, is a directory) and records it; returns its real path. */
  open(root: string): string {
    const real = this.realFolder(root)
    const list = [{ root: real, lastOpenedAt: Date.now() }, ...this.recent().filter((r) => r.root !== real)].slice(0, MAX_RECENT)
    fs.writeFileSync(this.file, JSON.stringify(list, null, 2))
    return real
  }

  /**
   * Folders for a path being typed: the entries of its folder whose names start with its last part (case-insensitive),
   * folders only, hidden ones only when the part starts with a dot; at most 50. `~` is the host's home. A folder that
   * cannot be read lists nothing (the person is still typing: not an error).
   */
  complete(partial: string, home = os.homedir()): string[] {
    const typed = partial.startsWith('~') ? path.join(home, partial.slice(1)) : partial
    if (!path.isAbsolute(typed)) return []
    const dir = typed.endsWith(path.sep) ? typed : path.dirname(typed)
    const start = typed.endsWith(path.sep) ? '' : path.basename(typed).toLowerCase()
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true })
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM') return []
      throw err
    }
    const isFolder = (e: fs.Dirent) => e.isDirectory() || (e.isSymbolicLink() && statIsDir(path.join(dir, e.name)))
    return entries
      .filter((e) => e.name.toLowerCase().startsWith(start) && (start.startsWith('.') || !e.name.startsWith('.')) && isFolder(e))
      .map((e) => path.join(dir, e.name) + path.sep)
      .sort((a, b) => a.localeCompare(b))
      .slice(0, 50)
  }

  /** The real path of an existing folder (not recorded as opened). */
  realFolder(root: string): string {
    let real: string
    try {
      real = fs.realpathSync(path.resolve(root))
    } catch {
      throw new HostError('not_found', `Folder ${root} does not exist. Pick an existing folder.`)
    }
    if (!fs.statSync(real).isDirectory()) throw new HostError('invalid_request', `${root} is a file, not a folder. Pick a folder.`)
    return real
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function statIsDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory()
  } catch (err) {
    // A dangling link is not a folder to offer.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw err
  }
}
