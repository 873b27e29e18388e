export { openStore } from './store'
export type { ApprovalsRepository, CheckpointsRepository, SpendRepository, EventLogRepository, QueueRepository, SearchRepository, SessionsRepository, Store, StoreOptions, TranscriptRepository } from './store'
export { MARK_END, MARK_START, toFtsQuery, type MessageSearchFilter, type MessageSearchHit } from './search'
export { StoreError } from './store-error'
export type { StoreErrorCode } from './store-error'
export { newId } from './new-id'
export type { IdPrefix } from './new-id'
export { SCHEMA_VERSION } from './migrations'
export {
  ApprovalKind,
  ApprovalRecord,
  ApprovalStatus,
  JobRecord,
  JobStatus,
  QueueEntry,
  QueueStatus,
} from './records'
export type { CreateSessionInput, SessionFilter, SessionPatch } from './sessions'
export type { CreateMessageInput } from './messages'
export type { CreateApprovalInput, ApprovalFilter } from './approvals'
export type { RuleFilter } from './rules'
export type { CreateJobInput, JobFilter } from './jobs'
export type { EnqueueInput } from './prompt-queue'
export { explainNativeModuleError, nativeBindingOptions, SQLITE_BINDING_ENV } from './native-binding'
export type { CreateTurnCheckpointInput, TurnCheckpointRecord, TurnCheckpointState, TurnWrites } from './turn-checkpoints'
export { localDay, type DailySpend } from './daily-spend'
