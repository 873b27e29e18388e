import fs from 'node:fs'
import path from 'node:path'
import { openCheckpoints, type Checkpoints } from '../checkpoints'
import { PROTECTED_IN_WORKSPACE } from '../permissions'
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
  readonly checkpointId: string
  end(): Promise<void>
}

/**
 * Checkpoints around turns: the workspace is snapshotted before a turn and after it, both kept in the workspace's
 * shadow store under `<session>/<checkpoint>/before|after`, and the turn's row records who wrote what (WriteLog).
 * A snapshot that fails never stops the turn: the row says why, and the Changes view shows it.
 */
export class TurnRecorder {
  readonly log = new WriteLog()
  private readonly stores = new Map<string, Promise<Checkpoints>>()

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

  /** Snapshot before a turn of `sessionId`; the returned recording ends it. */
  async begin(o: { sessionId: string; messageId: string | null; workspaceRoot: string }): Promise<TurnRecording> {
    let before: string | null = null
    let error: string | undefined
    let store: Checkpoints | undefined
    try {
      store = await this.store(o.workspaceRoot)
      before = await store.snapshot()
    } catch (err) {
      error = failure('before the turn', err, this.deps.fault)
    }
    const row = this.deps.rows.createTurnCheckpoint({ sessionId: o.sessionId, messageId: o.messageId, workspaceRoot: o.workspaceRoot, beforeTree: before, error })
    if (store && before) {
      try {
        await store.keep(key(row, 'before'), before)
      } catch (err) {
        error = failure('keeping the snapshot before the turn', err, this.deps.fault)
        this.deps.rows.finishTurnCheckpoint(row.id, null, [], error)
        store = undefined
      }
    }
    const workspace = store?.workspace ?? safeRealpath(o.workspaceRoot)
    this.log.start(o.sessionId, workspace, o.workspaceRoot, (writes) => this.deps.rows.updateTurnWrites(row.id, writes))
    let ended = false
    return {
      checkpointId: row.id,
      end: async () => {
        if (ended) return
        ended = true
        const writes = this.log.end(o.sessionId)
        if (!store || !before) {
          this.deps.rows.finishTurnCheckpoint(row.id, null, writes, error)
          return
        }
        await this.finish(store, row, writes)
      },
    }
  }

  /** The snapshot after a turn, kept; the row is then applied (or records why there is no after). */
  private async finish(store: Checkpoints, row: TurnCheckpointRecord, writes: TurnCheckpointRecord['writes']): Promise<void> {
    try {
      const after = await store.snapshot()
      await store.keep(key(row, 'after'), after)
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
