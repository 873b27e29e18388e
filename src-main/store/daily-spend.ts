import type Database from 'better-sqlite3'

/** What a workspace spent on one calendar day (local time), every conversation and subagent in it included. */
export interface DailySpend {
  tokens: number
  costUsd: number
}

/** The day a spend counts for: the host's local calendar date, as people read "today". */
export function localDay(at = Date.now()): string {
  const d = new Date(at)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** The `daily_spend` rows: one per workspace and day, added to per model step (so a crash loses nothing spent). */
export function createDailySpendRepo(db: Database.Database) {
  const add = db.prepare(
    `INSERT INTO daily_spend (workspace_root, day, tokens, cost_usd) VALUES (@root, @day, @tokens, @cost)
     ON CONFLICT (workspace_root, day) DO UPDATE SET tokens = tokens + @tokens, cost_usd = cost_usd + @cost`,
  )
  const get = db.prepare<[string, string], { tokens: number; cost_usd: number }>('SELECT tokens, cost_usd FROM daily_spend WHERE workspace_root = ? AND day = ?')
  return {
    /** An unknown cost adds tokens only (the day's cost is then a lower bound, as a session's is). */
    add(workspaceRoot: string, day: string, tokens: number, costUsd: number | null): void {
      add.run({ root: workspaceRoot, day, tokens, cost: costUsd !== null && Number.isFinite(costUsd) ? costUsd : 0 })
    },
    get(workspaceRoot: string, day: string): DailySpend {
      const row = get.get(workspaceRoot, day)
      return { tokens: row?.tokens ?? 0, costUsd: row?.cost_usd ?? 0 }
    },
  }
}
