import fs from 'node:fs/promises'
import { z } from 'zod'
import { isBinaryFile, statIfExists } from './text-file'
import { defineTool, ToolError } from './tool'
import { pathAsk, pathSubject, resolveWorkspacePath } from './workspace-path'

export const DEFAULT_READ_LINES = 2_000
const MAX_LINE_CHARS = 2_000
/** Kept under runTool's 30,000-char cap so a read is paged with offset, never truncated. */
const MAX_READ_CHARS = 28_000
const MAX_FILE_BYTES = 50 * 1024 * 1024

export const ReadFileParameters = z.object({
  path: z.string().min(1).describe('File to read, relative to the workspace root (absolute paths outside it need permission).'),
  offset: z.number().int().min(1).optional().describe('1-based line number to start at. Default 1.'),
  limit: z.number().int().min(1).optional().describe(`Maximum number of lines to return. Default ${DEFAULT_READ_LINES}.`),
})

const description = `Read a text file from the workspace. Returns lines prefixed with their 1-based line number and a tab (the number and tab are not part of the file).
- Reads the first ${DEFAULT_READ_LINES} lines by default; use offset and limit to page through longer files. The footer says which lines you got and where to continue.
- Lines longer than ${MAX_LINE_CHARS} characters are cut. Binary files are refused.
- Read a file before editing it so edit_file's old_string matches exactly.
- Also reads the saved full output of a truncated tool result (the path given in the truncation note).`

export const readFileTool = defineTool({
  name: 'read_file',
  description,
  parameters: ReadFileParameters,
  permission(input, ctx) {
    const target = resolveWorkspacePath(ctx.workdir, input.path)
    // Truncated tool output lives outside the workspace but is the model's own earlier result.
    if (!resolveWorkspacePath(ctx.overflowDir, target.abs).outside) return null
    return pathAsk(target)
  },
  async execute(input, ctx) {
    const target = resolveWorkspacePath(ctx.workdir, input.path)
    const shown = pathSubject(target)
    const stat = await statIfExists(target.abs)
    if (!stat) throw new ToolError(`File not found: ${shown}. Use list_dir or glob to find the right path.`)
    if (stat.isDirectory()) throw new ToolError(`${shown} is a directory; use list_dir to see its entries.`)
    if (stat.size > MAX_FILE_BYTES) {
      throw new ToolError(
        `${shown} is ${stat.size} bytes, too large to read whole; search it with grep or view a slice with bash (e.g. sed -n '1,200p').`,
      )
    }
    if (await isBinaryFile(target.abs)) {
      throw new ToolError(`${shown} looks like a binary file (${stat.size} bytes); read_file only reads text.`)
    }
    const text = await fs.readFile(target.abs, 'utf8')
    if (text === '') return { output: `(${shown} is empty)`, metadata: { path: shown, lines: 0 } }

    const lines = text.split('\n')
    if (lines[lines.length - 1] === '') lines.pop()
    const total = lines.length
    const offset = input.offset ?? 1
    if (offset > total) throw new ToolError(`offset ${offset} is past the end of ${shown}, which has ${total} lines.`)
    const limit = input.limit ?? DEFAULT_READ_LINES
    const end = Math.min(total, offset - 1 + limit)

    const out: string[] = []
    let chars = 0
    let last = offset - 1
    for (let i = offset - 1; i < end; i++) {
      const raw = lines[i]
      const line = raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} chars]` : raw
      const numbered = `${String(i + 1).padStart(6)}\t${line}`
      if (chars + numbered.length > MAX_READ_CHARS && out.length > 0) break
      out.push(numbered)
      chars += numbered.length + 1
      last = i + 1
    }
    const footer =
      last < total
        ? `(lines ${offset}-${last} of ${total}; continue with offset ${last + 1})`
        : `(lines ${offset}-${last} of ${total}; end of file)`
    return { output: `${out.join('\n')}\n${footer}`, metadata: { path: shown, lines: last - offset + 1, totalLines: total } }
  },
})
