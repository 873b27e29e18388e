import fs from 'node:fs'
import path from 'node:path'
import { openCheckpoints, type Checkpoints } from '../checkpoints'
import { PROTECTED_IN_WORKSPACE } from '../permissions'
import type { RunLevel } from '../runtime'
import type { CheckpointsRepository, TurnCheckpointRecord } from '../store'
import { WriteLog } from './write-log'

export interface RecorderDeps {
  dataDir: string
  rows: CheckpointsRepository
  /** an unexpected failure (logged without content); returns the id the person is shown */
  fault(where: string, err: unknown): string
}

/** A turn being recorded: call `end()` when it is over, whatever its outcome. */
export interface TurnRecording {
  end(): Promise<void>
}

/** A turn whose first change is about to happen: its row, and its snapshot before (unless that failed: `error`). */
type Opened = { row: TurnCheckpointRecord; store?: Checkpoints; before?: string; error?: string }

/**
 * Checkpoints around turns: the workspace is snapshotted before a turn and after it, both kept in the workspace's
 * shadow store under `<session>/<checkpoint>/before|after`, and the turn's row records who wrote what (WriteLog).
 * A snapshot that fails never stops the turn: the row says why, and the Changes view shows it.
 */
export class TurnRecorder {
  readonly log = new WriteLog((level) => this.adopt(level))
  /** recordings of writes made while their session had no turn (background children after the turn), by session */
  private readonly detached = new Map<string, TurnRecording>()
  private readonly stores = new Map<string, Promise<Checkpoints>>()
  /** turns being recorded per workspace: their snapshots are not kept yet, so a prune must leave recent objects */
  private readonly inFlight = new Map<string, number>()

  /** work on the stores nobody awaits (forgetting a deleted session, expiry): the host waits for it before it stops */
  private readonly background = new Set<Promise<unknown>>()

  /** Runs `work` in the background; a failure goes to `fault` (logged). `drain()` waits for it. */
  inBackground(where: string, work: () => Promise<unknown>): void {
    const p = work()
      .catch((err: unknown) => this.deps.fault(where, err))
      .finally(() => this.background.delete(p))
    this.background.add(p)
  }

  /** Waits for the background work (the host stops only after git has finished writing into the stores). */
  async drain(): Promise<void> {
    while (this.background.size) await Promise.all([...this.background])
  }

  /** Whether a turn in `workspaceRoot` is being recorded now (a prune then keeps recent objects). */
  recording(workspaceRoot: string): boolean {
    return (this.inFlight.get(safeRealpath(workspaceRoot)) ?? 0) > 0
  }

  constructor(private readonly deps: RecorderDeps) {}

  /** The workspace's checkpoint store (opened once per process). */
  store(workspaceRoot: string): Promise<Checkpoints> {
    let open = this.stores.get(workspaceRoot)
    if (!open) {
      open = openCheckpoints({ dataDir: this.deps.dataDir, workspace: workspaceRoot })
      this.stores.set(workspaceRoot, open)
      // A failed open is retried by the next turn (git installed meanwhile, the folder back).
      open.catch(() => this.stores.delete(workspaceRoot))
    }
    return open
  }

  /**
   * Start recording a turn of `sessionId`. Nothing is snapshotted yet: the snapshot before the turn is taken when its
   * first tool call that may write is allowed (that call waits for it), so a turn that only reads, talks or delegates
   * reading costs no git at all. `eager` takes it now (a turn that resumes calls approved before a restart).
   */
  async begin(o: { sessionId: string; messageId: string | null; workspaceRoot: string; eager?: boolean }): Promise<TurnRecording> {
    // Writes of a background child since the last turn end here: the new turn's snapshot comes after them.
    await this.settle(o.sessionId)
    const recording = this.start(o)
    if (o.eager) await recording.open()
    return recording
  }

  /**
   * Ends the recording of writes made while `sessionId` had no turn of its own — a background child still working
   * after its parent's turn ended (see adopt) — so they can be listed and taken back. The next such write starts
   * another.
   */
  async settle(sessionId: string): Promise<void> {
    const detached = this.detached.get(sessionId)
    if (!detached) return
    this.detached.delete(sessionId)
    await detached.end()
  }

  /**
   * A write by a run with no turn being recorded on its path: a background child whose parent's turn ended. Its
   * writes (and its siblings') are recorded as a turn of the root session of their own, for the message the child
   * works for, until that session's next turn or the next look at its changes (settle).
   */
  private adopt(level: RunLevel): void {
    const sessionId = level.path[0]
    if (level.worktree || this.detached.has(sessionId)) return
    this.detached.set(sessionId, this.start({ sessionId, messageId: level.userMessageId, workspaceRoot: level.workdir }))
  }

  private start(o: { sessionId: string; messageId: string | null; workspaceRoot: string }): TurnRecording & { open(): Promise<Opened> } {
    let opened: Promise<Opened> | undefined
    const open = (): Promise<Opened> => (opened ??= this.open(o))
    const real = safeRealpath(o.workspaceRoot)
    this.log.start(o.sessionId, [o.workspaceRoot, real], async (writes, changed) => {
      // Every writing call waits for the snapshot before the turn; the row is written only when there is news.
      const { row } = await open()
      if (changed) this.deps.rows.updateTurnWrites(row.id, writes)
    })
    this.inFlight.set(real, (this.inFlight.get(real) ?? 0) + 1)
    let ended = false
    return {
      open,
      end: async () => {
        if (ended) return
        ended = true
        const writes = this.log.end(o.sessionId)
        try {
          if (!opened) return
          const { row, store, before, error } = await opened
          if (!store || !before) this.deps.rows.finishTurnCheckpoint(row.id, null, writes, error)
          else await this.finish(store, row, writes)
        } finally {
          this.inFlight.set(real, (this.inFlight.get(real) ?? 1) - 1)
        }
      },
    }
  }

  /** The snapshot before the turn's first change, and its row. A failure is recorded on the row, never thrown. */
  private async open(o: { sessionId: string; messageId: string | null; workspaceRoot: string }): Promise<Opened> {
    let before: string | null = null
    let error: string | undefined
    let store: Checkpoints | undefined
    try {
      store = await this.store(o.workspaceRoot)
      before = await store.snapshot()
    } catch (err) {
      error = failure('before the turn', err, this.deps.fault)
    }
    // Kept (a ref) together with the after-snapshot at the turn's end: one git call less per turn. Until then the row
    // names it, and a prune meanwhile keeps recent objects (see inFlight).
    const row = this.deps.rows.createTurnCheckpoint({ sessionId: o.sessionId, messageId: o.messageId, workspaceRoot: o.workspaceRoot, beforeTree: before, error })
    return { row, store, before: before ?? undefined, error }
  }

  /** The snapshot after a turn, kept; the row is then applied (or records why there is no after). */
  private async finish(store: Checkpoints, row: TurnCheckpointRecord, writes: TurnCheckpointRecord['writes']): Promise<void> {
    try {
      const after = await store.snapshot()
      await store.keepAll([
        { key: key(row, 'before'), tree: row.beforeTree! },
        { key: key(row, 'after'), tree: after },
      ])
      this.deps.rows.finishTurnCheckpoint(row.id, after, writes)
    } catch (err) {
      this.deps.rows.finishTurnCheckpoint(row.id, null, writes, failure('after the turn', err, this.deps.fault))
    }
  }

  /**
   * Turns a previous host died in (kill -9, a crash, power loss) have no after-snapshot: the workspace as found now
   * is what those turns left, so it is recorded as their after (with the writes stored while they ran).
   */
  async recoverInterrupted(): Promise<number> {
    const rows = this.deps.rows.runningTurnCheckpoints()
    for (const row of rows) {
      if (!row.beforeTree) {
        this.deps.rows.finishTurnCheckpoint(row.id, null, row.writes)
        continue
      }
      try {
        const store = await this.store(row.workspaceRoot)
        await removeLeftoverPlaceholders(store, row.beforeTree)
        await this.finish(store, row, row.writes)
      } catch (err) {
        this.deps.rows.finishTurnCheckpoint(row.id, null, row.writes, failure('after an interrupted turn', err, this.deps.fault))
      }
    }
    return rows.length
  }
}

/**
 * The bash sandbox masks protected names that do not exist (`.mcp.json`, `.claude`…) with an empty placeholder it
 * creates in the workspace and removes when the command ends. A host killed during a command leaves them behind: an
 * empty one the turn's before-snapshot did not have is ours, and goes before the after-snapshot (it would otherwise
 * show as the turn's change, a protected one that undo refuses to delete).
 */
async function removeLeftoverPlaceholders(store: Checkpoints, beforeTree: string): Promise<void> {
  const names = PROTECTED_IN_WORKSPACE.filter((n) => !n.includes('/'))
  const before = await store.entries(beforeTree, [...names])
  for (const name of names) {
    const abs = path.join(store.workspace, name)
    const st = fs.lstatSync(abs, { throwIfNoEntry: false })
    if (!st || [...before.keys()].some((k) => k === name || k.startsWith(`${name}/`))) continue
    if (st.isFile() && st.size === 0) fs.unlinkSync(abs)
    else if (st.isDirectory() && fs.readdirSync(abs).length === 0) fs.rmdirSync(abs)
  }
}

/** The shadow-store key of a turn's snapshot. */
export function key(row: Pick<TurnCheckpointRecord, 'sessionId' | 'id'>, side: 'before' | 'after'): string {
  return `${row.sessionId}/${row.id}/${side}`
}

/** A checkpoint failure the person sees: git's own message for what they can fix, an id for the rest. */
function failure(when: string, err: unknown, fault: RecorderDeps['fault']): string {
  const message = err instanceof Error ? err.message : String(err)
  if (/^checkpoints: /.test(message)) return `No checkpoint ${when}: ${message.replace(/^checkpoints: /, '')}`
  return `No checkpoint ${when}: an unexpected error (${fault('checkpoints', err)}); undo is not available for this turn`
}

function safeRealpath(p: string): string {
  try {
    return fs.realpathSync(p)
  } catch {
    // The workspace is gone: the snapshot failed for that reason already, and nothing can be attributed in it.
    return p
  }
}
