import type { Dirent } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { errnoCode } from '../files'
import { shownPath } from './workspace-path'

/** Folders no search should descend into: huge, generated, and never what the model wants — unless asked for. */
export const SKIPPED_DIRS = new Set(['.git', 'node_modules'])

/** Synchronous work between two yields to the event loop: a walk over 100,000 entries must not stall the host. */
const SLICE_MS = 4

/** Paths named in a note: the first ten, then how many more. */
export function listNames(list: string[], max = 10): string {
  return list.length > max ? `${list.slice(0, max).join(', ')} and ${list.length - max} more` : list.join(', ')
}

export interface WalkFile {
  /** the file's real path (a symbolic link is resolved to its target) */
  abs: string
  /** reached through a symbolic link (then `abs` is the target's path, not the walked one) */
  linked: boolean
  /** the path walked to it, relative to the walk base, `/`-separated */
  rel: string
  /** how the model sees it: workspace-relative, absolute when outside */
  shown: string
}

export interface WalkSummary {
  /** files handed to `visit` */
  files: number
  /** true when `visit` asked to stop or the file budget ran out */
  stopped: boolean
  /** true when the walk ended because `maxFiles` files were visited */
  exhausted: boolean
  /** directories that could not be read (permission denied), shown paths */
  unreadable: string[]
  /** symbolic links (to files or folders) whose target is outside the confinement area: skipped, shown paths */
  linksOutside: string[]
  /** entries left out by .gitignore files */
  ignored: number
}

export interface WalkOptions {
  /** the real workspace root: paths are shown relative to it, and links must stay inside it */
  root: string
  signal: AbortSignal
  maxFiles: number
  /** apply .gitignore files (from the root down to the base, and nested ones below it) */
  gitignore: boolean
  visit(file: WalkFile): Promise<boolean> | boolean
}

interface IgnoreLevel {
  dir: string
  rules: Ignore
}

function inside(area: string, abs: string): boolean {
  const rel = path.relative(area, abs)
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel))
}

async function readGitignore(dir: string): Promise<IgnoreLevel | null> {
  let text: string
  try {
    text = await fs.readFile(path.join(dir, '.gitignore'), 'utf8')
  } catch (e) {
    const code = errnoCode(e)
    // No .gitignore here (or a folder named so, or one we may not read): nothing to apply.
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES' || code === 'ENOTDIR') return null
    throw e
  }
  return { dir, rules: ignore().add(text) }
}

function ignoredBy(levels: IgnoreLevel[], abs: string, isDir: boolean): boolean {
  for (const level of levels) {
    const rel = path.relative(level.dir, abs).split(path.sep).join('/')
    if (rel && !rel.startsWith('..') && level.rules.ignores(isDir ? `${rel}/` : rel)) return true
  }
  return false
}

/**
 * The .gitignore levels in force at `base`: the root's and every folder's down to it. A base that those rules ignore
 * was asked for explicitly (grep path: "dist"), so it is searched whole, minus its own nested .gitignore files.
 */
async function levelsAbove(root: string, base: string): Promise<IgnoreLevel[]> {
  if (!inside(root, base)) return [await readGitignore(base)].filter((l): l is IgnoreLevel => l !== null)
  const dirs = [root]
  for (const part of path.relative(root, base).split(path.sep).filter(Boolean)) dirs.push(path.join(dirs[dirs.length - 1], part))
  const levels = (await Promise.all(dirs.map(readGitignore))).filter((l): l is IgnoreLevel => l !== null)
  const above = levels.filter((l) => l.dir !== base)
  return ignoredBy(above, base, true) ? levels.filter((l) => l.dir === base) : levels
}

/**
 * Depth-first walk of the regular files under the real folder `base`, entries sorted by name. Skips SKIPPED_DIRS
 * (unless the base is inside one), .gitignore'd entries (when asked), and links that leave the confinement area
 * (the workspace; or the base itself when it lies outside the workspace) — those are reported. Links to folders
 * inside are not followed (they can loop and would repeat files); links to files inside are visited at their
 * real path. Yields to the event loop every few milliseconds.
 */
export async function walkFiles(base: string, opts: WalkOptions): Promise<WalkSummary> {
  const summary: WalkSummary = { files: 0, stopped: false, exhausted: false, unreadable: [], linksOutside: [], ignored: 0 }
  const area = inside(opts.root, base) ? opts.root : base
  const baseParts = new Set(path.relative(opts.root, base).split(path.sep))
  const skipped = [...SKIPPED_DIRS].filter((d) => !baseParts.has(d))
  let sliceStart = performance.now()
  const breathe = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve))
    sliceStart = performance.now()
  }
  // Shown paths are built as the walk descends (no path.relative per file): workspace-relative, absolute outside it.
  const baseShown = shownPath(opts.root, base)
  const shownIn = (dirShown: string, name: string) =>
    dirShown === '.' ? name : path.isAbsolute(dirShown) ? path.join(dirShown, name) : `${dirShown}/${name}`

  const walkDir = async (dirAbs: string, dirRel: string, dirShown: string, levels: IgnoreLevel[]): Promise<void> => {
    let entries: Dirent[]
    try {
      entries = await fs.readdir(dirAbs, { withFileTypes: true })
    } catch (e) {
      const code = errnoCode(e)
      // A folder we may not read, or one deleted mid-walk, is reported, not fatal.
      if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'ENOTDIR') {
        summary.unreadable.push(dirShown)
        return
      }
      throw e
    }
    // Only a folder that lists a .gitignore is asked for one: no failed open per folder.
    if (opts.gitignore && dirAbs !== base && entries.some((e) => e.name === '.gitignore')) {
      const own = await readGitignore(dirAbs)
      if (own) levels = [...levels, own]
    }
    entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    for (const entry of entries) {
      if (summary.stopped) return
      opts.signal.throwIfAborted()
      if (performance.now() - sliceStart >= SLICE_MS) await breathe()
      const abs = path.join(dirAbs, entry.name)
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name
      const shown = shownIn(dirShown, entry.name)
      if (entry.isDirectory()) {
        if (skipped.includes(entry.name)) continue
        if (opts.gitignore && ignoredBy(levels, abs, true)) {
          summary.ignored++
          continue
        }
        await walkDir(abs, rel, shown, levels)
        continue
      }
      let real = abs
      if (entry.isSymbolicLink()) {
        const target = await linkTarget(abs)
        if (!target) continue
        if (!inside(area, target.real)) {
          summary.linksOutside.push(shown)
          continue
        }
        if (!target.isFile) continue
        real = target.real
      } else if (!entry.isFile()) continue
      if (opts.gitignore && ignoredBy(levels, abs, false)) {
        summary.ignored++
        continue
      }
      if (summary.files >= opts.maxFiles) {
        summary.stopped = true
        summary.exhausted = true
        return
      }
      summary.files++
      // Most visits answer at once; awaiting only a promise keeps a walk of 100,000 files from queueing as many ticks.
      const next = opts.visit({ abs: real, linked: real !== abs, rel, shown })
      if (!(next instanceof Promise ? await next : next)) summary.stopped = true
    }
  }

  await walkDir(base, '', baseShown, opts.gitignore ? await levelsAbove(opts.root, base) : [])
  return summary
}

/** Where a symbolic link leads (real path), or null for a dangling one: it points at nothing to search. */
async function linkTarget(abs: string): Promise<{ real: string; isFile: boolean } | null> {
  try {
    const real = await fs.realpath(abs)
    return { real, isFile: (await fs.stat(real)).isFile() }
  } catch (e) {
    const code = errnoCode(e)
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return null
    throw e
  }
}
