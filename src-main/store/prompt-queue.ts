import type Database from 'better-sqlite3'
import { z } from 'zod'
import { PromptAttachments, type PromptAttachment } from '../../src-shared'
import { QueueEntry, QueueStatus } from './records'
import { newId } from './new-id'
import { checkInput } from './sql-json'
import { StoreError } from './store-error'

export type EnqueueInput = { sessionId: string; requestId?: string | null; text: string; agent?: string | null; kind?: QueueEntry['kind']; attachments?: PromptAttachment[] }

type QueueRow = {
  id: string
  session_id: string
  request_id: string | null
  text: string
  agent: string | null
  kind: QueueEntry['kind']
  status: QueueStatus
  created_at: number
  attachments_json: string | null
}

const EnqueueSchema = z.object({
  sessionId: z.string().min(1),
  requestId: z.string().min(1).nullable().optional(),
  text: z.string(),
  agent: z.string().min(1).nullable().optional(),
  kind: QueueEntry.shape.kind.optional(),
  attachments: PromptAttachments.optional(),
})

function toEntry(r: QueueRow): QueueEntry {
  return {
    id: r.id,
    sessionId: r.session_id,
    requestId: r.request_id,
    text: r.text,
    agent: r.agent,
    kind: r.kind,
    ...(r.attachments_json ? { attachments: JSON.parse(r.attachments_json) as PromptAttachment[] } : {}),
    status: r.status,
    createdAt: r.created_at,
  }
}

/** Prompts that arrived while their session was busy, in arrival order. */
export function createQueueRepo(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO prompt_queue (id, session_id, request_id, text, agent, kind, attachments_json, status, created_at)
     VALUES (@id, @sessionId, @requestId, @text, @agent, @kind, @attachments, 'queued', @now)`,
  )
  const selectOne = db.prepare<[string], QueueRow>('SELECT * FROM prompt_queue WHERE id = ?')
  const byRequest = db.prepare<[string], QueueRow>('SELECT * FROM prompt_queue WHERE request_id = ?')
  const list = db.prepare<[string, string], QueueRow>(
    'SELECT * FROM prompt_queue WHERE session_id = ? AND status = ? ORDER BY id',
  )
  const setStatus = db.prepare<[string, string]>('UPDATE prompt_queue SET status = ? WHERE id = ?')

  const enqueue = db.transaction((input: EnqueueInput): { entry: QueueEntry; duplicate: boolean } => {
    if (input.requestId) {
      const existing = byRequest.get(input.requestId)
      if (existing) return { entry: toEntry(existing), duplicate: true }
    }
    const id = newId('que')
    insert.run({
      id,
      sessionId: input.sessionId,
      requestId: input.requestId ?? null,
      text: input.text,
      agent: input.agent ?? null,
      kind: input.kind ?? 'prompt',
      attachments: input.attachments?.length ? JSON.stringify(input.attachments) : null,
      now: Date.now(),
    })
    return { entry: toEntry(selectOne.get(id) as QueueRow), duplicate: false }
  })

  return {
    /** A retried send (same requestId) returns the entry already queued instead of a second one. */
    enqueue(input: EnqueueInput): { entry: QueueEntry; duplicate: boolean } {
      checkInput(EnqueueSchema, input, 'enqueuePrompt')
      return enqueue(input)
    },

    get(id: string): QueueEntry | undefined {
      const row = selectOne.get(id) as QueueRow | undefined
      return row && toEntry(row)
    },

    list(sessionId: string, status: QueueStatus = 'queued'): QueueEntry[] {
      checkInput(QueueStatus, status, 'listQueue status')
      return list.all(sessionId, status).map(toEntry)
    },

    setStatus(id: string, status: QueueStatus): QueueEntry {
      checkInput(QueueStatus, status, 'setQueueStatus status')
      if (setStatus.run(status, id).changes === 0) {
        throw new StoreError('not_found', `setQueueStatus: no queued prompt with id "${id}"`)
      }
      return toEntry(selectOne.get(id) as QueueRow)
    },
  }
}

export type QueueRepo = ReturnType<typeof createQueueRepo>
