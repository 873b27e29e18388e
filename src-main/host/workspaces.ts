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
