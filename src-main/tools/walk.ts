import type { Dirent } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { errorCode } from './text-file'

/** Folders no search should descend into: huge, generated, and never what the model wants. */
export const SKIPPED_DIRS = new Set(['.git', 'node_modules'])

export interface WalkFile {
  abs: string
  /** relative to the walk base, `/`-separated */
  rel: string
}

export interface WalkSummary {
  /** files handed to `visit` */
  files: number
  /** true when `visit` asked to stop or the file budget ran out */
  stopped: boolean
  /** true when the walk ended because `maxFiles` files were visited */
  exhausted: boolean
  /** directories that could not be read (permission denied), relative to the base */
  unreadable: string[]
}

/**
 * Depth-first walk of the regular files under `base`, entries sorted by name, skipping
 * SKIPPED_DIRS. Symlinked directories are not followed (they can loop or leave the
 * workspace); symlinked files are reported like files.
 */
export async function walkFiles(
  base: string,
  opts: { signal: AbortSignal; maxFiles: number; visit(file: WalkFile): Promise<boolean> | boolean },
): Promise<WalkSummary> {
  const summary: WalkSummary = { files: 0, stopped: false, exhausted: false, unreadable: [] }

  const walkDir = async (dirAbs: string, dirRel: string): Promise<void> => {
    let entries: Dirent[]
    try {
      entries = await fs.readdir(dirAbs, { withFileTypes: true })
    } catch (e) {
      const code = errorCode(e)
      // A folder we may not read, or one deleted mid-walk, is reported, not fatal.
      if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT') {
        summary.unreadable.push(dirRel || '.')
        return
      }
      throw e
    }
    entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    for (const entry of entries) {
      if (summary.stopped) return
      opts.signal.throwIfAborted()
      const abs = path.join(dirAbs, entry.name)
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) await walkDir(abs, rel)
        continue
      }
      let isFile = entry.isFile()
      if (entry.isSymbolicLink()) {
        const target = await fs.stat(abs).catch((e: unknown) => {
          // A dangling link points at nothing to search.
          if (errorCode(e) === 'ENOENT') return null
          throw e
        })
        isFile = target?.isFile() ?? false
      }
      if (!isFile) continue
      if (summary.files >= opts.maxFiles) {
        summary.stopped = true
        summary.exhausted = true
        return
      }
      summary.files++
      if (!(await opts.visit({ abs, rel }))) summary.stopped = true
    }
  }

  await walkDir(base, '')
  return summary
}
