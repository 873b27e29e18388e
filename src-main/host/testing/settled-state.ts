import Database from 'better-sqlite3'
import path from 'node:path'
import type { SessionStatus } from '../../../src-shared'
import type { Host } from '../create-host'

const BUSY = new Set<SessionStatus>(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])

/** Waits until nothing runs on the host: no session run, no child task, nothing queued to start. */
export async function settleHost(host: Host): Promise<void> {
  do {
    await host.runner.idle()
    await host.runs.settleAll()
  } while (host.runner.runs().length > 0)
  host.store.flush()
}

/**
 * What must hold on a host after any sequence of calls, once it settled: no session shown busy, no background job
 * still "running", no pending approval without a run to answer it, and a database that passes SQLite's own checks.
 * Returns the problems found (empty = healthy), so a fuzz test can print the sequence that caused them.
 */
export function healthProblems(host: Host): string[] {
  const problems: string[] = []
  const sessions = host.store.sessions.listSessions({ includeArchived: true, limit: 100_000 })
  for (const s of sessions) if (BUSY.has(s.status)) problems.push(`session ${s.id} is still ${s.status}`)
  for (const j of host.store.queue.listJobs({ status: 'running' })) problems.push(`background job ${j.id} is still running`)
  for (const s of sessions) {
    const queued = host.store.queue.listQueue(s.id, 'queued')
    if (queued.length) problems.push(`session ${s.id} has ${queued.length} queued prompt(s) that never started`)
  }
  for (const a of host.store.approvals.listApprovals({ status: 'pending' })) problems.push(`approval ${a.id} (${a.toolName}) is still pending with nobody to answer it`)
  problems.push(...databaseProblems(host.dataDir))
  return problems
}

/** `PRAGMA integrity_check` and `foreign_key_check` on a second connection (the host keeps its own open). */
export function databaseProblems(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, 'agentry.db'), { readonly: true })
  try {
    const problems: string[] = []
    const integrity = db.pragma('integrity_check', { simple: true })
    if (integrity !== 'ok') problems.push(`integrity_check: ${String(integrity)}`)
    const fk = db.pragma('foreign_key_check') as unknown[]
    if (fk.length) problems.push(`foreign_key_check: ${JSON.stringify(fk.slice(0, 5))}`)
    return problems
  } finally {
    db.close()
  }
}
