import fs from 'node:fs'
import { errnoCode } from './errno'

/** The real path of `p`, or `p` itself when it does not exist yet (a folder not made yet has no other name). */
export function realpathOrSelf(p: string): string {
  try {
    return fs.realpathSync.native(p)
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return p
    throw err
  }
}
