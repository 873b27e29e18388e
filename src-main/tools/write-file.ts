import { z } from 'zod'
import { readConfined, writeConfined, type ConfinedWrite } from './confined-fs'
import { unifiedDiff } from './diff'
import { editorReadText, editorWriteText } from './editor-text'
import { looksBinary, statIfExists } from './text-file'
import { defineTool, ToolError, type EditorFiles } from './tool'
import { pathAsk, pathSubject, resolveForCall, type WorkspacePath } from './workspace-path'

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

/**
 * The current text of the target ('' stands in for a binary file), or null when it does not exist yet; with an editor
 * driving the conversation, the text it shows (an unsaved buffer too).
 */
async function currentContent(target: WorkspacePath, shown: string, files: EditorFiles | undefined): Promise<string | null> {
  const stat = await statIfExists(target.abs)
  if (!stat) return null
  if (stat.isDirectory()) throw new ToolError(`${shown} is a directory; give a file path to write.`)
  const bytes = await readConfined(target.abs, shown)
  if (files?.readText && !looksBinary(bytes.subarray(0, 8_192))) return (await editorReadText(files, target.abs, shown, 'write_file')) ?? ''
  return looksBinary(bytes.subarray(0, 8_192)) ? '' : bytes.toString('utf8')
}

/** Said when the replaced file had other hard links: they were not written through (see confined-fs). */
export function hardLinkNote(written: ConfinedWrite): string {
  return written.links > 1
    ? ` It had ${written.links} hard links: this path now has its own copy, and the other ${written.links - 1} link${written.links === 2 ? '' : 's'} keep the old content.`
    : ''
}

export const writeFileTool = defineTool({
  name: 'write_file',
  description,
  parameters: WriteFileParameters,
  permission(input, ctx) {
    return pathAsk(resolveForCall(input, ctx.workdir, input.path), 'write')
  },
  async display(input, ctx) {
    const target = resolveForCall(input, ctx.workdir, input.path)
    const shown = pathSubject(target)
    const old = await currentContent(target, shown, ctx.editorFiles)
    const lines = countLines(input.content)
    const summary = old === null ? `Create ${shown} (${lines} lines)` : `Overwrite ${shown} (${countLines(old)} → ${lines} lines)`
    return { summary, diff: unifiedDiff(old ?? '', input.content, shown) }
  },
  async execute(input, ctx) {
    const target = resolveForCall(input, ctx.workdir, input.path)
    const shown = pathSubject(target)
    const old = await currentContent(target, shown, ctx.editorFiles)
    const lines = countLines(input.content)
    if (old === input.content) return { output: `${shown} already had exactly this content; nothing changed.`, metadata: { path: shown, created: false, diff: '' } }
    // An existing file goes through the editor driving the conversation, when there is one; a new one is created here.
    const viaEditor = old !== null && (await editorWriteText(ctx.editorFiles, target.abs, input.content, shown))
    const written = viaEditor ? undefined : await writeConfined(target.abs, input.content, shown)
    const output = written?.created
      ? `Created ${shown} (${lines} lines).`
      : `Overwrote ${shown} (${countLines(old ?? '')} → ${lines} lines).${written ? hardLinkNote(written) : ' (in the editor)'}`
    return { output, metadata: { path: shown, created: old === null, diff: unifiedDiff(old ?? '', input.content, shown) } }
  },
})
