import type { Dirent } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { errnoCode } from '../files'
import { statIfExists } from './text-file'
import { defineTool, ToolError } from './tool'
import { listNames } from './walk'
import { fileReadAsk, pathAsk, pathSubject, resolveForCall, resolveWorkspacePath, type WorkspacePath } from './workspace-path'

export const MAX_LIST_ENTRIES = 1_000

export const ListDirParameters = z.object({
  path: z.string().min(1).optional().describe('Folder to list, relative to the workspace root. Default: the workspace root.'),
})

const description = `List the entries of one folder (not recursive). Folders end with "/", folders first, then files, each sorted by name.
Shows at most ${MAX_LIST_ENTRIES} entries. Files you may not read with read_file, and symbolic links pointing outside the workspace, are left out and named in a note.
Use glob to find files by name pattern across folders.`

type Kind = 'dir' | 'file' | 'denied' | 'outside'

/** What one entry is for the listing; links are judged by their real target, like read_file would. */
async function classify(dir: string, entry: Dirent, area: string, denied: (abs: string) => boolean): Promise<Kind> {
  if (entry.isDirectory()) return 'dir'
  const abs = path.join(dir, entry.name)
  if (!entry.isSymbolicLink()) return denied(abs) ? 'denied' : 'file'
  let real: string
  try {
    real = await fs.realpath(abs)
  } catch (e) {
    const code = errnoCode(e)
    // A dangling (or looping) link points at nothing: shown as a plain entry, reading it will say so.
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return 'file'
    throw e
  }
  const rel = path.relative(area, real)
  if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) return 'outside'
  if ((await statIfExists(real))?.isDirectory()) return 'dir'
  return denied(real) ? 'denied' : 'file'
}

export const listDirTool = defineTool({
  name: 'list_dir',
  description,
  parameters: ListDirParameters,
  permission(input, ctx) {
    return pathAsk(resolveForCall(input, ctx.workdir, input.path ?? '.'))
  },
  async execute(input, ctx) {
    const root = resolveWorkspacePath(ctx.workdir, '.').abs
    const target: WorkspacePath = resolveForCall(input, ctx.workdir, input.path ?? '.')
    const shown = pathSubject(target)
    const stat = await statIfExists(target.abs)
    if (!stat) throw new ToolError(`Folder not found: ${shown}. List its parent folder to see what exists.`)
    if (!stat.isDirectory()) throw new ToolError(`${shown} is a file, not a folder; use read_file to read it.`)

    const entries = await fs.readdir(target.abs, { withFileTypes: true })
    // Links must stay in the workspace; in a folder outside it (allowed by a rule), in that folder.
    const area = target.outside ? target.abs : root
    // A name is not content: a file whose read would ask is listed; one the rules deny is left out.
    const denied = (abs: string) => ctx.checkRules(fileReadAsk(root, abs)) === 'deny'
    const dirs: string[] = []
    const files: string[] = []
    const leftOut: Record<'denied' | 'outside', string[]> = { denied: [], outside: [] }
    for (const entry of entries) {
      const kind = await classify(target.abs, entry, area, denied)
      if (kind === 'dir') dirs.push(`${entry.name}/`)
      else if (kind === 'file') files.push(entry.name)
      else leftOut[kind].push(entry.name)
    }
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    const all = [...dirs.sort(byName), ...files.sort(byName)]
    const notes: string[] = []
    if (leftOut.denied.length) notes.push(`Left out, the rules do not let you read them: ${listNames(leftOut.denied.sort(byName))}.`)
    if (leftOut.outside.length) notes.push(`Left out, symbolic links pointing outside the workspace: ${listNames(leftOut.outside.sort(byName))}.`)
    const metadata = { path: shown, count: all.length }
    if (all.length === 0) return { output: [notes.length ? `(nothing to show in ${shown})` : `(${shown} is empty)`, ...notes].join('\n'), metadata }
    const shownEntries = all.slice(0, MAX_LIST_ENTRIES)
    if (all.length > MAX_LIST_ENTRIES) {
      notes.unshift(`… ${all.length - MAX_LIST_ENTRIES} more entries not shown (${all.length} in total); use glob with a narrower pattern.`)
    }
    return { output: [...shownEntries, ...notes].join('\n'), metadata }
  },
})
