import type Database from 'better-sqlite3'
import { newId } from './new-id'
import { parseJson, toJson } from './sql-json'
import { StoreError } from './store-error'

/** Who wrote during a turn: one agent of the conversation, the files its tools said they write, and whether it ran bash. */
export type TurnWrites = {
  /** agent names from the root down */
  agentPath: string[]
  /** session ids from the root down (opaque children included) */
  sessionPath: string[]
  /** workspace-relative paths its file tools were allowed to write */
  files: string[]
  /** the write targets the shell parser saw in its bash commands (redirects, `tee`, `sed -i`, …) */
  shellFiles: string[]
  /** it ran shell commands, which may write anything */
  shell: boolean
}

export type TurnCheckpointState = 'running' | 'applied' | 'undone' | 'expired'

/** One turn of a session recorded as the workspace before and after it (issue 24). */
export type TurnCheckpointRecord = {
  id: string
  sessionId: string
  messageId: string | null
  workspaceRoot: string
  beforeTree: string | null
  afterTree: string | null
  writes: TurnWrites[]
  state: TurnCheckpointState
  error: string | null
  createdAt: number
  endedAt: number | null
}

type Row = {
  id: string
  session_id: string
  message_id: string | null
  workspace_root: string
  before_tree: string | null
  after_tree: string | null
  writes_json: string
  state: TurnCheckpointState
  error: string | null
  created_at: number
  ended_at: number | null
}

function toRecord(r: Row): TurnCheckpointRecord {
  const writes = parseJson(r.writes_json)
  return {
    id: r.id,
    sessionId: r.session_id,
    messageId: r.message_id,
    workspaceRoot: r.workspace_root,
    beforeTree: r.before_tree,
    afterTree: r.after_tree,
    writes: Array.isArray(writes) ? (writes as TurnWrites[]) : [],
    state: r.state,
    error: r.error,
    createdAt: r.created_at,
    endedAt: r.ended_at,
  }
}

export type CreateTurnCheckpointInput = { sessionId: string; messageId: string | null; workspaceRoot: string; beforeTree: string | null; error?: string }

export function createTurnCheckpointRepo(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO turn_checkpoints (id, session_id, message_id, workspace_root, before_tree, error, state, created_at)
     VALUES (@id, @sessionId, @messageId, @workspaceRoot, @beforeTree, @error, @state, @now)`,
  )
  const selectOne = db.prepare<[string], Row>('SELECT * FROM turn_checkpoints WHERE id = ?')
  const ofSession = db.prepare<[string], Row>('SELECT * FROM turn_checkpoints WHERE session_id = ? ORDER BY id')
  const running = db.prepare<[], Row>(`SELECT * FROM turn_checkpoints WHERE state = 'running' ORDER BY id`)
  const finish = db.prepare<[{ id: string; afterTree: string | null; writes: string; error: string | null; now: number }]>(
    `UPDATE turn_checkpoints SET after_tree = @afterTree, writes_json = @writes, error = coalesce(error, @error), state = 'applied', ended_at = @now WHERE id = @id`,
  )
  const setWrites = db.prepare<[string, string]>('UPDATE turn_checkpoints SET writes_json = ? WHERE id = ?')
  const setState = db.prepare<[TurnCheckpointState, string]>('UPDATE turn_checkpoints SET state = ? WHERE id = ?')
  const expire = db.prepare<[number], Row>(
    `UPDATE turn_checkpoints SET state = 'expired' WHERE created_at < ? AND state IN ('applied', 'undone') RETURNING *`,
  )
  const workspaces = db.prepare<[], { workspace_root: string }>('SELECT DISTINCT workspace_root FROM turn_checkpoints')

  const must = (id: string): Row => {
    const row = selectOne.get(id)
    if (!row) throw new StoreError('not_found', `turn checkpoint "${id}" is not stored`)
    return row
  }

  return {
    create(input: CreateTurnCheckpointInput): TurnCheckpointRecord {
      const id = newId('cpt')
      try {
        insert.run({ id, ...input, error: input.error ?? null, state: 'running', now: Date.now() })
      } catch (err) {
        if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new StoreError('not_found', `createTurnCheckpoint: sessionId "${input.sessionId}" is not a stored session`)
        throw err
      }
      return toRecord(must(id))
    },
    finish(id: string, afterTree: string | null, writes: TurnWrites[], error?: string): TurnCheckpointRecord {
      must(id)
      finish.run({ id, afterTree, writes: toJson(writes), error: error ?? null, now: Date.now() })
      return toRecord(must(id))
    },
    setWrites(id: string, writes: TurnWrites[]): void {
      setWrites.run(toJson(writes), id)
    },
    setState(ids: string[], state: TurnCheckpointState): void {
      db.transaction(() => {
        for (const id of ids) setState.run(state, id)
      })()
    },
    get: (id: string) => {
      const row = selectOne.get(id)
      return row && toRecord(row)
    },
    list: (sessionId: string) => ofSession.all(sessionId).map(toRecord),
    running: () => running.all().map(toRecord),
    expire: (before: number) => expire.all(before).map(toRecord),
    workspaces: () => workspaces.all().map((r) => r.workspace_root),
  }
}
