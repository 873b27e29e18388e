import { z } from 'zod'
import { openConfinedForRead } from './confined-fs'
import { editorReadText } from './editor-text'
import { looksBinary, statIfExists } from './text-file'
import { defineTool, ToolError, type ToolContext } from './tool'
import { TOOL_OUTPUT_SCHEME, toolOutputName } from './truncate'
import { pathAsk, pathSubject, resolveForCall, resolveWorkspacePath } from './workspace-path'

export const DEFAULT_READ_LINES = 2_000
const MAX_LINE_CHARS = 2_000
/** Kept under runTool's 30,000-char cap so a read is paged with offset, never truncated. */
const MAX_READ_CHARS = 28_000
const MAX_FILE_BYTES = 50 * 1024 * 1024

export const ReadFileParameters = z.object({
  path: z.string().min(1).describe('File to read, relative to the workspace root (paths outside it work only where the user\'s rules allow them).'),
  offset: z.number().int().min(1).optional().describe('1-based line number to start at. Default 1.'),
  limit: z.number().int().min(1).optional().describe(`Maximum number of lines to return. Default ${DEFAULT_READ_LINES}.`),
})

const description = `Read a text file from the workspace. Returns lines prefixed with their 1-based line number and a tab (the number and tab are not part of the file).
- Reads the first ${DEFAULT_READ_LINES} lines by default; use offset and limit to page through longer files. The footer says which lines you got and where to continue.
- Lines longer than ${MAX_LINE_CHARS} characters are cut. Binary files are refused.
- Read a file before you edit it: an edit must match its text exactly.
- Also reads the saved full output of a truncated tool result: pass its ${TOOL_OUTPUT_SCHEME}… reference (given in the truncation note) as path.`

export const readFileTool = defineTool({
  name: 'read_file',
  description,
  parameters: ReadFileParameters,
  permission(input, ctx) {
    // A saved output is judged under read_file's rules by its reference, like any file.
    if (input.path.startsWith(TOOL_OUTPUT_SCHEME)) return { kind: 'path', subjects: [input.path], access: 'read' }
    return pathAsk(resolveForCall(input, ctx.workdir, input.path))
  },
  async execute(input, ctx) {
    const { abs, shown } = readTarget(input, ctx)
    const stat = await statIfExists(abs)
    if (!stat) throw new ToolError(`File not found: ${shown}. Use list_dir or glob to find the right path.`)
    if (stat.isDirectory()) throw new ToolError(`${shown} is a directory; use list_dir to see its entries.`)
    if (stat.size > MAX_FILE_BYTES) {
      throw new ToolError(
        `${shown} is ${stat.size} bytes, too large to read whole; search it with grep or view a slice with bash (e.g. sed -n '1,200p').`,
      )
    }
    // An editor driving the conversation shows its unsaved buffer (a saved output is ours, never the editor's).
    const fromEditor = input.path.startsWith(TOOL_OUTPUT_SCHEME) ? undefined : await editorReadText(ctx.editorFiles, abs, shown, 'read_file')
    const text = fromEditor ?? (await readLocal(abs, shown))
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

/** The checked file's text from disk: opened once and proven, so a link swapped in since the check cannot redirect it. */
async function readLocal(abs: string, shown: string): Promise<string> {
  const handle = await openConfinedForRead(abs, shown)
  let bytes: Buffer
  try {
    if ((await handle.stat()).size > MAX_FILE_BYTES) throw new ToolError(`${shown} grew past ${MAX_FILE_BYTES} bytes while being read; search it with grep instead.`)
    bytes = await handle.readFile()
  } finally {
    await handle.close()
  }
  if (looksBinary(bytes.subarray(0, 8_192))) {
    throw new ToolError(`${shown} looks like a binary file (${bytes.length} bytes); read_file only reads text.`)
  }
  return bytes.toString('utf8')
}

/**
 * The real file a read_file path names. A `tool-output://NAME` reference resolves only in the calling session's own
 * folder, so another session's saved output cannot be named at all; an absolute path into the data dir is an ordinary
 * path outside the workspace.
 */
function readTarget(input: { path: string }, ctx: ToolContext): { abs: string; shown: string } {
  const p = input.path
  if (!p.startsWith(TOOL_OUTPUT_SCHEME)) {
    const target = resolveForCall(input, ctx.workdir, p)
    return { abs: target.abs, shown: pathSubject(target) }
  }
  const name = toolOutputName(p)
  if (!name) throw new ToolError(`${p} is not a saved tool output reference; copy the reference from the truncation note exactly.`)
  const saved = resolveWorkspacePath(ctx.overflowDir, name)
  if (saved.outside) throw new ToolError(`${p} does not point into this session's saved tool output.`)
  return { abs: saved.abs, shown: p }
}
