import fs from 'node:fs'
import { errnoText, isMissing } from './errno'

/** A text file read: its text, absent (nothing to read — usually "the defaults"), or there but unreadable. */
export type TextRead = { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'unreadable'; reason: string }

/**
 * Reads a UTF-8 file where a missing file is an ordinary answer and any other failure (EACCES, EISDIR, EIO) is not:
 * the caller says what each means. Only ENOENT and ENOTDIR count as missing — an unreadable file must never be
 * mistaken for an empty one (an empty rules or config file would silently drop the person's settings).
 */
export function readText(file: string): TextRead {
  try {
    return { kind: 'text', text: fs.readFileSync(file, 'utf8') }
  } catch (err) {
    if (isMissing(err)) return { kind: 'missing' }
    return { kind: 'unreadable', reason: errnoText(err) }
  }
}

/** The file's text, or undefined when it does not exist; any other failure is thrown. */
export function readTextIfPresent(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (err) {
    if (isMissing(err)) return undefined
    throw err
  }
}
