import path from 'node:path'
import { z } from 'zod'
import type { AgentEvent, MessageWithParts, RestoreOutcome, SessionRecord, TaskWorktree, TurnChanges } from '../../src-shared'
import { isWithin, type Checkpoints } from '../checkpoints'
import { protectedWriteReason } from '../permissions'
import type { CheckpointsRepository, SessionsRepository, TranscriptRepository, TurnCheckpointRecord } from '../store'
import { authorsOf, byAgentOrBelow } from './attribution'
import { planBack, planForward, stepOf, touchesOf, type Plan, type Touch } from './plan'
import { planHunk } from './hunk'
import { mergeBack } from './merge-back'
import { key, type TurnRecorder } from './recorder'
import { planWorktreeApply } from './worktree-apply'

export interface UndoDeps {
  recorder: TurnRecorder
  rows: CheckpointsRepository
  sessions: Pick<SessionsRepository, 'getSession' | 'updateSession'>
  transcript: Pick<TranscriptRepository, 'listMessages' | 'hideMessagesFrom' | 'unhideMessages'>
  dataDir: string
  /** the session runs or has prompts waiting: its files and messages are still changing */
  busy(sessionId: string): boolean
  emit(session: SessionRecord, event: AgentEvent): void
  /** settles when turns a previous host died in have their after-snapshot (see TurnRecorder.recoverInterrupted) */
  recovered?: Promise<unknown>
  /** checkpoints.keepDays now (said when a turn's snapshots expired) */
  keepDays(): number
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

/** The author of a revert: the person, through the app or the CLI. */
const REVERT = 'you (revert)'

/** What the last undo (or undos in a row) took back, in the session's metadata: what Redo brings back. */
const Rewound = z.object({ at: z.number(), messageIds: z.array(z.string()), checkpointIds: z.array(z.string()) })
type Rewound = z.infer<typeof Rewound>

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
    await this.deps.recorder.settle(session.id)
    const rows = this.deps.rows.listTurnCheckpoints(session.id)
    const messages = this.deps.transcript.listMessages(session.id, { includeHidden: true })
    const store = rows.some((r) => r.beforeTree && r.afterTree) ? await this.deps.recorder.store(session.workspaceRoot) : undefined
    const turns: TurnChanges[] = []
    for (const row of rows) {
      const files = store && row.state !== 'expired' && row.beforeTree && row.afterTree ? await store.changes(row.beforeTree, row.afterTree) : []
      turns.push({
        checkpointId: row.id,
        messageId: row.messageId,
        messagePreview: preview(messages, row),
        startedAt: row.createdAt,
        endedAt: row.endedAt,
        state: row.state,
        ...(row.state === 'expired' ? { error: `Its snapshots were dropped ${this.deps.keepDays()} days after the turn (checkpoints.keepDays in your config.yaml): nothing of it can be taken back.` } : {}),
        files: files.map((f) => ({ ...f, authors: authorsOf(f.oldPath ? [f.path, f.oldPath] : [f.path], row.writes) })),
        ...(row.error && row.state !== 'expired' ? { error: row.error } : {}),
      })
    }
    const rewound = this.rewound(session, rows, messages)
    const ids = new Set(rewound?.messageIds)
    const redo = rewound ? { messageIds: rewound.messageIds, turns: messages.filter((m) => ids.has(m.id) && isPersonMessage(m)).length } : null
    return { turns, redo }
  }

  /**
   * Takes back the turns from the person's message `toMessageId` (default: their last message) to the end: the files
   * those turns changed go back to how they were before it was sent, and the message and everything after it leave
   * the transcript (kept: Redo shows them again). Files changed during those turns by something other than the agents
   * are left alone. A rewind over turns that changed no file only hides the messages.
   */
  async undo(sessionId: string, request: RestoreRequest & { toMessageId?: string }): Promise<RestoreOutcome> {
    const session = await this.idle(sessionId, 'undo')
    const messages = this.deps.transcript.listMessages(session.id, { includeHidden: true })
    const target = request.toMessageId ? messages.find((m) => m.id === request.toMessageId) : messages.findLast((m) => isPersonMessage(m) && !m.metadata.hiddenAt)
    if (!target) {
      if (request.toMessageId) throw new UndoError('not_found', `No message ${request.toMessageId} in session ${session.id}.`)
      throw new UndoError('conflict', 'There is nothing to undo in this session yet.')
    }
    if (!isPersonMessage(target)) throw new UndoError('invalid_request', `Message ${target.id} is not one you sent; undo goes back to one of your messages.`)
    if (target.metadata.hiddenAt) throw new UndoError('conflict', `Message ${target.id} is not in the conversation any more (undone or edited already).`)
    const rows = this.deps.rows.listTurnCheckpoints(session.id)
    const applied = rows.filter((r) => r.state === 'applied')
    const chosen = new Set(applied.filter((r) => r.createdAt >= target.createdAt).map((r) => r.id))
    if (rows.some((r) => r.state === 'expired' && r.createdAt >= target.createdAt)) {
      throw new UndoError('conflict', `Turns since that message are older than checkpoints.keepDays (${this.deps.keepDays()} days): their snapshots were dropped, so undo cannot go back that far. Pick a later message.`)
    }
    const missing = applied.find((r) => chosen.has(r.id) && (!r.beforeTree || !r.afterTree))
    if (missing) throw new UndoError('conflict', `A turn in that range has no checkpoint (${missing.error ?? 'its snapshots are missing'}), so its changes cannot be taken back from here.`)
    const earlier = this.rewound(session, rows, messages)
    const store = await this.deps.recorder.store(session.workspaceRoot)
    const touches = await touchesOf(store, applied)
    const plan = planBack(touches, (t) => chosen.has(t.turn.id) && t.authors.length > 0, (t) => this.describe(t))
    const handled = new Set([...plan.plans.map((p) => p.path), ...plan.conflicts.map((c) => c.path)])
    for (const t of touches) {
      if (chosen.has(t.turn.id) && !t.authors.length && !handled.has(t.path)) {
        plan.skipped.push({ path: t.path, reason: 'changed during the turn by something other than its agents (you, an editor, another program); left as it is' })
      }
    }
    const outcome = await this.apply(store, session, plan, request)
    if (!outcome.applied) return outcome
    this.deps.rows.setTurnCheckpointState([...chosen], 'undone')
    const hidden = this.deps.transcript.hideMessagesFrom(session.id, target.id, 'undone')
    if (hidden.length) this.deps.emit(session, { type: 'messages_hidden', sessionId: session.id, at: Date.now(), messageIds: hidden, reason: 'undone' })
    // Undos in a row add up: Redo brings all of them back.
    const rewound: Rewound = { at: Date.now(), messageIds: [...hidden, ...(earlier?.messageIds ?? [])].sort(), checkpointIds: [...chosen, ...(earlier?.checkpointIds ?? [])] }
    this.setRewound(session.id, rewound)
    return { ...outcome, messageIds: hidden }
  }

  /** Puts back what the last undo (or undos in a row) took back, and shows its messages again. */
  async redo(sessionId: string, request: RestoreRequest): Promise<RestoreOutcome> {
    const session = await this.idle(sessionId, 'redo')
    const rows = this.deps.rows.listTurnCheckpoints(session.id)
    const r = this.rewound(session, rows, this.deps.transcript.listMessages(session.id, { includeHidden: true }))
    if (!r) throw new UndoError('conflict', 'There is nothing to redo: no undo since the last message or change.')
    const store = await this.deps.recorder.store(session.workspaceRoot)
    const ids = new Set(r.checkpointIds)
    if (rows.some((row) => ids.has(row.id) && row.state === 'expired')) throw new UndoError('conflict', `What was undone is older than checkpoints.keepDays (${this.deps.keepDays()} days): its snapshots were dropped, so it cannot be redone.`)
    const touches = (await touchesOf(store, rows)).filter((t) => ids.has(t.turn.id) && t.authors.length > 0)
    const outcome = await this.apply(store, session, planForward(touches), request)
    if (!outcome.applied) return { ...outcome, messageIds: r.messageIds }
    this.deps.rows.setTurnCheckpointState([...ids], 'applied')
    this.setRewound(session.id, undefined)
    const shown = new Set(this.deps.transcript.unhideMessages(session.id, r.messageIds))
    for (const m of this.deps.transcript.listMessages(session.id)) {
      if (!shown.has(m.id)) continue
      const { parts, ...message } = m
      this.deps.emit(session, { type: 'message_created', sessionId: session.id, at: Date.now(), message })
      for (const part of parts) this.deps.emit(session, { type: 'part_updated', sessionId: session.id, at: Date.now(), part })
    }
    return { ...outcome, messageIds: [...shown] }
  }

  /**
   * What Redo would bring back: kept in the session's metadata by undo, and gone as soon as anything happened after
   * it — a message sent, a file reverted — since putting the undone changes back would then mix with that work.
   */
  private rewound(session: SessionRecord, rows: TurnCheckpointRecord[], messages: MessageWithParts[]): Rewound | undefined {
    const r = Rewound.safeParse(session.metadata.rewound)
    if (!r.success) return undefined
    const { at } = r.data
    if (messages.some((m) => !m.metadata.hiddenAt && m.createdAt > at) || rows.some((row) => row.state === 'applied' && row.createdAt > at)) return undefined
    return r.data
  }

  private setRewound(sessionId: string, rewound: Rewound | undefined): void {
    const session = this.session(sessionId)
    const { rewound: _old, ...metadata } = session.metadata
    this.deps.sessions.updateSession(session.id, { metadata: rewound ? { ...metadata, rewound } : metadata })
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
      (!request.paths?.length || request.paths.some((p) => isWithin(t.path, p.replace(/\/$/, '')))) &&
      (!request.agentSessionId || t.authors.some((a) => byAgentOrBelow(a, request.agentSessionId!))) &&
      (t.authors.length > 0 || Boolean(request.paths?.length))
    const plan = planBack(touches, wanted, (t) => this.describe(t))
    if (!plan.plans.length && !plan.conflicts.length) throw new UndoError('not_found', 'Nothing recorded matches: no change of those files or that agent to revert.')
    // One snapshot of the workspace as it is: what the merges start from, and the revert's own "before".
    const before = await store.snapshot()
    // A file changed again since (a later turn, the person): its lines of this change are taken back by a merge.
    await mergeBack(store, plan, touches.filter(wanted), before)
    const outcome = await this.apply(store, session, plan, request)
    if (outcome.applied && !request.dryRun) await this.recordRevert(store, session, before, plan)
    return outcome
  }

  /**
   * Applies a kept worktree's changes to the workspace: a three-way merge per file (see worktree-apply.ts), written all
   * or nothing, and recorded as a change of its own (so Revert and Undo can take it back).
   */
  async applyWorktree(sessionId: string, worktree: TaskWorktree, author: string[], request: RestoreRequest): Promise<RestoreOutcome> {
    const session = await this.idle(sessionId, 'apply a worktree')
    const store = await this.deps.recorder.store(session.workspaceRoot)
    const before = await store.snapshot()
    let planned: Awaited<ReturnType<typeof planWorktreeApply>>
    try {
      planned = await planWorktreeApply(store, worktree, before)
    } catch (err) {
      throw new UndoError('conflict', `Cannot apply ${worktree.branch}: ${err instanceof Error ? err.message : String(err)}.`)
    }
    const plan: Plan = { ...planned, steps: planned.plans.map(stepOf) }
    if (!plan.plans.length && !plan.conflicts.length) throw new UndoError('conflict', `The workspace already has every change of ${worktree.branch}.`)
    const outcome = await this.apply(store, session, plan, request)
    if (outcome.applied) await this.recordRevert(store, session, before, plan, author)
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
  private async recordRevert(store: Checkpoints, session: SessionRecord, before: string, plan: Plan, author = [REVERT]): Promise<void> {
    const row = this.deps.rows.createTurnCheckpoint({ sessionId: session.id, messageId: null, workspaceRoot: session.workspaceRoot, beforeTree: before })
    const after = await store.snapshot()
    await store.keepAll([
      { key: key(row, 'before'), tree: before },
      { key: key(row, 'after'), tree: after },
    ])
    this.deps.rows.finishTurnCheckpoint(row.id, after, [{ agentPath: author, sessionPath: [], files: plan.plans.map((p) => p.path), shellFiles: [], shell: false }])
  }

  private describe(t: Touch): string {
    if (t.turn.messageId === null && t.turn.writes.length) return `by ${t.turn.writes[0].agentPath.join(' › ')}`
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
    await this.deps.recorder.settle(session.id)
    return session
  }
}

/** A message the person sent (not a background result or a notice). */
function isPersonMessage(m: MessageWithParts): boolean {
  return m.role === 'user' && !m.metadata.synthetic && !m.metadata.notice
}

/** The start of the message a turn worked on (a revert names itself). */
function preview(messages: MessageWithParts[], row: TurnCheckpointRecord): string {
  if (!row.messageId) return row.writes[0]?.agentPath[0] === REVERT ? 'Revert' : row.writes.length ? `Applied: ${row.writes[0].agentPath.join(' › ')}` : ''
  const m = messages.find((x) => x.id === row.messageId)
  const text = (m?.parts ?? []).map((p) => (p.type === 'text' && typeof p.data.text === 'string' ? p.data.text : '')).join(' ')
  return text.replace(/\s+/g, ' ').trim().slice(0, 120)
}
