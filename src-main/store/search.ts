import type Database from 'better-sqlite3'
import { statementCache } from './statement-cache'

export type MessageSearchFilter = {
  /** what the person typed; words are matched as prefixes, all of them must occur */
  query: string
  workspaceRoot?: string
  includeArchived?: boolean
  /** sessions returned (default 50) */
  limit?: number
}

/** One session whose messages contain the words: the newest matching part, with the words marked. */
export type MessageSearchHit = {
  sessionId: string
  messageId: string
  /** text around the match; each matched word between \u0002 and \u0003 */
  snippet: string
}

/** Matching parts read before grouping by session: enough for `limit` sessions in all but pathological cases. */
const SCAN_PER_SESSION = 8
export const MARK_START = '\u0002'
export const MARK_END = '\u0003'

/**
 * Turns typed words into an FTS5 query: each word a quoted phrase (so `-`, `:` or `"` are plain text, never
 * operators), the last one a prefix (results while typing), all required. Null when there is nothing to search.
 */
export function toFtsQuery(text: string, o: { prefix?: boolean } = {}): string | null {
  const words = searchWords(text)
  if (words.length === 0) return null
  const prefix = o.prefix ?? true
  return words.map((w, i) => `"${w.replaceAll('"', '""')}"${prefix && i === words.length - 1 ? '*' : ''}`).join(' ')
}

/** The words of a query: split at spaces, punctuation and symbols, at most 16. */
function searchWords(text: string): string[] {
  return text
    .split(/[\s\p{P}\p{S}]+/u)
    .map((w) => w.trim())
    .filter(Boolean)
    .slice(0, 16)
}

/**
 * Prefixes up to this length are indexed (migration v2's `prefix = '2 3 4'`), so they read like one word. A longer
 * prefix merges the lists of every word it starts, which for a frequent word costs more than the 50 ms a keystroke
 * may: such a query first looks for the exact words, and widens to the prefix only when that finds too few.
 */
const INDEXED_PREFIX = 4

/**
 * The full-text index over text parts (user and assistant messages). Part writes only mark parts as pending (a
 * trigger in migration v2); `indexPending` copies their current text into the index, and every search runs it
 * first, so results never miss a part that was written.
 */
export function createSearchRepo(db: Database.Database) {
  const pending = db.prepare<[number], { part_id: string }>('SELECT part_id FROM message_search_pending LIMIT ?')
  const anyPending = db.prepare<[], { n: number }>('SELECT EXISTS (SELECT 1 FROM message_search_pending) AS n')
  const partText = db.prepare<[string], { session_id: string; message_id: string; text: string | null }>(
    `SELECT session_id, message_id, json_extract(data_json, '$.text') AS text FROM chat_parts WHERE id = ? AND type = 'text'`,
  )
  const docOf = db.prepare<[string], { docid: number }>('SELECT docid FROM message_search_rows WHERE part_id = ?')
  const removeDoc = db.prepare<[number]>('DELETE FROM message_search WHERE rowid = ?')
  const insertDoc = db.prepare<[number | null, string, string, string]>(
    'INSERT INTO message_search (rowid, text, session_id, message_id) VALUES (?, ?, ?, ?)',
  )
  const insertRow = db.prepare<[number, string]>('INSERT INTO message_search_rows (docid, part_id) VALUES (?, ?)')
  const removeRow = db.prepare<[string]>('DELETE FROM message_search_rows WHERE part_id = ?')
  const done = db.prepare<[string]>('DELETE FROM message_search_pending WHERE part_id = ?')
  const searchStatement = statementCache<{ session_id: string; message_id: string; snippet: string }>(db)

  const indexBatch = db.transaction((batch: string[]) => {
    for (const partId of batch) {
      const row = partText.get(partId)
      const doc = docOf.get(partId)
      if (doc) removeDoc.run(doc.docid)
      if (row && typeof row.text === 'string' && row.text.trim() !== '') {
        if (doc) insertDoc.run(doc.docid, row.text, row.session_id, row.message_id)
        else insertRow.run(Number(insertDoc.run(null, row.text, row.session_id, row.message_id).lastInsertRowid), partId)
      } else if (doc) removeRow.run(partId)
      done.run(partId)
    }
  })

  function indexPending(maxParts = Infinity): number {
    let n = 0
    while (n < maxParts) {
      const batch = pending.all(Math.min(500, maxParts - n)).map((r) => r.part_id)
      if (batch.length === 0) break
      indexBatch(batch)
      n += batch.length
    }
    return n
  }

  return {
    indexPending,

    hasPending(): boolean {
      return anyPending.get()?.n === 1
    },

    search(f: MessageSearchFilter): MessageSearchHit[] {
      const prefixed = toFtsQuery(f.query)
      if (!prefixed) return []
      indexPending()
      const limit = f.limit ?? 50
      if ([...(searchWords(f.query).at(-1) ?? '')].length > INDEXED_PREFIX) {
        const exact = find(toFtsQuery(f.query, { prefix: false }) ?? prefixed, f, limit)
        if (exact.length >= limit) return exact
      }
      return find(prefixed, f, limit)
    },
  }

  function find(match: string, f: MessageSearchFilter, limit: number): MessageSearchHit[] {
    const where = ['message_search MATCH ?', `json_extract(m.metadata_json, '$.hiddenAt') IS NULL`]
    const params: unknown[] = [match]
    if (f.workspaceRoot !== undefined) {
      where.push('s.workspace_root = ?')
      params.push(f.workspaceRoot)
    }
    if (!f.includeArchived) where.push('s.archived_at IS NULL')
    // One statement, so each snippet is cut from the row its own MATCH found. `scan`: the newest matching parts,
    // newest first by index row (FTS5 walks its rowids in order, so LIMIT stops early on common words); `newest`:
    // each session's newest of those; then the index is read again at exactly those rows for the snippets, which
    // costs one snippet per hit rather than one per part scanned.
    //
    // Not a second statement `MATCH ? AND rowid = ?` per hit: better-sqlite3 binds a JS number as a REAL, FTS5 takes
    // a rowid bound only when it is an INTEGER (fts5GetRowidLimit) yet tells SQLite the constraint is handled, so
    // that statement returned every matching row and .get() took the oldest, usually another session's (issue 28).
    // Here the rowid comes from the index itself (an INTEGER), and CROSS JOIN keeps `newest` the outer loop.
    const rows = searchStatement(
      `WITH scan AS MATERIALIZED (
         SELECT f.rowid AS docid, f.session_id AS session_id FROM message_search f
           JOIN chat_messages m ON m.id = f.message_id
           JOIN chat_sessions s ON s.id = f.session_id
         WHERE ${where.join(' AND ')}
         ORDER BY f.rowid DESC LIMIT ?
       ), newest AS MATERIALIZED (
         SELECT max(docid) AS docid FROM scan GROUP BY session_id ORDER BY docid DESC LIMIT ?
       )
       SELECT f.session_id, f.message_id, snippet(message_search, 0, char(2), char(3), '…', 12) AS snippet
         FROM newest CROSS JOIN message_search f
        WHERE message_search MATCH ? AND f.rowid = newest.docid
        ORDER BY f.rowid DESC`,
    ).all(...params, limit * SCAN_PER_SESSION, limit, match)
    return rows.map((r) => ({ sessionId: r.session_id, messageId: r.message_id, snippet: r.snippet }))
  }
}

export type SearchRepo = ReturnType<typeof createSearchRepo>
