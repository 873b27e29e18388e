/** Messages between grep (host) and its search worker (grep-worker.ts). Types only: the worker imports them as types. */

export interface GrepFile {
  /** the checked real path; the worker proves the file it opens is this one */
  abs: string
  /** how the model sees the path */
  shown: string
}

export type ToWorker =
  | {
      type: 'start'
      /** tags every reply of this search: a pooled worker may still answer an earlier, abandoned one */
      id: number
      pattern: string
      maxMatches: number
      maxLineChars: number
      maxFileBytes: number
      /** `Date.now()` after which the worker stops between files and every few thousand lines */
      deadline: number
    }
  | { type: 'files'; files: GrepFile[] }
  /** no more files: reply `done` once everything before this is searched */
  | { type: 'end' }

export interface BatchResult {
  type: 'batch'
  id: number
  /** files taken from this message (searched, or skipped for a reason below) */
  handled: number
  /** `path:line: text`, in file order */
  matches: string[]
  filesWithMatches: number
  /** files opened and searched */
  filesRead: number
  binary: number
  /** shown paths of files over the size limit */
  large: string[]
  /** shown paths of files replaced (e.g. by a link) since they were checked: not read */
  changed: string[]
  /** shown paths that could not be opened (permission denied by the OS) */
  unreadable: string[]
  /** the match cap was reached and at least one more match exists: the search stopped */
  capped: boolean
  /** the deadline passed: the search stopped */
  timedOut: boolean
}

export type FromWorker =
  | { type: 'ready'; id: number }
  /** the pattern cannot be used (message says why and what to do) */
  | { type: 'error'; id: number; message: string }
  | BatchResult
  | { type: 'done'; id: number }
