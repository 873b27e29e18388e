import type Database from 'better-sqlite3'

export type SessionCounts = { pendingApprovals: number; queued: number; childCount: number }

/** Per-session badge counts for a page of the session list, in three grouped queries instead of three per row. */
export function createSummaryRepo(db: Database.Database) {
  const queuedSessions = db.prepare<[], { session_id: string }>(`SELECT DISTINCT session_id FROM prompt_queue WHERE status = 'queued'`)

  const grouped = (sql: string, ids: string[]): Map<string, number> => {
    const out = new Map<string, number>()
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500)
      const rows = db.prepare(sql.replace('$IDS', chunk.map(() => '?').join(','))).all(...chunk) as { id: string; n: number }[]
      for (const r of rows) out.set(r.id, r.n)
    }
    return out
  }

  const archiveChildren = db.prepare<[number, number], { id: string }>(
    `UPDATE chat_sessions SET archived_at = ? WHERE parent_id IS NOT NULL AND archived_at IS NULL
       AND status IN ('idle', 'error', 'aborted') AND updated_at < ? RETURNING id`,
  )

  return {
    archiveFinishedChildren(updatedBefore: number): string[] {
      return archiveChildren.all(Date.now(), updatedBefore).map((r) => r.id)
    },
    counts(ids: string[]): Record<string, SessionCounts> {
      if (ids.length === 0) return {}
      const approvals = grouped(`SELECT root_session_id AS id, COUNT(*) AS n FROM approvals WHERE status = 'pending' AND root_session_id IN ($IDS) GROUP BY root_session_id`, ids)
      const queued = grouped(`SELECT session_id AS id, COUNT(*) AS n FROM prompt_queue WHERE status = 'queued' AND session_id IN ($IDS) GROUP BY session_id`, ids)
      const children = grouped(`SELECT parent_id AS id, COUNT(*) AS n FROM chat_sessions WHERE parent_id IN ($IDS) GROUP BY parent_id`, ids)
      const out: Record<string, SessionCounts> = {}
      for (const id of ids) out[id] = { pendingApprovals: approvals.get(id) ?? 0, queued: queued.get(id) ?? 0, childCount: children.get(id) ?? 0 }
      return out
    },
    sessionsWithQueuedPrompts(): string[] {
      return queuedSessions.all().map((r) => r.session_id)
    },
  }
}
