import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000

export interface TruncatedOutput {
  text: string
  truncated: boolean
  /** where the full text was saved; absent when nothing was cut or saving failed */
  fullPath?: string
}

/**
 * Keeps the head of an oversized output and saves the whole text under `overflowDir` so the
 * model can page through it with read_file instead of losing it.
 */
export function truncateOutput(text: string, o: { maxChars: number; overflowDir: string }): TruncatedOutput {
  if (text.length <= o.maxChars) return { text, truncated: false }
  const head = text.slice(0, o.maxChars)
  const more = text.length - o.maxChars
  const name = `tool-output-${Date.now()}-${crypto.randomBytes(4).toString('hex')}.txt`
  const fullPath = path.join(o.overflowDir, name)
  try {
    fs.mkdirSync(o.overflowDir, { recursive: true })
    fs.writeFileSync(fullPath, text)
  } catch (e) {
    // The head is still worth returning; say plainly that the rest is gone and why.
    const reason = e instanceof Error ? e.message : String(e)
    return { text: `${head}\n… [truncated: ${more} more chars; the full output could not be saved: ${reason}]`, truncated: true }
  }
  return {
    text: `${head}\n… [truncated: ${more} more chars; full output saved to ${fullPath} — read it with read_file offset/limit]`,
    truncated: true,
    fullPath,
  }
}
