import type Database from 'better-sqlite3'
import type { PartRecord, SequencedEvent } from '../../src-shared'
import { StoreError } from './store-error'

const EVENTS_PER_STATEMENT = 16

type EventRow = { stream: string; seq: number; json: string; at: number }

export type WriteBufferOptions = {
  /** buffered rows (distinct parts + events) that force a synchronous flush */
  maxBuffered: number
  /** where a dropped write is reported (a part whose message is gone) */
  log(line: string): void
}

/**
 * Holds the hot-path writes (part upserts, event appends) in memory and writes them in one
 * transaction per tick (or sooner when `maxBuffered` rows are waiting). Parts are coalesced
 * by id, so a text part growing by a few characters per chunk costs one row write per flush.
 */
export function createWriteBuffer(db: Database.Database, options: WriteBufferOptions) {
  const upsertPart = db.prepare(
    `INSERT INTO chat_parts (id, message_id, session_id, "index", type, data_json, tool_call_id, tool_state)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET message_id = excluded.message_id, session_id = excluded.session_id,
       "index" = excluded."index", type = excluded.type, data_json = excluded.data_json,
       tool_call_id = excluded.tool_call_id, tool_state = excluded.tool_state`,
  )
  // REPLACE: a seq written twice keeps the latest event instead of failing the whole batch.
  const insertEventSql = 'INSERT OR REPLACE INTO event_log (stream_id, seq, event_json, created_at) VALUES '
  const insertEvent = db.prepare(insertEventSql + '(?, ?, ?, ?)')
  // Multi-row inserts cut the per-statement overhead, which dominates at ~100k events/s.
  const insertEvents = db.prepare(insertEventSql + new Array(EVENTS_PER_STATEMENT).fill('(?, ?, ?, ?)').join(', '))
  const eventArgs: unknown[] = new Array(EVENTS_PER_STATEMENT * 4)

  let parts = new Map<string, PartRecord>()
  let events: EventRow[] = []
  /** highest buffered seq per stream, so lastSeq() needs no flush */
  let bufferedSeq = new Map<string, number>()
  let scheduled: NodeJS.Immediate | undefined
  let closed = false
  /** a flush ran inside an outer transaction; listeners wait for that transaction's commit */
  let notifyAfterCommit = false
  const flushListeners = new Set<() => void>()
  /** one-shot: rows that must land in the same transaction as what is buffered (a nested transcript's copy) */
  const beforeFlush = new Set<() => void>()
  let preparing = false
  const errorListeners = new Set<(err: unknown) => void>()

  function writeRows(): { failures: string[]; dropped: { part: string; sessionId: string; messageId: string }[] } {
    const failures: string[] = []
    const dropped: { part: string; sessionId: string; messageId: string }[] = []
    for (const p of parts.values()) {
      try {
        const data = JSON.stringify(p.data ?? {})
        upsertPart.run(p.id, p.messageId, p.sessionId, p.index, p.type, data, p.toolCallId ?? null, p.toolState ?? null)
      } catch (err) {
        // One bad part must not lose the rest of the batch: the failed statement alone is rolled back. A part whose
        // message is gone (its session was deleted while a write was in flight) has nowhere to go: it is dropped and
        // logged. Anything else is reported after commit.
        if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') dropped.push({ part: p.id, sessionId: p.sessionId, messageId: p.messageId })
        else failures.push(`part ${p.id} (${String(err)})`)
      }
    }
    let i = 0
    for (; i + EVENTS_PER_STATEMENT <= events.length; i += EVENTS_PER_STATEMENT) {
      for (let k = 0; k < EVENTS_PER_STATEMENT; k++) {
        const e = events[i + k]
        eventArgs[k * 4] = e.stream
        eventArgs[k * 4 + 1] = e.seq
        eventArgs[k * 4 + 2] = e.json
        eventArgs[k * 4 + 3] = e.at
      }
      insertEvents.run(eventArgs)
    }
    for (; i < events.length; i++) insertEvent.run(events[i].stream, events[i].seq, events[i].json, events[i].at)
    return { failures, dropped }
  }
  const writeAll = db.transaction(writeRows)

  function notify(): void {
    let first: unknown
    for (const cb of flushListeners) {
      try {
        cb()
      } catch (err) {
        // Every listener still runs; the first failure is rethrown below.
        first ??= err
      }
    }
    if (first !== undefined) throw first
  }

  function runBeforeFlush(): void {
    preparing = true
    try {
      // Until none is left: a nested transcript's copy can change the transcript it is nested in.
      while (beforeFlush.size > 0) {
        const callbacks = [...beforeFlush]
        beforeFlush.clear()
        for (const cb of callbacks) cb()
      }
    } finally {
      preparing = false
    }
  }

  function flush(): void {
    if (scheduled) {
      clearImmediate(scheduled)
      scheduled = undefined
    }
    runBeforeFlush()
    if (parts.size === 0 && events.length === 0) return
    if (closed) throw new StoreError('closed', 'flush: the store is closed')
    const nested = db.inTransaction
    // On a failed commit the buffers are kept as they are, so a later flush retries them.
    const { failures, dropped } = writeAll()
    parts = new Map()
    events = []
    bufferedSeq = new Map()
    if (nested) notifyAfterCommit = true
    else notify()
    if (dropped.length > 0) reportDropped(dropped)
    if (failures.length > 0) {
      const detail = failures.join('; ')
      throw new StoreError('write_failed', `flush: ${failures.length} row(s) could not be written: ${detail}`)
    }
  }

  /** Sessions whose dropped writes were reported: a run still streaming into a deleted session logs once, not per chunk. */
  const reportedGone = new Set<string>()
  function reportDropped(dropped: { part: string; sessionId: string; messageId: string }[]): void {
    const fresh = dropped.filter((d) => !reportedGone.has(d.sessionId))
    for (const d of fresh) {
      if (reportedGone.size >= 1000) reportedGone.clear()
      reportedGone.add(d.sessionId)
    }
    if (fresh.length === 0) return
    const detail = fresh.map((d) => `part ${d.part} of session ${d.sessionId} (message "${d.messageId}" does not exist)`).join('; ')
    options.log(`[agentry] store: dropped write(s) for rows that no longer exist: ${detail}; later ones for the same session are not logged`)
  }

  function runScheduled(): void {
    scheduled = undefined
    try {
      flush()
    } catch (err) {
      // No caller to throw to on a timer tick: hand it to onError listeners, or fail loudly.
      if (errorListeners.size === 0) throw err
      for (const cb of errorListeners) cb(err)
    }
  }

  function afterWrite(): void {
    // Rows written by a before-flush callback belong to the flush that is starting.
    if (preparing) return
    if (parts.size + events.length >= options.maxBuffered) flush()
    else if (!scheduled) scheduled = setImmediate(runScheduled)
  }

  function assertOpen(where: string): void {
    if (closed) throw new StoreError('closed', `${where}: the store is closed`)
  }

  return {
    upsertPart(p: PartRecord): void {
      assertOpen('upsertPart')
      // Delete first so Map order follows the latest write (keeps flush order = write order).
      parts.delete(p.id)
      parts.set(p.id, { ...p })
      afterWrite()
    },

    getBufferedPart(id: string): PartRecord | undefined {
      const p = parts.get(id)
      return p && { ...p }
    },

    appendEvent(e: SequencedEvent): void {
      assertOpen('appendEvent')
      events.push({ stream: e.stream, seq: e.seq, json: JSON.stringify(e.event), at: Date.now() })
      const prev = bufferedSeq.get(e.stream)
      if (prev === undefined || e.seq > prev) bufferedSeq.set(e.stream, e.seq)
      afterWrite()
    },

    bufferedLastSeq(stream: string): number | undefined {
      return bufferedSeq.get(stream)
    },

    /** Drops what is buffered; used when an enclosing transaction rolls back. */
    discard(): void {
      parts = new Map()
      events = []
      bufferedSeq = new Map()
      notifyAfterCommit = false
    },

    /** Called by the store after an outer transaction commits. */
    committed(): void {
      if (!notifyAfterCommit) return
      notifyAfterCommit = false
      notify()
    },

    flush,

    beforeFlush(cb: () => void): void {
      beforeFlush.add(cb)
      if (!scheduled && !closed && !preparing) scheduled = setImmediate(runScheduled)
    },

    onFlush(cb: () => void): () => void {
      flushListeners.add(cb)
      return () => flushListeners.delete(cb)
    },

    onError(cb: (err: unknown) => void): () => void {
      errorListeners.add(cb)
      return () => errorListeners.delete(cb)
    },

    close(): void {
      try {
        flush()
      } finally {
        closed = true
        if (scheduled) clearImmediate(scheduled)
        scheduled = undefined
      }
    },
  }
}

export type WriteBuffer = ReturnType<typeof createWriteBuffer>
