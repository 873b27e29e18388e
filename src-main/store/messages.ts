import type Database from 'better-sqlite3'
import { MessageRole } from '../../src-shared'
import type { MessageRecord, MessageWithParts, PartRecord, ToolState } from '../../src-shared'
import { withVersions, type EditRow } from './message-versions'
import { newId } from './new-id'
import { checkInput, parseObject, toJson } from './sql-json'
import { StoreError } from './store-error'

export type CreateMessageInput = {
  id?: string
  sessionId: string
  role: MessageRole
  metadata?: Record<string, unknown>
}

type MessageRow = {
  id: string
  session_id: string
  role: MessageRole
  metadata_json: string
  created_at: number
  updated_at: number
}

export type PartRow = {
  id: string
  message_id: string
  session_id: string
  index: number
  type: string
  data_json: string
  tool_call_id: string | null
  tool_state: ToolState | null
}

const PART_COLUMNS = 'id, message_id, session_id, "index", type, data_json, tool_call_id, tool_state'

function toMessage(r: MessageRow): MessageRecord {
  return {
    id: r.id,
    sessionId: r.session_id,
    role: r.role,
    metadata: parseObject(r.metadata_json),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

export function toPart(r: PartRow): PartRecord {
  return {
    id: r.id,
    messageId: r.message_id,
    sessionId: r.session_id,
    index: r.index,
    type: r.type,
    data: parseObject(r.data_json),
    toolCallId: r.tool_call_id,
    toolState: r.tool_state,
  }
}

/** Messages are written at once (they are few); parts go through the write buffer. */
export function createMessageRepo(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO chat_messages (id, session_id, role, metadata_json, created_at, updated_at)
     VALUES (@id, @sessionId, @role, @metadata, @now, @now)`,
  )
  const selectOne = db.prepare<[string], MessageRow>('SELECT * FROM chat_messages WHERE id = ?')
  const setMetadata = db.prepare<[string, number, string]>(
    'UPDATE chat_messages SET metadata_json = ?, updated_at = ? WHERE id = ?',
  )
  const listAll = db.prepare<[string], MessageRow>('SELECT * FROM chat_messages WHERE session_id = ? ORDER BY id')
  const listVisible = db.prepare<[string], MessageRow>(
    `SELECT * FROM chat_messages WHERE session_id = ? AND json_extract(metadata_json, '$.hiddenAt') IS NULL ORDER BY id`,
  )
  const partsOfSession = db.prepare<[string], PartRow>(
    `SELECT ${PART_COLUMNS} FROM chat_parts WHERE session_id = ? ORDER BY message_id, "index", id`,
  )
  const selectPart = db.prepare<[string], PartRow>(`SELECT ${PART_COLUMNS} FROM chat_parts WHERE id = ?`)
  const hideFrom = db.prepare<[{ now: number; reason: string; sessionId: string; fromId: string }], { id: string }>(
    `UPDATE chat_messages SET metadata_json = json_set(metadata_json, '$.hiddenAt', @now, '$.hiddenReason', @reason), updated_at = @now
     WHERE session_id = @sessionId AND id >= @fromId AND json_extract(metadata_json, '$.hiddenAt') IS NULL
     RETURNING id`,
  )
  // Hiding a version's branch (an edit, a switch of versions) marks each message with that version, so the switch
  // back shows exactly these messages and nothing hidden for another reason (undo, retry, another group's branch).
  const hideBranchFrom = db.prepare<[{ now: number; reason: string; sessionId: string; fromId: string; branch: string }], { id: string }>(
    `UPDATE chat_messages SET metadata_json = json_set(metadata_json, '$.hiddenAt', @now, '$.hiddenReason', @reason, '$.hiddenBranch', @branch), updated_at = @now
     WHERE session_id = @sessionId AND id >= @fromId AND json_extract(metadata_json, '$.hiddenAt') IS NULL
     RETURNING id`,
  )
  const unhide = db.prepare<[{ now: number; sessionId: string; id: string }], { id: string }>(
    `UPDATE chat_messages SET metadata_json = json_remove(metadata_json, '$.hiddenAt', '$.hiddenReason', '$.hiddenBranch'), updated_at = @now
     WHERE session_id = @sessionId AND id = @id AND json_extract(metadata_json, '$.hiddenAt') IS NOT NULL
     RETURNING id`,
  )
  const unhideBranch = db.prepare<[{ now: number; sessionId: string; branch: string }], { id: string }>(
    `UPDATE chat_messages SET metadata_json = json_remove(metadata_json, '$.hiddenAt', '$.hiddenReason', '$.hiddenBranch'), updated_at = @now
     WHERE session_id = @sessionId AND json_extract(metadata_json, '$.hiddenBranch') = @branch AND json_extract(metadata_json, '$.hiddenAt') IS NOT NULL
     RETURNING id`,
  )
  const editsOf = db.prepare<[string], EditRow>(
    `SELECT id, json_extract(metadata_json, '$.editOf') AS editOf FROM chat_messages
     WHERE session_id = ? AND json_extract(metadata_json, '$.editOf') IS NOT NULL ORDER BY id`,
  )
  const openTools = db.prepare<[], PartRow>(
    `SELECT ${PART_COLUMNS} FROM chat_parts
     WHERE tool_state IN ('input-streaming', 'input-available', 'approval-requested')
     ORDER BY session_id, message_id, "index"`,
  )

  return {
    create(input: CreateMessageInput): MessageRecord {
      checkInput(MessageRole, input.role, 'createMessage role')
      const id = input.id ?? newId('msg')
      try {
        insert.run({
          id,
          sessionId: input.sessionId,
          role: input.role,
          metadata: toJson(input.metadata ?? {}),
          now: Date.now(),
        })
      } catch (err) {
        if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
          throw new StoreError('not_found', `createMessage: sessionId "${input.sessionId}" is not a stored session`)
        }
        throw err
      }
      const created = toMessage(selectOne.get(id) as MessageRow)
      // An edit arrives in the app with its place among the versions (the created event carries this record).
      return input.metadata?.editOf ? withVersions([created], editsOf.all(input.sessionId))[0] : created
    },

    updateMetadata(id: string, patch: Record<string, unknown>): MessageRecord {
      const row = selectOne.get(id)
      if (!row) throw new StoreError('not_found', `updateMessageMetadata: no message with id "${id}"`)
      const merged = { ...parseObject(row.metadata_json), ...patch }
      const now = Date.now()
      setMetadata.run(toJson(merged), now, id)
      return { ...toMessage(row), metadata: merged, updatedAt: now }
    },

    list(sessionId: string, includeHidden: boolean): MessageWithParts[] {
      const rows = (includeHidden ? listAll : listVisible).all(sessionId)
      const byId = new Map<string, MessageWithParts>()
      const out = rows.map((r) => {
        const m: MessageWithParts = { ...toMessage(r), parts: [] }
        byId.set(m.id, m)
        return m
      })
      for (const p of partsOfSession.all(sessionId)) byId.get(p.message_id)?.parts.push(toPart(p))
      return withVersions(out, editsOf.all(sessionId))
    },

    /**
     * Marks the session's messages from `fromId` on (by id, i.e. creation order) as hidden: kept in the store, left
     * out of the transcript, the model's prompt and search. Returns the ids it hid (oldest first).
     */
    hideFrom(sessionId: string, fromId: string, reason: string, branch?: string): string[] {
      const now = Date.now()
      return (branch ? hideBranchFrom.all({ now, reason, sessionId, fromId, branch }) : hideFrom.all({ now, reason, sessionId, fromId }))
        .map((r) => r.id)
        .sort()
    },

    /** Shows hidden messages of the session again (redo after an undo); returns the ids that were hidden. */
    unhide(sessionId: string, ids: string[]): string[] {
      const now = Date.now()
      return db.transaction(() => ids.flatMap((id) => unhide.all({ now, sessionId, id }).map((r) => r.id)))().sort()
    },

    /** Shows the messages hidden as the branch of version `branch` (a switch of versions); returns their ids. */
    showBranch(sessionId: string, branch: string): string[] {
      return unhideBranch
        .all({ now: Date.now(), sessionId, branch })
        .map((r) => r.id)
        .sort()
    },

    getPart(id: string): PartRecord | undefined {
      const row = selectPart.get(id)
      return row && toPart(row)
    },

    listOpenToolParts(): PartRecord[] {
      return openTools.all().map(toPart)
    },
  }
}

export type MessageRepo = ReturnType<typeof createMessageRepo>
