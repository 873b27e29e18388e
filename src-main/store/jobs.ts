import type Database from 'better-sqlite3'
import { z } from 'zod'
import { JobStatus } from './records'
import type { JobRecord } from './records'
import { checkInput } from './sql-json'
import { statementCache, whereEquals } from './statement-cache'
import { StoreError } from './store-error'

export type CreateJobInput = {
  /** the child's session/task id */
  id: string
  parentSessionId: string
  rootSessionId: string
  parentMessageId?: string | null
  toolCallId: string
  agentType: string
  description?: string
  status?: JobStatus
}

export type JobFilter = { status?: JobStatus; rootSessionId?: string }

type JobRow = {
  id: string
  parent_session_id: string
  root_session_id: string
  parent_message_id: string | null
  tool_call_id: string
  agent_type: string
  description: string
  status: JobStatus
  created_at: number
  ended_at: number | null
}

const CreateSchema = z.object({
  id: z.string().min(1),
  parentSessionId: z.string().min(1),
  rootSessionId: z.string().min(1),
  toolCallId: z.string().min(1),
  agentType: z.string().min(1),
  status: JobStatus.optional(),
})

function toJob(r: JobRow): JobRecord {
  return {
    id: r.id,
    parentSessionId: r.parent_session_id,
    rootSessionId: r.root_session_id,
    parentMessageId: r.parent_message_id,
    toolCallId: r.tool_call_id,
    agentType: r.agent_type,
    description: r.description,
    status: r.status,
    createdAt: r.created_at,
    endedAt: r.ended_at,
  }
}

/** Background children, so a restarted host can tell each parent its child was interrupted. */
export function createJobRepo(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO background_jobs (id, parent_session_id, root_session_id, parent_message_id, tool_call_id, agent_type,
       description, status, created_at, ended_at)
     VALUES (@id, @parentSessionId, @rootSessionId, @parentMessageId, @toolCallId, @agentType, @description, @status,
       @createdAt, @endedAt)`,
  )
  const selectOne = db.prepare<[string], JobRow>('SELECT * FROM background_jobs WHERE id = ?')
  // ended_at is set once, when the job first leaves 'running'.
  const update = db.prepare<[{ id: string; status: JobStatus; now: number }]>(
    `UPDATE background_jobs SET status = @status,
       ended_at = CASE WHEN @status = 'running' THEN NULL ELSE COALESCE(ended_at, @now) END
     WHERE id = @id`,
  )
  const listStatement = statementCache<JobRow>(db)

  return {
    create(input: CreateJobInput): JobRecord {
      checkInput(CreateSchema, input, 'createJob')
      const status = input.status ?? 'running'
      const now = Date.now()
      try {
        insert.run({
          id: input.id,
          parentSessionId: input.parentSessionId,
          rootSessionId: input.rootSessionId,
          parentMessageId: input.parentMessageId ?? null,
          toolCallId: input.toolCallId,
          agentType: input.agentType,
          description: input.description ?? '',
          status,
          createdAt: now,
          endedAt: status === 'running' ? null : now,
        })
      } catch (err) {
        if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
          throw new StoreError('invalid_input', `createJob: a job with id "${input.id}" already exists`)
        }
        throw err
      }
      return toJob(selectOne.get(input.id) as JobRow)
    },

    get(id: string): JobRecord | undefined {
      const row = selectOne.get(id)
      return row && toJob(row)
    },

    update(id: string, status: JobStatus): JobRecord {
      checkInput(JobStatus, status, 'updateJob status')
      if (update.run({ id, status, now: Date.now() }).changes === 0) {
        throw new StoreError('not_found', `updateJob: no background job with id "${id}"`)
      }
      return toJob(selectOne.get(id) as JobRow)
    },

    list(f: JobFilter = {}): JobRecord[] {
      if (f.status !== undefined) checkInput(JobStatus, f.status, 'listJobs status')
      const where = whereEquals({ status: f.status, root_session_id: f.rootSessionId })
      return listStatement(`SELECT * FROM background_jobs${where.sql} ORDER BY created_at, id`).all(...where.params).map(toJob)
    },
  }
}

export type JobRepo = ReturnType<typeof createJobRepo>
