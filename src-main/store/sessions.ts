import type Database from 'better-sqlite3'
import { z } from 'zod'
import { ModelRef, PermissionRule, SessionStatus } from '../../src-shared'
import type { SessionRecord, TokenUsage } from '../../src-shared'
import { monotonicNow } from './clock'
import { newId } from './new-id'
import { checkInput, parseJson, parseObject, toJson } from './sql-json'
import { StoreError } from './store-error'
import { statementCache } from './statement-cache'

export type CreateSessionInput = {
  id?: string
  agent: string
  title?: string
  workspaceRoot: string
  model?: ModelRef | null
  parentId?: string | null
  parentMessageId?: string | null
  metadata?: Record<string, unknown>
  status?: SessionStatus
  /** session-level permission rules (e.g. a child's intersected ruleset, CLI `--allow`) */
  permissions?: PermissionRule[]
}

export type SessionFilter = {
  workspaceRoot?: string
  agents?: string[]
  /** a session id lists its children; `null` lists top-level sessions only */
  parentId?: string | null
  includeArchived?: boolean
  /** case-insensitive substring of the title */
  search?: string
  /** only sessions in one of these statuses (restart reconciliation looks for non-idle ones) */
  statuses?: SessionStatus[]
  limit?: number
  offset?: number
}

export type SessionPatch = {
  title?: string
  status?: SessionStatus
  metadata?: Record<string, unknown>
  model?: ModelRef | null
  archivedAt?: number | null
  permissions?: PermissionRule[]
}

/**
 * A session row in COLUMNS order. Sessions are read as raw arrays: building a 20-key object per
 * row costs more than the query itself when listing 200 sessions.
 */
type SessionRow = [
  id: string,
  agent: string,
  title: string,
  workspaceRoot: string,
  modelJson: string | null,
  parentId: string | null,
  parentMessageId: string | null,
  status: SessionStatus,
  metadataJson: string,
  promptTokens: number,
  completionTokens: number,
  reasoningTokens: number,
  cacheReadTokens: number,
  cacheWriteTokens: number,
  totalTokens: number,
  costUsd: number,
  createdAt: number,
  updatedAt: number,
  archivedAt: number | null,
  subPromptTokens: number,
  subCompletionTokens: number,
  subReasoningTokens: number,
  subCacheReadTokens: number,
  subCacheWriteTokens: number,
  subTotalTokens: number,
  subCostUsd: number,
  unpricedTokens: number,
]

const COLUMNS = `id, agent, title, workspace_root, model_json, parent_id, parent_message_id, status, metadata_json,
  prompt_tokens, completion_tokens, reasoning_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_usd,
  created_at, updated_at, archived_at, sub_prompt_tokens, sub_completion_tokens, sub_reasoning_tokens,
  sub_cache_read_tokens, sub_cache_write_tokens, sub_total_tokens, sub_cost_usd, unpriced_tokens`

const DEFAULT_LIMIT = 200

const CreateSessionSchema = z.object({
  agent: z.string().min(1),
  workspaceRoot: z.string().min(1),
  model: ModelRef.nullable().optional(),
  status: SessionStatus.optional(),
  permissions: z.array(PermissionRule).optional(),
})

const PatchSchema = z.object({
  status: SessionStatus.optional(),
  model: ModelRef.nullable().optional(),
  permissions: z.array(PermissionRule).optional(),
})

function toRecord(r: SessionRow): SessionRecord {
  const [id, agent, title, workspaceRoot, modelJson, parentId, parentMessageId, status, metadataJson] = r
  return {
    id,
    agent,
    title,
    workspaceRoot,
    model: modelJson === null ? null : (parseJson(modelJson) as ModelRef),
    parentId,
    parentMessageId,
    status,
    metadata: parseObject(metadataJson),
    usage: { prompt: r[9], completion: r[10], reasoning: r[11], cacheRead: r[12], cacheWrite: r[13], total: r[14] },
    costUsd: r[15],
    createdAt: r[16],
    updatedAt: r[17],
    archivedAt: r[18],
    subagentUsage: { prompt: r[19], completion: r[20], reasoning: r[21], cacheRead: r[22], cacheWrite: r[23], total: r[24] },
    subagentCostUsd: r[25],
    unpricedTokens: r[26],
  }
}

/** null cost: the model's price is unknown, so its tokens count as unpriced (the cost shown is then a lower bound). */
function usageParams(id: string, usage: Partial<TokenUsage>, costUsd: number | null) {
  const total = usage.total ?? 0
  const priced = costUsd !== null && Number.isFinite(costUsd)
  return {
    id,
    prompt: usage.prompt ?? 0,
    completion: usage.completion ?? 0,
    reasoning: usage.reasoning ?? 0,
    cacheRead: usage.cacheRead ?? 0,
    cacheWrite: usage.cacheWrite ?? 0,
    total,
    costUsd: priced ? costUsd : 0,
    unpriced: priced ? 0 : total,
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

export function createSessionRepo(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO chat_sessions (id, agent, title, workspace_root, model_json, parent_id, parent_message_id, status,
       permissions_json, metadata_json, created_at, updated_at)
     VALUES (@id, @agent, @title, @workspaceRoot, @model, @parentId, @parentMessageId, @status,
       @permissions, @metadata, @now, @now)`,
  )
  const selectOne = db.prepare<[string], SessionRow>(`SELECT ${COLUMNS} FROM chat_sessions WHERE id = ?`).raw(true)
  const selectPermissions = db.prepare<[string], { permissions_json: string }>(
    'SELECT permissions_json FROM chat_sessions WHERE id = ?',
  )
  const addUsage = db.prepare(
    `UPDATE chat_sessions SET prompt_tokens = prompt_tokens + @prompt, completion_tokens = completion_tokens + @completion,
       reasoning_tokens = reasoning_tokens + @reasoning, cache_read_tokens = cache_read_tokens + @cacheRead,
       cache_write_tokens = cache_write_tokens + @cacheWrite, total_tokens = total_tokens + @total,
       cost_usd = cost_usd + @costUsd, unpriced_tokens = unpriced_tokens + @unpriced
     WHERE id = @id`,
  )
  const addSubUsage = db.prepare(
    `UPDATE chat_sessions SET sub_prompt_tokens = sub_prompt_tokens + @prompt,
       sub_completion_tokens = sub_completion_tokens + @completion, sub_reasoning_tokens = sub_reasoning_tokens + @reasoning,
       sub_cache_read_tokens = sub_cache_read_tokens + @cacheRead, sub_cache_write_tokens = sub_cache_write_tokens + @cacheWrite,
       sub_total_tokens = sub_total_tokens + @total, sub_cost_usd = sub_cost_usd + @costUsd,
       unpriced_tokens = unpriced_tokens + @unpriced
     WHERE id = @id`,
  )
  const remove = db.prepare<[string]>('DELETE FROM chat_sessions WHERE id = ?')
  const selectSubtree = db.prepare<[string], { id: string }>(
    `WITH RECURSIVE tree(id) AS (SELECT id FROM chat_sessions WHERE id = ?
       UNION ALL SELECT s.id FROM chat_sessions s JOIN tree t ON s.parent_id = t.id)
     SELECT id FROM tree`,
  )
  // Rows that name a session without a foreign key (opaque children have no session row), removed with it.
  const IDS = '(SELECT value FROM json_each(@ids))'
  const removeRelated = [
    `DELETE FROM approvals WHERE session_id IN ${IDS} OR root_session_id IN ${IDS}`,
    `DELETE FROM prompt_queue WHERE session_id IN ${IDS}`,
    `DELETE FROM background_jobs WHERE id IN ${IDS} OR parent_session_id IN ${IDS} OR root_session_id IN ${IDS}`,
    `DELETE FROM event_log WHERE stream_id IN ${IDS}`,
  ].map((sql) => db.prepare<[{ ids: string }]>(sql))
  const listStatement = statementCache<SessionRow>(db)
  const writeStatement = statementCache<unknown>(db)

  function get(id: string): SessionRecord | undefined {
    const row = selectOne.get(id)
    return row && toRecord(row)
  }

  function mustGet(id: string, where: string): SessionRecord {
    const found = get(id)
    if (!found) throw new StoreError('not_found', `${where}: no session with id "${id}"`)
    return found
  }

  return {
    create(input: CreateSessionInput): SessionRecord {
      checkInput(CreateSessionSchema, input, 'createSession')
      const id = input.id ?? newId('ses')
      try {
        insert.run({
          id,
          agent: input.agent,
          title: input.title ?? '',
          workspaceRoot: input.workspaceRoot,
          model: input.model ? toJson(input.model) : null,
          parentId: input.parentId ?? null,
          parentMessageId: input.parentMessageId ?? null,
          status: input.status ?? 'idle',
          permissions: toJson(input.permissions ?? []),
          metadata: toJson(input.metadata ?? {}),
          now: monotonicNow(),
        })
      } catch (err) {
        if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
          throw new StoreError('not_found', `createSession: parentId "${input.parentId}" is not a stored session`)
        }
        if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
          throw new StoreError('invalid_input', `createSession: a session with id "${id}" already exists`)
        }
        throw err
      }
      return mustGet(id, 'createSession')
    },

    get,

    permissions(id: string): PermissionRule[] {
      const row = selectPermissions.get(id)
      if (!row) throw new StoreError('not_found', `getSessionPermissions: no session with id "${id}"`)
      return parseJson(row.permissions_json) as PermissionRule[]
    },

    list(f: SessionFilter = {}): SessionRecord[] {
      const where: string[] = []
      const params: unknown[] = []
      if (f.workspaceRoot !== undefined) {
        where.push('workspace_root = ?')
        params.push(f.workspaceRoot)
      }
      if (f.agents !== undefined) {
        if (f.agents.length === 0) return []
        where.push(`agent IN (${f.agents.map(() => '?').join(', ')})`)
        params.push(...f.agents)
      }
      if (f.parentId === null) where.push('parent_id IS NULL')
      else if (f.parentId !== undefined) {
        where.push('parent_id = ?')
        params.push(f.parentId)
      }
      if (f.statuses !== undefined) {
        if (f.statuses.length === 0) return []
        where.push(`status IN (${f.statuses.map(() => '?').join(', ')})`)
        params.push(...f.statuses)
      }
      if (!f.includeArchived) where.push('archived_at IS NULL')
      if (f.search) {
        where.push("title LIKE ? ESCAPE '\\'")
        params.push(`%${escapeLike(f.search)}%`)
      }
      const sql =
        `SELECT ${COLUMNS} FROM chat_sessions` +
        (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
        ' ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?'
      params.push(f.limit ?? DEFAULT_LIMIT, f.offset ?? 0)
      return listStatement(sql).raw(true).all(...params).map(toRecord)
    },

    update(id: string, patch: SessionPatch): SessionRecord {
      checkInput(PatchSchema, patch, 'updateSession')
      const columns: Array<[string, unknown]> = [['updated_at', monotonicNow()]]
      if (patch.title !== undefined) columns.push(['title', patch.title])
      if (patch.status !== undefined) columns.push(['status', patch.status])
      if (patch.metadata !== undefined) columns.push(['metadata_json', toJson(patch.metadata)])
      if (patch.model !== undefined) columns.push(['model_json', patch.model === null ? null : toJson(patch.model)])
      if (patch.archivedAt !== undefined) columns.push(['archived_at', patch.archivedAt])
      if (patch.permissions !== undefined) columns.push(['permissions_json', toJson(patch.permissions)])
      const sql = `UPDATE chat_sessions SET ${columns.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ?`
      const changed = writeStatement(sql).run(...columns.map(([, v]) => v), id).changes
      if (changed === 0) throw new StoreError('not_found', `updateSession: no session with id "${id}"`)
      return mustGet(id, 'updateSession')
    },

    addUsage(id: string, usage: Partial<TokenUsage>, costUsd: number | null): void {
      const changed = addUsage.run(usageParams(id, usage, costUsd)).changes
      if (changed === 0) throw new StoreError('not_found', `addSessionUsage: no session with id "${id}"`)
    },

    /** Adds a descendant's usage to each of these sessions' subagent totals (ids without a row are skipped). */
    addSubagentUsage(ids: string[], usage: Partial<TokenUsage>, costUsd: number | null): void {
      for (const id of ids) addSubUsage.run(usageParams(id, usage, costUsd))
    },

    /** The session and all its descendants, the session first. */
    subtree(id: string): string[] {
      return selectSubtree.all(id).map((r) => r.id)
    },

    /**
     * The session, its descendants (by cascade) and what names them elsewhere: approvals, queued prompts, background
     * jobs and, for a root, its event stream. Returns the ids removed.
     */
    remove(id: string): string[] {
      return db.transaction(() => {
        const ids = selectSubtree.all(id).map((r) => r.id)
        for (const statement of removeRelated) statement.run({ ids: JSON.stringify(ids) })
        remove.run(id)
        return ids
      })()
    },
  }
}

export type SessionRepo = ReturnType<typeof createSessionRepo>
