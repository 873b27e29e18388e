import type { Dirent } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { statIfExists } from './text-file'
import { defineTool, ToolError } from './tool'
import { pathAsk, pathSubject, resolveWorkspacePath } from './workspace-path'

export const MAX_LIST_ENTRIES = 1_000

export const ListDirParameters = z.object({
  path: z.string().min(1).optional().describe('Folder to list, relative to the workspace root. Default: the workspace root.'),
})

const description = `List the entries of one folder (not recursive). Folders end with "/", folders first, then files, each sorted by name.
Shows at most ${MAX_LIST_ENTRIES} entries. Use glob to find files by name pattern across folders.`

async function isDirEntry(dir: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true
  if (!entry.isSymbolicLink()) return false
  // A symlink to a folder reads as a folder; a dangling one as a file-like entry.
  const target = await statIfExists(path.join(dir, entry.name))
  return target?.isDirectory() ?? false
}

export const listDirTool = defineTool({
  name: 'list_dir',
  description,
  parameters: ListDirParameters,
  permission(input, ctx) {
    return pathAsk(resolveWorkspacePath(ctx.workdir, input.path ?? '.'))
  },
  async execute(input, ctx) {
    const target = resolveWorkspacePath(ctx.workdir, input.path ?? '.')
    const shown = pathSubject(target)
    const stat = await statIfExists(target.abs)
    if (!stat) throw new ToolError(`Folder not found: ${shown}. List its parent folder to see what exists.`)
    if (!stat.isDirectory()) throw new ToolError(`${shown} is a file, not a folder; use read_file to read it.`)

    const entries = await fs.readdir(target.abs, { withFileTypes: true })
    const dirs: string[] = []
    const files: string[] = []
    for (const entry of entries) {
      if (await isDirEntry(target.abs, entry)) dirs.push(`${entry.name}/`)
      else files.push(entry.name)
    }
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    const all = [...dirs.sort(byName), ...files.sort(byName)]
    if (all.length === 0) return { output: `(${shown} is empty)`, metadata: { path: shown, count: 0 } }
    const shownEntries = all.slice(0, MAX_LIST_ENTRIES)
    const note =
      all.length > MAX_LIST_ENTRIES
        ? `\n… ${all.length - MAX_LIST_ENTRIES} more entries not shown (${all.length} in total); use glob with a narrower pattern.`
        : ''
    return { output: `${shownEntries.join('\n')}${note}`, metadata: { path: shown, count: all.length } }
  },
})
