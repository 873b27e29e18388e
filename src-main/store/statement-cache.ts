import type Database from 'better-sqlite3'

/**
 * Prepared statements keyed by SQL text, for queries whose text depends on which filters or
 * patch fields are present. The set of variants is small, so the cache stays small.
 */
export function statementCache<Result>(db: Database.Database) {
  const cache = new Map<string, Database.Statement<unknown[], Result>>()
  return (sql: string): Database.Statement<unknown[], Result> => {
    let stmt = cache.get(sql)
    if (!stmt) {
      stmt = db.prepare<unknown[], Result>(sql)
      cache.set(sql, stmt)
    }
    return stmt
  }
}

/** `WHERE a = ? AND b = ?` for the filter fields that are set (undefined = no condition). */
export function whereEquals(columns: Record<string, string | undefined>): { sql: string; params: string[] } {
  const used = Object.entries(columns).filter((e): e is [string, string] => e[1] !== undefined)
  return {
    sql: used.length ? ` WHERE ${used.map(([c]) => `${c} = ?`).join(' AND ')}` : '',
    params: used.map(([, v]) => v),
  }
}
