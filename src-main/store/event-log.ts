import type Database from 'better-sqlite3'
import type { AgentEvent, SequencedEvent } from '../../src-shared'

/** Reads of the persisted event log; appends go through the write buffer. */
export function createEventLogRepo(db: Database.Database) {
  const after = db.prepare<[string, number, number], { seq: number; event_json: string }>(
    'SELECT seq, event_json FROM event_log WHERE stream_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  )
  const last = db.prepare<[string], number | null>('SELECT MAX(seq) FROM event_log WHERE stream_id = ?').pluck()
  const oldest = db.prepare<[string], number | null>('SELECT MIN(seq) FROM event_log WHERE stream_id = ?').pluck()
  const prune = db.prepare<[string, number]>('DELETE FROM event_log WHERE stream_id = ? AND seq <= ?')

  return {
    after(stream: string, afterSeq: number, limit = -1): SequencedEvent[] {
      // LIMIT -1 = no limit in SQLite.
      return after.all(stream, afterSeq, limit).map((r) => ({
        seq: r.seq,
        stream,
        // Written by this store from a typed AgentEvent; re-validating every replayed event
        // would dominate catch-up time.
        event: JSON.parse(r.event_json) as AgentEvent,
      }))
    },

    lastSeq(stream: string): number {
      return last.get(stream) ?? 0
    },

    oldestSeq(stream: string): number | undefined {
      return oldest.get(stream) ?? undefined
    },

    prune(stream: string, keepLast: number): void {
      const top = last.get(stream)
      if (top === null || top === undefined) return
      prune.run(stream, top - Math.max(0, Math.floor(keepLast)))
    },
  }
}

export type EventLogRepo = ReturnType<typeof createEventLogRepo>
