import { openConfinedForRead } from './confined-fs'
import { looksBinary } from './text-file'
import { ToolError, type EditorFiles } from './tool'

/**
 * Text through the editor that drives the conversation (see `EditorFiles`). The permission gate has judged the real
 * path `abs`; before the editor is asked, the file there is opened without following links and proven to be that
 * path (as every local read is), so a link swapped in since the check is refused here too. The editor then reads or
 * writes by path: a swap between this proof and the editor's own open is the narrow window docs/decisions.md names.
 */

/** Proves `abs` is still the checked file and returns its first bytes (to refuse binary files before the editor). */
async function proveChecked(abs: string, shown: string): Promise<Buffer> {
  const handle = await openConfinedForRead(abs, shown)
  try {
    const head = Buffer.alloc(8_192)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    return head.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

function editorFailed(what: string, shown: string, err: unknown): ToolError {
  const reason = err instanceof Error ? err.message : String(err)
  return new ToolError(`The editor could not ${what} ${shown}: ${reason}`)
}

/** The editor's text of an existing file (its unsaved buffer when open), or undefined when no editor reads files. */
export async function editorReadText(files: EditorFiles | undefined, abs: string, shown: string, tool: string): Promise<string | undefined> {
  if (!files?.readText) return undefined
  const head = await proveChecked(abs, shown)
  if (looksBinary(head)) throw new ToolError(`${shown} looks like a binary file; ${tool} only handles text.`)
  try {
    return await files.readText(abs)
  } catch (err) {
    throw editorFailed('read', shown, err)
  }
}

/**
 * Writes an existing file through the editor (its buffer, saved by the editor); false when no editor writes files.
 * New files are not handed over: no editor has them open, and the local writer creates them and their folders.
 */
export async function editorWriteText(files: EditorFiles | undefined, abs: string, content: string, shown: string): Promise<boolean> {
  if (!files?.writeText) return false
  await proveChecked(abs, shown)
  try {
    await files.writeText(abs, content)
  } catch (err) {
    throw editorFailed('write', shown, err)
  }
  return true
}
