import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000

/** How read_file names a saved full output: `tool-output://NAME`, resolved only in the calling session's folder. */
export const TOOL_OUTPUT_SCHEME = 'tool-output://'
const SAVED_NAME = /^tool-output-[0-9]+-[0-9a-f]+\.txt$/

export interface TruncatedOutput {
  text: string
  truncated: boolean
  /** where the full text was saved; absent when nothing was cut or saving failed */
  fullPath?: string
  /** the `tool-output://NAME` reference the model reads it back with */
  ref?: string
}

/** The file name a `tool-output://NAME` reference stands for, or null when `p` is not one (or not well formed). */
export function toolOutputName(p: string): string | null {
  if (!p.startsWith(TOOL_OUTPUT_SCHEME)) return null
  const name = p.slice(TOOL_OUTPUT_SCHEME.length)
  return SAVED_NAME.test(name) ? name : null
}

/**
 * Keeps the head of an oversized output and saves the whole text under `overflowDir` (the session's own folder) so
 * the model can page through it with read_file and its `tool-output://` reference instead of losing it.
 */
export function truncateOutput(text: string, o: { maxChars: number; overflowDir: string }): TruncatedOutput {
  if (text.length <= o.maxChars) return { text, truncated: false }
  const head = text.slice(0, o.maxChars)
  const more = text.length - o.maxChars
  const name = `tool-output-${Date.now()}-${crypto.randomBytes(4).toString('hex')}.txt`
  const fullPath = path.join(o.overflowDir, name)
  try {
    // Owner-only: the folder holds other tools' output (command output, file contents).
    fs.mkdirSync(o.overflowDir, { recursive: true, mode: 0o700 })
    fs.writeFileSync(fullPath, text, { mode: 0o600 })
  } catch (e) {
    // The head is still worth returning; say plainly that the rest is gone and why.
    const reason = e instanceof Error ? e.message : String(e)
    return { text: `${head}\n… [truncated: ${more} more chars; the full output could not be saved: ${reason}]`, truncated: true }
  }
  const ref = `${TOOL_OUTPUT_SCHEME}${name}`
  return {
    text: `${head}\n… [truncated: ${more} more chars. The full output is saved as ${ref}: page through it with read_file, path "${ref}", using offset and limit]`,
    truncated: true,
    fullPath,
    ref,
  }
}
