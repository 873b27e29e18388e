import type { Stats } from 'node:fs'
import fs from 'node:fs/promises'

/** A NUL byte or mostly control characters in the first 8 KB means the file is not text. */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false
  let control = 0
  for (const byte of sample) {
    if (byte === 0) return true
    // Control characters other than tab, LF, VT, FF, CR and ESC (ANSI colours in logs).
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 11 && byte !== 12 && byte !== 13 && byte !== 27) control++
  }
  return control / sample.length > 0.1
}

/** Node's error code, if `e` is a system error. */
export function errorCode(e: unknown): string | undefined {
  return e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined
}

/** fs.stat that returns null for a missing path (ENOENT/ENOTDIR) instead of throwing. */
export async function statIfExists(abs: string): Promise<Stats | null> {
  try {
    return await fs.stat(abs)
  } catch (e) {
    const code = errorCode(e)
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw e
  }
}
