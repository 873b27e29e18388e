// Undo, redo and the review of a run's changes (issue 24): checkpoints around turns, who wrote what, taking it back.
export { TurnRecorder, type TurnRecording } from './recorder'
export { Undo, UndoError, type RestoreRequest, type UndoDeps } from './undo'
export { WriteLog } from './write-log'
export { checkpointSpace, expireCheckpoints, forgetSessions, pruneCheckpoints } from './storage'
