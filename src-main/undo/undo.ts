import path from 'node:path'
import type { AgentEvent, MessageWithParts, RestoreOutcome, SessionRecord, TurnChanges } from '../../src-shared'
import type { Checkpoints } from '../checkpoints'
import { protectedWriteReason } from '../permissions'
import type { CheckpointsRepository, SessionsRepository, TranscriptRepository, TurnCheckpointRecord } from '../store'
import { authorsOf, byAgentOrBelow } from './attribution'
import { planBack, planForward, touchesOf, type Plan, type Touch } from './plan'
import { planHunk } from './hunk'
import { key, type TurnRecorder } from './recorder'

export interface UndoDeps {
  recorder: TurnRecorder
  rows: CheckpointsRepository
  sessions: Pick<SessionsRepository, 'getSession'>
  transcript: Pick<TranscriptRepository, 'listMessages' | 'hideMessagesFrom' | 'unhideMessages'>
  dataDir: string
  /** the session runs or has prompts waiting: its files and messages are still changing */
  busy(sessionId: string): boolean
  emit(session: SessionRecord, event: AgentEvent): void
  /** settles when turns a previous host died in have their after-snapshot (see TurnRecorder.recoverInterrupted) */
  recovered?: Promise<unknown>
}

/** A coded failure the bridge turns into its error codes (not found, conflict, a bad request). */
export class UndoError extends Error {
  constructor(
    readonly code: 'not_found' | 'conflict' | 'invalid_request',
    message: string,
  ) {
    super(message)
    this.name = 'UndoError'
  }
}

export type RestoreRequest = { dryRun?: boolean; includeProtected?: boolean }

/**
 * Undo, redo and revert over a session's recorded turns, and the review of what they changed. Every operation is
 * planned first (a dry run returns just the plan) and written all or nothing: a file the person (or a later turn)
 * changed since is a conflict, and then nothing is written.
 */
export class Undo {
  constructor(private readonly deps: UndoDeps) {}

  /** Every recorded turn of the session with the files it changed and who changed them; and what Redo would bring back. */
  async list(sessionId: string): Promise<{ turns: TurnChanges[]; redo: { messageIds: string[]; turns: number } | null }> {
    await this.deps.recovered
    const session = this.session(sessionId)
    const rows = this.deps.rows.listTurnCheckpoints(session.id)
    const messages = this.deps.transcript.listMessages(session.id, { includeHidden: true })
    const store = rows.some((r) => r.beforeTree && r.afterTree) ? await this.deps.recorder.store(session.workspaceRoot) : undefined
    const turns: TurnChanges[] = []
    for (const row of rows) {
      const files = store && row.beforeTree && row.afterTree ? await store.changes(row.beforeTree, row.afterTree) : []
      turns.push({
        checkpointId: row.id,
        messageId: row.messageId,
        messagePreview: preview(messages, row),
        startedAt: row.createdAt,
        endedAt: row.endedAt,
        state: row.state,
        files: files.map((f) => ({ ...f, authors: authorsOf(f.oldPath ? [f.path, f.oldPath] : [f.path], row.writes) })),
        ...(row.error ? { error: row.error } : {}),
      })
    }
    const redo = this.redoGroup(rows)
    // Reverts undone with them count as part of their turns, not as turns of their own.
    return { turns, redo: redo.length ? { messageIds: this.hiddenSince(session, redo), turns: Math.max(1, redo.filter((r) => r.messageId).length) } : null }
  }

  /**
   * Takes back the turns from the one that worked on `toMessageId` (default: the last message's) to the end: their
   * files go back to how they were before, and that message and everything after it leave the transcript (kept:
   * Redo shows them again). Files changed during those turns by something other than the agents are left alone.
   */
  async undo(sessionId: string, request: RestoreRequest & { toMessageId?: string }): Promise<RestoreOutcome> {
    const session = await this.idle(sessionId, 'undo')
    const rows = this.deps.rows.listTurnCheckpoints(session.id)
    const applied = rows.filter((r) => r.state === 'applied')
    const messageId = request.toMessageId ?? applied.findLast((r) => r.messageId)?.messageId
    if (!messageId) throw new UndoError('conflict', 'There is nothing to undo in this session: no turn with recorded changes.')
    const start = applied.findIndex((r) => r.messageId === messageId)
    if (start < 0) {
      const known = this.deps.transcript.listMessages(session.id, { includeHidden: true }).some((m) => m.id === messageId)
      throw new UndoError(known ? 'conflict' : 'not_found', known ? `Message ${messageId} has no recorded turn to undo (it was undone already, or ran before checkpoints were kept).` : `No message ${messageId} in session ${session.id}.`)
    }
    const chosen = new Set(applied.slice(start).map((r) => r.id))
    const missing = applied.slice(start).find((r) => !r.beforeTree || !r.afterTree)
    if (missing) throw new UndoError('conflict', `A turn in that range has no checkpoint (${missing.error ?? 'its snapshots are missing'}), so its changes cannot be taken back from here.`)
    const store = await this.deps.recorder.store(session.workspaceRoot)
    const touches = await touchesOf(store, applied)
    const plan = planBack(touches, (t) => chosen.has(t.turn.id) && t.authors.length > 0, (t) => this.describe(t))
    for (const t of touches) {
      if (chosen.has(t.turn.id) && !t.authors.length && !plan.plans.some((p) => p.path === t.path) && !plan.conflicts.some((c) => c.path === t.path)) {
        plan.skipped.push({ path: t.path, reason: 'changed during the turn by something other than its agents (you, an editor, another program); left as it is' })
      }
    }
    const outcome = await this.apply(store, session, plan, request)
    if (!outcome.applied) return outcome
    this.deps.rows.setTurnCheckpointState([...chosen], 'undone')
    const hidden = this.deps.transcript.hideMessagesFrom(session.id, messageId, 'undone')
    if (hidden.length) this.deps.emit(session, { type: 'messages_hidden', sessionId: session.id, at: Date.now(), messageIds: hidden, reason: 'undone' })
    return { ...outcome, messageIds: hidden }
  }

  /** Puts back what the last undo (or undos, with no turn since) took back, and shows its messages again. */
  async redo(sessionId: string, request: RestoreRequest): Promise<RestoreOutcome> {
    const session = await this.idle(sessionId, 'redo')
    const rows = this.deps.rows.listTurnCheckpoints(session.id)
    const group = this.redoGroup(rows)
    if (!group.length) throw new UndoError('conflict', 'There is nothing to redo: no undo since the last turn.')
    const store = await this.deps.recorder.store(session.workspaceRoot)
    const ids = new Set(group.map((r) => r.id))
    const touches = (await touchesOf(store, rows)).filter((t) => ids.has(t.turn.id) && t.authors.length > 0)
    const messageIds = this.hiddenSince(session, group)
    const outcome = await this.apply(store, session, planForward(touches), request)
    if (!outcome.applied) return { ...outcome, messageIds }
    this.deps.rows.setTurnCheckpointState([...ids], 'applied')
    const shown = new Set(this.deps.transcript.unhideMessages(session.id, messageIds))
    for (const m of this.deps.transcript.listMessages(session.id)) {
      if (!shown.has(m.id)) continue
      const { parts, ...message } = m
      this.deps.emit(session, { type: 'message_created', sessionId: session.id, at: Date.now(), message })
      for (const part of parts) this.deps.emit(session, { type: 'part_updated', sessionId: session.id, at: Date.now(), part })
    }
    return { ...outcome, messageIds: [...shown] }
  }

  /**
   * Takes back some of the recorded changes, leaving the transcript as it is: one file or folder (`paths`), one turn
   * (`checkpointId`), one agent and the agents below it (`agentSessionId`), or any combination. Recorded as a turn
   * of its own, so a later undo across it stays exact.
   */
  async revert(sessionId: string, request: RestoreRequest & { checkpointId?: string; paths?: string[]; agentSessionId?: string; hunk?: number }): Promise<RestoreOutcome> {
    const session = await this.idle(sessionId, 'revert changes')
    const applied = this.deps.rows.listTurnCheckpoints(session.id).filter((r) => r.state === 'applied')
    if (request.checkpointId && !applied.some((r) => r.id === request.checkpointId)) {
      throw new UndoError('not_found', `No applied turn ${request.checkpointId} in session ${session.id} (it may have been undone).`)
    }
    const store = await this.deps.recorder.store(session.workspaceRoot)
    if (request.hunk !== undefined) return this.revertHunk(store, session, applied, request)
    const touches = await touchesOf(store, applied)
    const wanted = (t: Touch) =>
      (!request.checkpointId || t.turn.id === request.checkpointId) &&
      (!request.paths?.length || request.paths.some((p) => t.path === p || t.path.startsWith(`${p.replace(/\/$/, '')}/`))) &&
      (!request.agentSessionId || t.authors.some((a) => byAgentOrBelow(a, request.agentSessionId!))) &&
      (t.authors.length > 0 || Boolean(request.paths?.length))
    const plan = planBack(touches, wanted, (t) => this.describe(t))
    if (!plan.plans.length && !plan.conflicts.length) throw new UndoError('not_found', 'Nothing recorded matches: no change of those files or that agent to revert.')
    const before = request.dryRun ? undefined : await store.snapshot()
    const outcome = await this.apply(store, session, plan, request)
    if (outcome.applied && before) await this.recordRevert(store, session, before, plan)
    return outcome
  }

  /** One hunk of one file of one turn (`checkpointId`, one path, `hunk` its index in the turn's diff of that file). */
  private async revertHunk(store: Checkpoints, session: SessionRecord, applied: TurnCheckpointRecord[], request: RestoreRequest & { checkpointId?: string; paths?: string[]; hunk?: number }): Promise<RestoreOutcome> {
    const turn = applied.find((r) => r.id === request.checkpointId)
    const file = request.paths?.length === 1 ? request.paths[0] : undefined
    if (!turn || !file) throw new UndoError('invalid_request', 'To revert one change of a file, name the turn (checkpointId), the file (one path) and the change (hunk).')
    if (!turn.beforeTree || !turn.afterTree) throw new UndoError('conflict', `That turn has no checkpoint (${turn.error ?? 'its snapshots are missing'}).`)
    const change = (await store.changes(turn.beforeTree, turn.afterTree)).find((f) => f.path === file)
    const hunk = change?.hunks[request.hunk!]
    if (!change || !hunk || change.binary) throw new UndoError('not_found', `That turn has no change ${request.hunk} in ${file}${change?.binary ? ' (a binary file: revert the whole file)' : ''}.`)
    const before = await store.snapshot()
    const { plan, conflict } = await planHunk(store, { path: file, hunk, current: (await store.entries(before, [file])).get(file) })
    const whole: Plan = { plans: plan ? [plan] : [], steps: plan ? [{ path: file, action: 'restore' }] : [], conflicts: conflict ? [conflict] : [], skipped: [] }
    const outcome = await this.apply(store, session, whole, request)
    if (outcome.applied && !request.dryRun) await this.recordRevert(store, session, before, whole)
    return outcome
  }

  /** Turns undone since the last applied one: what Redo brings back (oldest first). */
  private redoGroup(rows: TurnCheckpointRecord[]): TurnCheckpointRecord[] {
    const lastApplied = rows.findLastIndex((r) => r.state !== 'undone')
    return rows.slice(lastApplied + 1)
  }

  /** Messages hidden by undo from the first message of `group` on. */
  private hiddenSince(session: SessionRecord, group: TurnCheckpointRecord[]): string[] {
    const from = group.find((r) => r.messageId)?.messageId
    if (!from) return []
    return this.deps.transcript
      .listMessages(session.id, { includeHidden: true })
      .filter((m) => m.id >= from && m.metadata.hiddenReason === 'undone')
      .map((m) => m.id)
  }

  private async apply(store: Checkpoints, session: SessionRecord, plan: Plan, request: RestoreRequest): Promise<RestoreOutcome> {
    for (const step of plan.steps) {
      const reason = protectedWriteReason(path.join(store.workspace, step.path), store.workspace, this.deps.dataDir)
      if (!reason) continue
      step.protected = reason
      if (!request.includeProtected) plan.conflicts.push({ path: step.path, reason: 'protected', detail: `${reason}; confirm it explicitly to restore it too` })
    }
    const base = { steps: plan.steps, skipped: plan.skipped, messageIds: [] }
    if (plan.conflicts.length) return { ...base, applied: false, conflicts: plan.conflicts }
    // A dry run checks the disk as the real one would (the person's edits since are conflicts in the plan already).
    const r = await store.restorePaths(plan.plans, { dryRun: request.dryRun })
    return { ...base, applied: r.ok && !request.dryRun, conflicts: r.conflicts, skipped: [...plan.skipped, ...r.skipped] }
  }

  /** A revert is a change too: recorded as a turn by the person, so undo across it knows each file's history. */
  private async recordRevert(store: Checkpoints, session: SessionRecord, before: string, plan: Plan): Promise<void> {
    const row = this.deps.rows.createTurnCheckpoint({ sessionId: session.id, messageId: null, workspaceRoot: session.workspaceRoot, beforeTree: before })
    await store.keep(key(row, 'before'), before)
    const after = await store.snapshot()
    await store.keep(key(row, 'after'), after)
    this.deps.rows.finishTurnCheckpoint(row.id, after, [{ agentPath: ['you (revert)'], sessionPath: [], files: plan.plans.map((p) => p.path), shellFiles: [], shell: false }])
  }

  private describe(t: Touch): string {
    if (t.turn.messageId === null && t.turn.writes.some((w) => w.agentPath[0] === 'you (revert)')) return 'by a revert'
    const who = t.authors.length ? `by ${t.authors.map((a) => a.agentPath.join(' › ')).join(', ')}` : 'by something other than the agents'
    return `${who}, in a turn of ${new Date(t.turn.createdAt).toISOString().slice(0, 16).replace('T', ' ')}`
  }

  private session(sessionId: string): SessionRecord {
    const session = this.deps.sessions.getSession(sessionId)
    if (!session) throw new UndoError('not_found', `No session ${sessionId}.`)
    return session
  }

  private async idle(sessionId: string, what: string): Promise<SessionRecord> {
    await this.deps.recovered
    const session = this.session(sessionId)
    if (this.deps.busy(session.id)) throw new UndoError('conflict', `This session is still working. Stop it (or wait for it to finish), then ${what}.`)
    return session
  }
}

/** The start of the message a turn worked on (a revert names itself). */
function preview(messages: MessageWithParts[], row: TurnCheckpointRecord): string {
  if (!row.messageId) return row.writes.some((w) => w.agentPath[0] === 'you (revert)') ? 'Revert' : ''
  const m = messages.find((x) => x.id === row.messageId)
  const text = (m?.parts ?? []).map((p) => (p.type === 'text' && typeof p.data.text === 'string' ? p.data.text : '')).join(' ')
  return text.replace(/\s+/g, ' ').trim().slice(0, 120)
}
