import fs from 'node:fs'
import path from 'node:path'

export class HostLockError extends Error {
  override readonly name = 'HostLockError'
}

/** A takeover left behind by a process that died in the middle of one is itself stale after this long. */
const STALE_TAKEOVER_MS = 10_000

/**
 * Single writer per data dir: a lock file holding our pid. A lock left by a process that no longer exists
 * (a crash, kill -9) is taken over; a live one is a clear error, never a second writer.
 *
 * Races between processes starting at once are closed two ways: the lock file appears with the pid already in it
 * (written to a private file, then hard-linked into place — `link` fails if the lock exists), so nobody ever reads
 * an empty lock as stale; and only one process at a time may take over a stale lock (it holds `agentry.lock.takeover`,
 * created exclusively), so two cannot both remove it and both win.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const file = path.join(dataDir, 'agentry.lock')
  const mine = `${file}.${process.pid}`
  fs.writeFileSync(mine, String(process.pid))
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        fs.linkSync(mine, file)
        return () => release(file)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      }
      const pid = readPid(file)
      if (pid === undefined) continue // released in between: try again
      if (pid !== process.pid && isAlive(pid)) {
        throw new HostLockError(
          `Another Agentry host (pid ${pid}) is already using ${dataDir}. Close it (or use its window / daemon), or set AGENTRY_HOME to another folder.`,
        )
      }
      takeOver(file, pid)
    }
    throw new HostLockError(`Could not lock ${dataDir}: the lock file keeps reappearing. Is another Agentry starting at the same time?`)
  } finally {
    fs.rmSync(mine, { force: true })
  }
}

/**
 * Who holds the data dir, read without touching anything (no lock taken, no stale lock removed): undefined when no
 * lock file exists. A dead owner means its runs are gone: what they left "busy" is interrupted.
 */
export function lockOwner(dataDir: string): { pid: number; alive: boolean } | undefined {
  let pid: number | undefined
  try {
    pid = readPid(path.join(dataDir, 'agentry.lock'))
  } catch (err) {
    // A data dir we cannot read the lock of (e.g. AGENTRY_HOME is a file) has no live owner we could reach.
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined
    throw err
  }
  if (pid === undefined) return undefined
  return { pid, alive: pid !== process.pid && isAlive(pid) }
}

/** Removes a stale lock of `deadPid`, unless another process is already doing so (then the caller just retries). */
function takeOver(file: string, deadPid: number): void {
  const guard = `${file}.takeover`
  let fd: number
  try {
    fd = fs.openSync(guard, 'wx')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    const age = Date.now() - (statMs(guard) ?? Date.now())
    if (age > STALE_TAKEOVER_MS) fs.rmSync(guard, { force: true })
    return
  }
  try {
    // Still the same dead holder (not a live one that won meanwhile)? Then it is ours to remove.
    if (readPid(file) === deadPid) fs.rmSync(file, { force: true })
  } finally {
    fs.closeSync(fd)
    fs.rmSync(guard, { force: true })
  }
}

function release(file: string): void {
  try {
    if (readPid(file) === process.pid) fs.unlinkSync(file)
  } catch (err) {
    // Already gone (removed by hand or a racing takeover) is fine; anything else is worth a line.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') console.error(`[agentry] could not remove ${file}:`, (err as Error).message)
  }
}

/** The pid in the lock file; undefined when there is no lock file (any more). */
function readPid(file: string): number | undefined {
  try {
    return Number(fs.readFileSync(file, 'utf8').trim())
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

function statMs(file: string): number | undefined {
  try {
    return fs.statSync(file).mtimeMs
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
