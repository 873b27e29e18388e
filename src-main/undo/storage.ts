import fs from 'node:fs'
import { listStores } from '../checkpoints'
import type { CheckpointsRepository } from '../store'
import type { TurnRecorder } from './recorder'

/** What the checkpoints take on disk: every workspace's store under the data dir. */
export function checkpointSpace(dataDir: string): { bytes: number; workspaces: number } {
  const stores = listStores(dataDir)
  return { bytes: stores.reduce((n, s) => n + s.bytes, 0), workspaces: stores.length }
}

/**
 * Drops the snapshots of deleted sessions (and every snapshot of a store whose workspace is gone), then lets git
 * delete what nothing keeps. Returns the bytes before and after.
 */
export async function pruneCheckpoints(o: { dataDir: string; recorder: TurnRecorder; rows: CheckpointsRepository; sessionExists(id: string): boolean }): Promise<{ beforeBytes: number; afterBytes: number }> {
  const before = checkpointSpace(o.dataDir).bytes
  for (const s of listStores(o.dataDir)) {
    if (!s.workspace || !fs.existsSync(s.workspace)) {
      // The folder it recorded is gone: nothing could be restored into it.
      fs.rmSync(s.dir, { recursive: true, force: true })
      continue
    }
    const store = await o.recorder.store(s.workspace)
    const sessions = new Set((await store.keys()).map((k) => k.key.split('/')[0]))
    for (const id of sessions) if (!o.sessionExists(id)) await store.forget(id)
    await store.prune(o.recorder.recording(s.workspace) ? { keepRecentMinutes: 60 } : {})
  }
  return { beforeBytes: before, afterBytes: checkpointSpace(o.dataDir).bytes }
}

/** A deleted session's snapshots: their keys go now, their files with the next prune (run here in the background). */
export async function forgetSessions(o: { recorder: TurnRecorder; workspaceRoot: string; sessionIds: string[] }): Promise<void> {
  if (!fs.existsSync(o.workspaceRoot)) return
  const store = await o.recorder.store(o.workspaceRoot)
  for (const id of o.sessionIds) await store.forget(id)
  await store.prune(o.recorder.recording(o.workspaceRoot) ? { keepRecentMinutes: 60 } : {})
}

/**
 * What bounds the store: turns recorded more than `keepDays` ago are marked expired and their snapshots' keys go; git
 * then deletes what nothing else keeps. Their rows stay, so the Changes view and undo can say why there is nothing to
 * take back. Returns how many turns expired.
 */
export async function expireCheckpoints(o: { recorder: TurnRecorder; rows: CheckpointsRepository; keepDays: number; now?: number }): Promise<number> {
  const expired = o.rows.expireTurnCheckpoints((o.now ?? Date.now()) - o.keepDays * 24 * 60 * 60 * 1000)
  const byWorkspace = new Map<string, typeof expired>()
  for (const row of expired) byWorkspace.set(row.workspaceRoot, [...(byWorkspace.get(row.workspaceRoot) ?? []), row])
  for (const [workspace, rows] of byWorkspace) {
    if (!fs.existsSync(workspace)) continue
    const store = await o.recorder.store(workspace)
    for (const row of rows) await store.forget(`${row.sessionId}/${row.id}`)
    await store.prune(o.recorder.recording(workspace) ? { keepRecentMinutes: 60 } : {})
  }
  return expired.length
}
