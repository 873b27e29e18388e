import type Database from 'better-sqlite3'
import { z } from 'zod'
import { ApprovalKind, ApprovalStatus } from './records'
import type { ApprovalRecord } from './records'
import { newId } from './new-id'
import { checkInput, parseJson, parseStrings, toJson } from './sql-json'
import { AlwaysSuggestion, ApprovalArguments, approvalArguments } from '../../src-shared'
import { StoreError } from './store-error'
import { statementCache, whereEquals } from './statement-cache'

export type CreateApprovalInput = {
  id?: string
  sessionId: string
  rootSessionId: string
  messageId?: string | null
  toolCallId: string
  toolName: string
  kind?: ApprovalKind
  agentPath?: string[]
  arguments?: ApprovalArguments
  patterns?: string[]
  alwaysSuggestions?: AlwaysSuggestion[]
}

export type ApprovalFilter = { rootSessionId?: string; sessionId?: string; status?: ApprovalStatus }

type ApprovalRow = {
  id: string
  session_id: string
  root_session_id: string
  message_id: string | null
  tool_call_id: string
  tool_name: string
  kind: ApprovalKind
  agent_path_json: string
  arguments_json: string
  patterns_json: string
  always_patterns_json: string
  status: ApprovalStatus
  answer_json: string | null
  created_at: number
  resolved_at: number | null
  /** joined from the conversation's row (absent when it is gone) */
  conversation_workspace: string | null
  conversation_title: string | null
}

/** An approval with where it was asked: its conversation's workspace and title, for lists across workspaces. */
const SELECT_WITH_CONVERSATION = `SELECT * FROM (SELECT a.*, c.workspace_root AS conversation_workspace, c.title AS conversation_title
  FROM approvals a LEFT JOIN chat_sessions c ON c.id = a.root_session_id)`

const CreateSchema = z.object({
  sessionId: z.string().min(1),
  rootSessionId: z.string().min(1),
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  kind: ApprovalKind.optional(),
  agentPath: z.array(z.string()).optional(),
  arguments: ApprovalArguments.optional(),
  patterns: z.array(z.string()).optional(),
  alwaysSuggestions: z.array(AlwaysSuggestion).optional(),
})

/**
 * The always-patterns column holds suggestion objects (`{pattern, risky, reason?}`); rows written before those
 * existed hold plain pattern strings, read as not risky. Arguments are read as the record types them (older rows
 * held a tool's input directly).
 */
function alwaysColumn(text: string): AlwaysSuggestion[] {
  const value = parseJson(text)
  const items = Array.isArray(value) ? value : []
  return items.flatMap((item): AlwaysSuggestion[] => {
    if (typeof item === 'string') return [{ pattern: item, risky: false }]
    const parsed = AlwaysSuggestion.safeParse(item)
    return parsed.success ? [parsed.data] : []
  })
}

function toRecord(r: ApprovalRow): ApprovalRecord {
  return {
    id: r.id,
    sessionId: r.session_id,
    rootSessionId: r.root_session_id,
    messageId: r.message_id,
    toolCallId: r.tool_call_id,
    toolName: r.tool_name,
    kind: r.kind,
    agentPath: parseStrings(r.agent_path_json),
    arguments: approvalArguments(r.kind, parseJson(r.arguments_json)),
    patterns: parseStrings(r.patterns_json),
    alwaysSuggestions: alwaysColumn(r.always_patterns_json),
    status: r.status,
    answer: parseJson(r.answer_json),
    createdAt: r.created_at,
    resolvedAt: r.resolved_at,
    ...(r.conversation_workspace !== null ? { workspaceRoot: r.conversation_workspace } : {}),
    ...(r.conversation_title !== null ? { conversationTitle: r.conversation_title } : {}),
  }
}

export function createApprovalRepo(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO approvals (id, session_id, root_session_id, message_id, tool_call_id, tool_name, kind, agent_path_json,
       arguments_json, patterns_json, always_patterns_json, status, created_at)
     VALUES (@id, @sessionId, @rootSessionId, @messageId, @toolCallId, @toolName, @kind, @agentPath,
       @arguments, @patterns, @alwaysPatterns, 'pending', @now)`,
  )
  const selectOne = db.prepare<[string], ApprovalRow>(`${SELECT_WITH_CONVERSATION} WHERE id = ?`)
  const listStatement = statementCache<ApprovalRow>(db)
  const resolve = db.prepare(
    `UPDATE approvals SET status = @status, answer_json = @answer, resolved_at = @now
     WHERE id = @id AND status = 'pending'`,
  )

  return {
    create(input: CreateApprovalInput): ApprovalRecord {
      checkInput(CreateSchema, input, 'createApproval')
      const id = input.id ?? newId('apr')
      insert.run({
        id,
        sessionId: input.sessionId,
        rootSessionId: input.rootSessionId,
        messageId: input.messageId ?? null,
        toolCallId: input.toolCallId,
        toolName: input.toolName,
        kind: input.kind ?? 'tool',
        agentPath: toJson(input.agentPath ?? []),
        arguments: toJson(input.arguments ?? {}),
        patterns: toJson(input.patterns ?? []),
        alwaysPatterns: toJson(input.alwaysSuggestions ?? []),
        now: Date.now(),
      })
      return toRecord(selectOne.get(id) as ApprovalRow)
    },

    get(id: string): ApprovalRecord | undefined {
      const row = selectOne.get(id)
      return row && toRecord(row)
    },

    list(f: ApprovalFilter = {}): ApprovalRecord[] {
      if (f.status !== undefined) checkInput(ApprovalStatus, f.status, 'listApprovals status')
      const where = whereEquals({ root_session_id: f.rootSessionId, session_id: f.sessionId, status: f.status })
      return listStatement(`${SELECT_WITH_CONVERSATION}${where.sql} ORDER BY id`).all(...where.params).map(toRecord)
    },

    /**
     * Moves a pending approval to its outcome. Returns the updated record, or undefined when the
     * approval was already resolved (e.g. answered from another window) — first answer wins.
     */
    resolve(id: string, status: Exclude<ApprovalStatus, 'pending'>, answer?: unknown): ApprovalRecord | undefined {
      checkInput(ApprovalStatus.exclude(['pending']), status, 'resolveApproval status')
      if (!selectOne.get(id)) throw new StoreError('not_found', `resolveApproval: no approval with id "${id}"`)
      const changed = resolve.run({ id, status, answer: answer === undefined ? null : toJson(answer), now: Date.now() }).changes
      return changed === 0 ? undefined : toRecord(selectOne.get(id) as ApprovalRow)
    },
  }
}

export type ApprovalRepo = ReturnType<typeof createApprovalRepo>
