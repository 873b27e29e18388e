import { z } from 'zod'
import { readConfined, writeConfined } from './confined-fs'
import { unifiedDiff } from './diff'
import { looksBinary, statIfExists } from './text-file'
import { editorReadText, editorWriteText } from './editor-text'
import { defineTool, ToolError, type EditorFiles } from './tool'
import { hardLinkNote } from './write-file'
import { pathAsk, pathSubject, resolveForCall } from './workspace-path'

const MAX_DIFF_CHARS = 6_000

export const EditFileParameters = z.object({
  path: z.string().min(1).describe('File to edit, relative to the workspace root.'),
  old_string: z.string().describe('Exact text to replace, copied from the file including whitespace and indentation (without read_file line numbers).'),
  new_string: z.string().describe('Text to put in its place.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one. Default false.'),
})
type EditInput = z.infer<typeof EditFileParameters>

const description = `Replace an exact string in a file.
- old_string must match the file exactly (whitespace and indentation included) and, unless replace_all is true, exactly once; add surrounding lines to make it unique.
- If it matches nothing or more than once the file is left unchanged and the error says why.
- Read the file with read_file first. To create a file or rewrite it entirely, use write_file.
- Returns a unified diff of the change.`

function countOccurrences(text: string, needle: string): number {
  let count = 0
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++
  return count
}

/** Applies the edit to `text` or throws a ToolError saying what to send instead. Pure, so display and execute agree. */
export function applyEdit(text: string, input: EditInput, shown: string): { text: string; count: number } {
  if (input.old_string === '') throw new ToolError(`old_string is empty; to create or overwrite ${shown} use write_file.`)
  if (input.old_string === input.new_string) throw new ToolError('old_string and new_string are identical; nothing would change.')
  let oldString = input.old_string
  let newString = input.new_string
  let count = countOccurrences(text, oldString)
  // Models usually send LF; a CRLF file should still match, and keep its line endings.
  if (count === 0 && text.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
    oldString = oldString.replaceAll('\n', '\r\n')
    newString = newString.replaceAll('\n', '\r\n')
    count = countOccurrences(text, oldString)
  }
  if (count === 0) throw new ToolError(`old_string not found in ${shown}; read the file and copy the exact text.`)
  if (count > 1 && !input.replace_all) {
    throw new ToolError(
      `old_string matches ${count} times in ${shown}; include more surrounding lines to make it unique, or set replace_all: true to replace all ${count}.`,
    )
  }
  return { text: text.split(oldString).join(newString), count }
}

async function readTarget(abs: string, shown: string): Promise<string> {
  const stat = await statIfExists(abs)
  if (!stat) throw new ToolError(`File not found: ${shown}. To create a file use write_file.`)
  if (stat.isDirectory()) throw new ToolError(`${shown} is a directory; give a file path to edit.`)
  const bytes = await readConfined(abs, shown)
  if (looksBinary(bytes.subarray(0, 8_192))) throw new ToolError(`${shown} looks like a binary file; edit_file only edits text.`)
  return bytes.toString('utf8')
}

function capDiff(diff: string): string {
  return diff.length > MAX_DIFF_CHARS ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… [diff cut; read the file to see the rest]` : diff
}

/** The editor's text of the file to edit (missing and folder targets fail as locally), or undefined without an editor. */
async function editorText(files: EditorFiles | undefined, abs: string, shown: string): Promise<string | undefined> {
  if (!files?.readText) return undefined
  const stat = await statIfExists(abs)
  if (!stat) throw new ToolError(`File not found: ${shown}. To create a file use write_file.`)
  if (stat.isDirectory()) throw new ToolError(`${shown} is a directory; give a file path to edit.`)
  return editorReadText(files, abs, shown, 'edit_file')
}

export const editFileTool = defineTool({
  name: 'edit_file',
  description,
  parameters: EditFileParameters,
  permission(input, ctx) {
    return pathAsk(resolveForCall(input, ctx.workdir, input.path), 'write')
  },
  async display(input, ctx) {
    const target = resolveForCall(input, ctx.workdir, input.path)
    const shown = pathSubject(target)
    const before = (await editorText(ctx.editorFiles, target.abs, shown)) ?? (await readTarget(target.abs, shown))
    const after = applyEdit(before, input, shown)
    return { summary: `Edit ${shown} (${after.count} replacement${after.count === 1 ? '' : 's'})`, diff: unifiedDiff(before, after.text, shown) }
  },
  async execute(input, ctx) {
    const target = resolveForCall(input, ctx.workdir, input.path)
    const shown = pathSubject(target)
    // With an editor driving the conversation, the edit applies to what the person sees (an unsaved buffer too).
    const before = (await editorText(ctx.editorFiles, target.abs, shown)) ?? (await readTarget(target.abs, shown))
    const after = applyEdit(before, input, shown)
    const viaEditor = await editorWriteText(ctx.editorFiles, target.abs, after.text, shown)
    const note = viaEditor ? ' (in the editor)' : hardLinkNote(await writeConfined(target.abs, after.text, shown))
    const diff = unifiedDiff(before, after.text, shown)
    const what = after.count === 1 ? '1 replacement' : `${after.count} replacements`
    return { output: `Edited ${shown} (${what}).${note}\n${capDiff(diff)}`, metadata: { path: shown, replacements: after.count, diff } }
  },
})
