import fs from 'node:fs'
import { isMissing } from './errno'

/** `lstat` of a path where "not there" (or a parent that is not a folder) is an answer: undefined. Other errors throw. */
export function lstatIfPresent(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p)
  } catch (err) {
    if (isMissing(err)) return undefined
    throw err
  }
}
