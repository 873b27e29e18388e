// The checkpoint store (issue 24): snapshots of a workspace in a shadow git store, their changes, restoring files.
export { Checkpoints, listStores, openCheckpoints, storeDir } from './store'
export { GitError } from './git'
export type { DiffLine, FileChange, Hunk } from './changes'
export type { RestoreConflict, RestoreOptions, RestoreResult } from './restore'
export type { Entry, Override } from './compose'
export { isWithin } from './paths'
export type { RawEntry } from './changes'
