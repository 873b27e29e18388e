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
import { createDailySpendRepo, type DailySpend } from './daily-spend'
import { createTurnCheckpointRepo, type CreateTurnCheckpointInput, type TurnCheckpointRecord, type TurnCheckpointState, type TurnWrites } from './turn-checkpoints'
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
import { createSearchRepo, type MessageSearchFilter, type MessageSearchHit } from './search'

export type StoreOptions = {
  /** buffered part/event rows that force a synchronous flush (default 1000) */
  maxBuffered?: number
  /** where dropped writes are reported (default stderr); the host passes its log */
  log?: (line: string) => void
  /** an existing database, opened read-only (inspecting a data dir whose host is gone) */
  readOnly?: boolean
  /** quiet time after the last write before written text is indexed for search (default 1500 ms; searches never wait) */
  indexAfterMs?: number
}

/** Parts indexed per idle step, so a large backlog (an old database) never blocks the event loop for long. */
const INDEX_STEP = 500

/** Sessions: the rows of the session list, their totals and archiving. */
export interface SessionsRepository {
  createSession(input: CreateSessionInput): SessionRecord
  getSession(id: string): SessionRecord | undefined
  /** Session-level permission rules stored with the session (permissions_json). */
  getSessionPermissions(id: string): PermissionRule[]
  /** Newest updated first; archived hidden unless includeArchived; default limit 200. */
  listSessions(filter?: SessionFilter): SessionRecord[]
  /** Bumps updated_at. */
  updateSession(id: string, patch: SessionPatch): SessionRecord
  /** Adds to the session's own token and cost totals; a null cost (price unknown) counts the tokens as unpriced. */
  addSessionUsage(id: string, usage: Partial<TokenUsage>, costUsd: number | null): void
  /** Adds a subagent's usage to the subagent totals of each of these ancestor sessions (ids without a row skipped). */
  addSubagentUsage(ancestorIds: string[], usage: Partial<TokenUsage>, costUsd: number | null): void
  /**
   * Cascades to messages, parts and child sessions, and removes the approvals, queued prompts, background jobs and
   * event stream that name any of them. Returns the ids of the sessions removed (the session first).
   */
  deleteSession(id: string): string[]
  /** The session and all its descendants, the session first ([] when it does not exist). */
  subtreeIds(id: string): string[]
  /** badge counts for the session list: pending approvals (by root), queued prompts, child sessions */
  sessionCounts(ids: string[]): Record<string, SessionCounts>
  /** archive finished subagent sessions not updated since `updatedBefore`; returns their ids */
  archiveFinishedChildren(updatedBefore: number): string[]
}

/** Messages and parts of stored sessions. */
export interface TranscriptRepository {
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
  /**
   * Hides the session's messages from `fromMessageId` on (retry, regenerate, edit): they stay in the store, marked
   * with `hiddenAt` and `hiddenReason`, and leave the transcript, the model's prompt and search. Returns their ids.
   * `branch`: they are the branch of that version of an edited message (`hiddenBranch`), shown again by showBranch.
   */
  hideMessagesFrom(sessionId: string, fromMessageId: string, reason: string, branch?: string): string[]
  /** Shows the messages hidden as the branch of version `branch` (and nothing else); returns their ids. */
  showBranch(sessionId: string, branch: string): string[]
  /** Shows hidden messages again (redo after an undo); returns the ids that were hidden. */
  unhideMessages(sessionId: string, messageIds: string[]): string[]
  /** Tool parts left in input-streaming, input-available or approval-requested. */
  listOpenToolParts(): PartRecord[]
  /**
   * Run `cb` once at the start of the next flush, so the rows it writes commit together with what is buffered
   * (and before any event in that flush is delivered). Schedules a flush.
   */
  beforeFlush(cb: () => void): void
}

/** Approvals asked of the person, and the "always" rules their answers created. */
export interface ApprovalsRepository {
  createApproval(input: CreateApprovalInput): ApprovalRecord
  getApproval(id: string): ApprovalRecord | undefined
  listApprovals(filter?: ApprovalFilter): ApprovalRecord[]
  /** undefined when the approval was no longer pending (first answer wins). */
  resolveApproval(id: string, status: Exclude<ApprovalStatus, 'pending'>, answer?: unknown): ApprovalRecord | undefined
  addRule(rule: Omit<RuntimeRule, 'id' | 'createdAt'>): RuntimeRule
  listRules(filter?: RuleFilter): RuntimeRule[]
  /** false when no rule had that id */
  revokeRule(id: string): boolean
}

/** The persistent prompt queue and the background jobs. */
export interface QueueRepository {
  /** A duplicate requestId returns the existing entry with duplicate: true. */
  enqueuePrompt(input: EnqueueInput): { entry: QueueEntry; duplicate: boolean }
  listQueue(sessionId: string, status?: QueueStatus): QueueEntry[]
  setQueueStatus(id: string, status: QueueStatus): QueueEntry
  getQueueEntry(id: string): QueueEntry | undefined
  /** sessions that have prompts waiting (started again after a host restart) */
  sessionsWithQueuedPrompts(): string[]
  createJob(input: CreateJobInput): JobRecord
  getJob(id: string): JobRecord | undefined
  updateJob(id: string, status: JobStatus): JobRecord
  listJobs(filter?: JobFilter): JobRecord[]
}

/** Each workspace's spend per calendar day: added to per model step, read when a run starts under a daily cap. */
export interface SpendRepository {
  addDailySpend(workspaceRoot: string, day: string, tokens: number, costUsd: number | null): void
  dailySpend(workspaceRoot: string, day: string): DailySpend
}

/** Each turn's checkpoints: the workspace's snapshots before and after it and who wrote what (issue 24). */
export interface CheckpointsRepository {
  createTurnCheckpoint(input: CreateTurnCheckpointInput): TurnCheckpointRecord
  /** The turn ended: its after-snapshot (null when it failed: then `error` says why) and its writes. State becomes applied. */
  finishTurnCheckpoint(id: string, afterTree: string | null, writes: TurnWrites[], error?: string): TurnCheckpointRecord
  setTurnCheckpointState(ids: string[], state: TurnCheckpointState): void
  /** What the turn's agents wrote so far (kept while it runs, so a host that dies in it loses no attribution). */
  updateTurnWrites(id: string, writes: TurnWrites[]): void
  getTurnCheckpoint(id: string): TurnCheckpointRecord | undefined
  /** A session's turns, oldest first. */
  listTurnCheckpoints(sessionId: string): TurnCheckpointRecord[]
  /** Turns still marked running: after a host restart, turns the previous host died in. */
  runningTurnCheckpoints(): TurnCheckpointRecord[]
  /** Every workspace with a recorded turn. */
  checkpointWorkspaces(): string[]
  /** Marks finished turns recorded before `before` as expired (their snapshots are to be dropped); returns them. */
  expireTurnCheckpoints(before: number): TurnCheckpointRecord[]
}

/** Full-text search over the text of messages (sessions' own, not opaque children nested in task parts). */
export interface SearchRepository {
  /** The sessions whose visible messages contain every word (the last as a prefix), newest match first. */
  searchMessages(filter: MessageSearchFilter): MessageSearchHit[]
  /** Index the parts written since the last call (searchMessages does this first); returns how many. */
  indexPending(maxParts?: number): number
}

/** The sequenced events of every root session's stream. */
export interface EventLogRepository {
  /** Buffered. */
  appendEvent(event: SequencedEvent): void
  /** Ascending seq, including buffered events. */
  eventsAfter(stream: string, afterSeq: number, limit?: number): SequencedEvent[]
  /** 0 when the stream has no events (buffered ones count). */
  lastSeq(stream: string): number
  oldestSeq(stream: string): number | undefined
  /** Keeps the newest keepLast seqs of the stream. */
  pruneEvents(stream: string, keepLast: number): void
  /** Called after each flush that wrote rows has committed. Returns a disposer. */
  onFlush(cb: () => void): () => void
}

/**
 * The host's persistence, cut by concern: each module is handed only the repository it needs (the composition root
 * and restart reconciliation alone hold the whole store). Everything is synchronous (better-sqlite3).
 */
export interface Store {
  readonly sessions: SessionsRepository
  readonly transcript: TranscriptRepository
  readonly approvals: ApprovalsRepository
  readonly queue: QueueRepository
  readonly eventLog: EventLogRepository
  readonly search: SearchRepository
  readonly checkpoints: CheckpointsRepository
  /** what each workspace spent per day (budgets.dailyCostUsd) */
  readonly spend: SpendRepository
  /** Writes every buffered row in one transaction. */
  flush(): void
  /**
   * Failures of flushes run on the timer (no caller to throw to). Without a listener such a
   * failure is thrown as an uncaught exception rather than dropped.
   */
  onError(cb: (err: unknown) => void): () => void
  /** Everything fn writes — buffered parts and events included — commits together or not at all. */
  transaction<T>(fn: () => T): T
  /** Flushes buffered writes, then closes the database. */
  close(): void
}

export function openStore(file: string, options: StoreOptions = {}): Store {
  const db = openDatabase(file, { readOnly: options.readOnly })
  const sessionRows = createSessionRepo(db)
  const messages = createMessageRepo(db)
  const approvalRows = createApprovalRepo(db)
  const rules = createRuleRepo(db)
  const jobs = createJobRepo(db)
  const queueRows = createQueueRepo(db)
  const eventRows = createEventLogRepo(db)
  const buffer = createWriteBuffer(db, { maxBuffered: options.maxBuffered ?? 1000, log: options.log ?? ((line) => console.error(line)) })
  const summaries = createSummaryRepo(db)
  const searchRows = createSearchRepo(db)
  const turnRows = createTurnCheckpointRepo(db)
  // Streaming rewrites text parts many times a second: index them once the writing has paused, not per chunk.
  let indexTimer: NodeJS.Timeout | undefined
  const indexWhenIdle = () => {
    clearTimeout(indexTimer)
    indexTimer = setTimeout(indexStep, options.indexAfterMs ?? 1500).unref()
  }
  const indexStep = () => {
    indexTimer = undefined
    if (!db.open) return
    if (searchRows.indexPending(INDEX_STEP) === INDEX_STEP) indexTimer = setTimeout(indexStep, 0).unref()
  }
  buffer.onFlush(indexWhenIdle)

  const sessions: SessionsRepository = {
    createSession: (input) => sessionRows.create(input),
    getSession: (id) => sessionRows.get(id),
    getSessionPermissions: (id) => sessionRows.permissions(id),
    listSessions: (filter) => sessionRows.list(filter),
    updateSession: (id, patch) => sessionRows.update(id, patch),
    addSessionUsage: (id, usage, costUsd) => sessionRows.addUsage(id, usage, costUsd),
    addSubagentUsage: (ids, usage, costUsd) => sessionRows.addSubagentUsage(ids, usage, costUsd),
    deleteSession(id) {
      // Buffered parts of this session must land before the cascade, or they would be written
      // afterwards against a deleted message and fail the flush.
      buffer.flush()
      return sessionRows.remove(id)
    },
    subtreeIds: (id) => sessionRows.subtree(id),
    sessionCounts: (ids) => summaries.counts(ids),
    archiveFinishedChildren: (before) => summaries.archiveFinishedChildren(before),
  }

  const transcript: TranscriptRepository = {
    createMessage: (input) => messages.create(input),
    updateMessageMetadata: (id, patch) => messages.updateMetadata(id, patch),
    listMessages(sessionId, opts) {
      buffer.flush()
      return messages.list(sessionId, opts?.includeHidden ?? false)
    },
    upsertPart: (part) => buffer.upsertPart(part),
    hideMessagesFrom(sessionId, fromMessageId, reason, branch) {
      buffer.flush()
      return messages.hideFrom(sessionId, fromMessageId, reason, branch)
    },
    showBranch(sessionId, branch) {
      buffer.flush()
      return messages.showBranch(sessionId, branch)
    },
    unhideMessages(sessionId, messageIds) {
      buffer.flush()
      return messages.unhide(sessionId, messageIds)
    },
    getPart: (id) => buffer.getBufferedPart(id) ?? messages.getPart(id),
    listOpenToolParts() {
      buffer.flush()
      return messages.listOpenToolParts()
    },
    beforeFlush: (cb) => buffer.beforeFlush(cb),
  }

  const approvals: ApprovalsRepository = {
    createApproval: (input) => approvalRows.create(input),
    getApproval: (id) => approvalRows.get(id),
    listApprovals: (filter) => approvalRows.list(filter),
    resolveApproval: (id, status, answer) => approvalRows.resolve(id, status, answer),
    addRule: (rule) => rules.add(rule),
    listRules: (filter) => rules.list(filter),
    revokeRule: (id) => rules.revoke(id),
  }

  const queue: QueueRepository = {
    enqueuePrompt: (input) => queueRows.enqueue(input),
    listQueue: (sessionId, status) => queueRows.list(sessionId, status),
    setQueueStatus: (id, status) => queueRows.setStatus(id, status),
    getQueueEntry: (id) => queueRows.get(id),
    sessionsWithQueuedPrompts: () => summaries.sessionsWithQueuedPrompts(),
    createJob: (input) => jobs.create(input),
    getJob: (id) => jobs.get(id),
    updateJob: (id, status) => jobs.update(id, status),
    listJobs: (filter) => jobs.list(filter),
  }

  const eventLog: EventLogRepository = {
    appendEvent: (event) => buffer.appendEvent(event),
    eventsAfter(stream, afterSeq, limit) {
      buffer.flush()
      return eventRows.after(stream, afterSeq, limit)
    },
    lastSeq: (stream) => Math.max(eventRows.lastSeq(stream), buffer.bufferedLastSeq(stream) ?? 0),
    oldestSeq(stream) {
      buffer.flush()
      return eventRows.oldestSeq(stream)
    },
    pruneEvents(stream, keepLast) {
      buffer.flush()
      eventRows.prune(stream, keepLast)
    },
    onFlush: (cb) => buffer.onFlush(cb),
  }

  const search: SearchRepository = {
    searchMessages(filter) {
      buffer.flush()
      return searchRows.search(filter)
    },
    indexPending(maxParts) {
      buffer.flush()
      return searchRows.indexPending(maxParts)
    },
  }

  const checkpoints: CheckpointsRepository = {
    createTurnCheckpoint: (input) => turnRows.create(input),
    finishTurnCheckpoint: (id, afterTree, writes, error) => turnRows.finish(id, afterTree, writes, error),
    setTurnCheckpointState: (ids, state) => turnRows.setState(ids, state),
    updateTurnWrites: (id, writes) => turnRows.setWrites(id, writes),
    getTurnCheckpoint: (id) => turnRows.get(id),
    listTurnCheckpoints: (sessionId) => turnRows.list(sessionId),
    runningTurnCheckpoints: () => turnRows.running(),
    checkpointWorkspaces: () => turnRows.workspaces(),
    expireTurnCheckpoints: (before) => turnRows.expire(before),
  }

  const spendRows = createDailySpendRepo(db)
  const spend: SpendRepository = { addDailySpend: spendRows.add, dailySpend: spendRows.get }

  return {
    sessions,
    transcript,
    checkpoints,
    spend,
    approvals,
    queue,
    eventLog,
    search,
    close() {
      clearTimeout(indexTimer)
      if (!db.open) return
      try {
        buffer.close()
      } finally {
        db.close()
      }
    },
    flush: () => buffer.flush(),
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
