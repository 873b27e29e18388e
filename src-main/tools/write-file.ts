import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { unifiedDiff } from './diff'
import { isBinaryFile, statIfExists } from './text-file'
import { defineTool, ToolError } from './tool'
import { pathAsk, pathSubject, resolveWorkspacePath, type WorkspacePath } from './workspace-path'

export const WriteFileParameters = z.object({
  path: z.string().min(1).describe('File to write, relative to the workspace root. Missing parent folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
})

const description = `Create a file or replace its whole content.
- Parent folders are created as needed.
- This overwrites the file: to change part of an existing file, prefer edit_file, and read the file first.
- Write the complete content; nothing of the old file is kept.`

function countLines(text: string): number {
  if (text === '') return 0
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length
}

/** The current text of the target ('' stands in for a binary file), or null when it does not exist yet. */
async function currentContent(target: WorkspacePath, shown: string): Promise<string | null> {
  const stat = await statIfExists(target.abs)
  if (!stat) return null
  if (stat.isDirectory()) throw new ToolError(`${shown} is a directory; give a file path to write.`)
  if (await isBinaryFile(target.abs)) return ''
  return fs.readFile(target.abs, 'utf8')
}

export const writeFileTool = defineTool({
  name: 'write_file',
  description,
  parameters: WriteFileParameters,
  permission(input, ctx) {
    return pathAsk(resolveWorkspacePath(ctx.workdir, input.path), 'write')
  },
  async display(input, ctx) {
    const target = resolveWorkspacePath(ctx.workdir, input.path)
    const shown = pathSubject(target)
    const old = await currentContent(target, shown)
    const lines = countLines(input.content)
    const summary = old === null ? `Create ${shown} (${lines} lines)` : `Overwrite ${shown} (${countLines(old)} → ${lines} lines)`
    return { summary, diff: unifiedDiff(old ?? '', input.content, shown) }
  },
  async execute(input, ctx) {
    const target = resolveWorkspacePath(ctx.workdir, input.path)
    const shown = pathSubject(target)
    const old = await currentContent(target, shown)
    await fs.mkdir(path.dirname(target.abs), { recursive: true })
    await fs.writeFile(target.abs, input.content)
    const lines = countLines(input.content)
    const output =
      old === null
        ? `Created ${shown} (${lines} lines).`
        : old === input.content
          ? `${shown} already had exactly this content; nothing changed.`
          : `Overwrote ${shown} (${countLines(old)} → ${lines} lines).`
    return { output, metadata: { path: shown, created: old === null, diff: unifiedDiff(old ?? '', input.content, shown) } }
  },
})
