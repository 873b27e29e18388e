import type {
  MessageRecord,
  MessageWithParts,
  PartRecord,
  PermissionRule,
  RuntimeRule,
  SequencedEvent,
  SessionRecord,
  TokenUsage,
} from '../../src-shared'
import type { CreateApprovalInput, ApprovalFilter } from './approvals'
import { createApprovalRepo } from './approvals'
import { createEventLogRepo } from './event-log'
import type { CreateJobInput, JobFilter } from './jobs'
import { createJobRepo } from './jobs'
import type { CreateMessageInput } from './messages'
import { createMessageRepo } from './messages'
import { openDatabase } from './open-database'
import type { EnqueueInput } from './prompt-queue'
import { createQueueRepo } from './prompt-queue'
import type { ApprovalRecord, ApprovalStatus, JobRecord, JobStatus, QueueEntry, QueueStatus } from './records'
import type { RuleFilter } from './rules'
import { createRuleRepo } from './rules'
import type { CreateSessionInput, SessionFilter, SessionPatch } from './sessions'
import { createSessionRepo } from './sessions'
import { createWriteBuffer } from './write-buffer'
import { createSummaryRepo, type SessionCounts } from './summaries'

export type StoreOptions = {
  /** buffered part/event rows that force a synchronous flush (default 1000) */
  maxBuffered?: number
}

/** The host's persistence. Everything is synchronous (better-sqlite3). */
export interface Store {
  /** Flushes buffered writes, then closes the database. */
  close(): void

  createSession(input: CreateSessionInput): SessionRecord
  getSession(id: string): SessionRecord | undefined
  /** Session-level permission rules stored with the session (permissions_json). */
  getSessionPermissions(id: string): PermissionRule[]
  /** Newest updated first; archived hidden unless includeArchived; default limit 200. */
  listSessions(filter?: SessionFilter): SessionRecord[]
  /** Bumps updated_at. */
  updateSession(id: string, patch: SessionPatch): SessionRecord
  /** Adds to the session's token and cost totals. */
  addSessionUsage(id: string, usage: Partial<TokenUsage>, costUsd: number): void
  /** Cascades to messages, parts and child sessions. */
  deleteSession(id: string): void

  /** Written at once, so the user message is durable before the model sees it. */
  createMessage(input: CreateMessageInput): MessageRecord
  /** Shallow merge into the message's metadata. */
  updateMessageMetadata(id: string, patch: Record<string, unknown>): MessageRecord
  /** By id; parts by index; messages with metadata.hiddenAt are left out unless includeHidden. */
  listMessages(sessionId: string, options?: { includeHidden?: boolean }): MessageWithParts[]
  /** Buffered: coalesced by id and written on the next flush. */
  upsertPart(part: PartRecord): void
  /** Sees buffered writes. */
  getPart(id: string): PartRecord | undefined
  /** Tool parts left in input-streaming, input-available or approval-requested. */
  listOpenToolParts(): PartRecord[]

  createApproval(input: CreateApprovalInput): ApprovalRecord
  getApproval(id: string): ApprovalRecord | undefined
  listApprovals(filter?: ApprovalFilter): ApprovalRecord[]
  /** undefined when the approval was no longer pending (first answer wins). */
  resolveApproval(id: string, status: Exclude<ApprovalStatus, 'pending'>, answer?: unknown): ApprovalRecord | undefined

  addRule(rule: Omit<RuntimeRule, 'id' | 'createdAt'>): RuntimeRule
  listRules(filter?: RuleFilter): RuntimeRule[]
  /** false when no rule had that id */
  revokeRule(id: string): boolean

  createJob(input: CreateJobInput): JobRecord
  getJob(id: string): JobRecord | undefined
  updateJob(id: string, status: JobStatus): JobRecord
  listJobs(filter?: JobFilter): JobRecord[]

  /** A duplicate requestId returns the existing entry with duplicate: true. */
  enqueuePrompt(input: EnqueueInput): { entry: QueueEntry; duplicate: boolean }
  listQueue(sessionId: string, status?: QueueStatus): QueueEntry[]
  setQueueStatus(id: string, status: QueueStatus): QueueEntry
  getQueueEntry(id: string): QueueEntry | undefined
  /** sessions that have prompts waiting (started again after a host restart) */
  sessionsWithQueuedPrompts(): string[]
  /** badge counts for the session list: pending approvals (by root), queued prompts, child sessions */
  sessionCounts(ids: string[]): Record<string, SessionCounts>
  /** archive finished subagent sessions not updated since `updatedBefore`; returns their ids */
  archiveFinishedChildren(updatedBefore: number): string[]

  /** Buffered. */
  appendEvent(event: SequencedEvent): void
  /** Ascending seq, including buffered events. */
  eventsAfter(stream: string, afterSeq: number, limit?: number): SequencedEvent[]
  /** 0 when the stream has no events (buffered ones count). */
  lastSeq(stream: string): number
  oldestSeq(stream: string): number | undefined
  /** Keeps the newest keepLast seqs of the stream. */
  pruneEvents(stream: string, keepLast: number): void

  /** Writes every buffered row in one transaction. */
  flush(): void
  /**
   * Run `cb` once at the start of the next flush, so the rows it writes commit together with what is buffered
   * (and before any event in that flush is delivered). Schedules a flush.
   */
  beforeFlush(cb: () => void): void
  /** Called after each flush that wrote rows has committed. Returns a disposer. */
  onFlush(cb: () => void): () => void
  /**
   * Failures of flushes run on the timer (no caller to throw to). Without a listener such a
   * failure is thrown as an uncaught exception rather than dropped.
   */
  onError(cb: (err: unknown) => void): () => void
  /** Everything fn writes — buffered parts and events included — commits together or not at all. */
  transaction<T>(fn: () => T): T
}

export function openStore(file: string, options: StoreOptions = {}): Store {
  const db = openDatabase(file)
  const sessions = createSessionRepo(db)
  const messages = createMessageRepo(db)
  const approvals = createApprovalRepo(db)
  const rules = createRuleRepo(db)
  const jobs = createJobRepo(db)
  const queue = createQueueRepo(db)
  const eventLog = createEventLogRepo(db)
  const buffer = createWriteBuffer(db, { maxBuffered: options.maxBuffered ?? 1000 })
  const summaries = createSummaryRepo(db)

  return {
    close() {
      if (!db.open) return
      try {
        buffer.close()
      } finally {
        db.close()
      }
    },

    createSession: (input) => sessions.create(input),
    getSession: (id) => sessions.get(id),
    getSessionPermissions: (id) => sessions.permissions(id),
    listSessions: (filter) => sessions.list(filter),
    updateSession: (id, patch) => sessions.update(id, patch),
    addSessionUsage: (id, usage, costUsd) => sessions.addUsage(id, usage, costUsd),
    deleteSession(id) {
      // Buffered parts of this session must land before the cascade, or they would be written
      // afterwards against a deleted message and fail the flush.
      buffer.flush()
      sessions.remove(id)
    },

    createMessage: (input) => messages.create(input),
    updateMessageMetadata: (id, patch) => messages.updateMetadata(id, patch),
    listMessages(sessionId, opts) {
      buffer.flush()
      return messages.list(sessionId, opts?.includeHidden ?? false)
    },
    upsertPart: (part) => buffer.upsertPart(part),
    getPart: (id) => buffer.getBufferedPart(id) ?? messages.getPart(id),
    listOpenToolParts() {
      buffer.flush()
      return messages.listOpenToolParts()
    },

    createApproval: (input) => approvals.create(input),
    getApproval: (id) => approvals.get(id),
    listApprovals: (filter) => approvals.list(filter),
    resolveApproval: (id, status, answer) => approvals.resolve(id, status, answer),

    addRule: (rule) => rules.add(rule),
    listRules: (filter) => rules.list(filter),
    revokeRule: (id) => rules.revoke(id),

    createJob: (input) => jobs.create(input),
    getJob: (id) => jobs.get(id),
    updateJob: (id, status) => jobs.update(id, status),
    listJobs: (filter) => jobs.list(filter),

    enqueuePrompt: (input) => queue.enqueue(input),
    listQueue: (sessionId, status) => queue.list(sessionId, status),
    setQueueStatus: (id, status) => queue.setStatus(id, status),
    getQueueEntry: (id) => queue.get(id),
    sessionsWithQueuedPrompts: () => summaries.sessionsWithQueuedPrompts(),
    sessionCounts: (ids) => summaries.counts(ids),
    archiveFinishedChildren: (before) => summaries.archiveFinishedChildren(before),

    appendEvent: (event) => buffer.appendEvent(event),
    eventsAfter(stream, afterSeq, limit) {
      buffer.flush()
      return eventLog.after(stream, afterSeq, limit)
    },
    lastSeq: (stream) => Math.max(eventLog.lastSeq(stream), buffer.bufferedLastSeq(stream) ?? 0),
    oldestSeq(stream) {
      buffer.flush()
      return eventLog.oldestSeq(stream)
    },
    pruneEvents(stream, keepLast) {
      buffer.flush()
      eventLog.prune(stream, keepLast)
    },

    flush: () => buffer.flush(),
    beforeFlush: (cb) => buffer.beforeFlush(cb),
    onFlush: (cb) => buffer.onFlush(cb),
    onError: (cb) => buffer.onError(cb),
    transaction<T>(fn: () => T): T {
      buffer.flush()
      let result: T
      try {
        result = db.transaction(() => {
          const value = fn()
          buffer.flush()
          return value
        })()
      } catch (err) {
        // Rows fn buffered were rolled back with it (or never written): drop them too.
        buffer.discard()
        throw err
      }
      // A nested call's commit is only a savepoint release; listeners wait for the outermost.
      if (!db.inTransaction) buffer.committed()
      return result
    },
  }
}
