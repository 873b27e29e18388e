import type { Stats } from 'node:fs'
import fs from 'node:fs/promises'

// The sniff lives in the grep worker's module, which must stay free of relative imports (Node runs it directly).
export { looksBinary } from './grep-worker'

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
