import type { Stats } from 'node:fs'
import fs from 'node:fs/promises'
import { isMissing } from '../files'

// The sniff lives in the grep worker's module, which must stay free of relative imports (Node runs it directly).
export { looksBinary } from './grep-worker'

/** fs.stat that returns null for a missing path (ENOENT/ENOTDIR) instead of throwing. */
export async function statIfExists(abs: string): Promise<Stats | null> {
  try {
    return await fs.stat(abs)
  } catch (e) {
    if (isMissing(e)) return null
    throw e
  }
}
