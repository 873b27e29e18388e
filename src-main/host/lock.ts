import fs from 'node:fs'
import path from 'node:path'

export class HostLockError extends Error {
  override readonly name = 'HostLockError'
}

/**
 * Single writer per data dir: a lock file holding our pid. A lock left by a process that no longer exists
 * (a crash, kill -9) is taken over; a live one is a clear error, never a second writer.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const file = path.join(dataDir, 'agentry.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx')
      fs.writeSync(fd, String(process.pid))
      fs.closeSync(fd)
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file)
        } catch (err) {
          // Already gone (removed by hand or a racing takeover) is fine; anything else is worth a line.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') console.error(`[agentry] could not remove ${file}:`, (err as Error).message)
        }
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = Number(fs.readFileSync(file, 'utf8').trim())
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new HostLockError(
          `Another Agentry host (pid ${pid}) is already using ${dataDir}. Close it (or use its window / daemon), or set AGENTRY_HOME to another folder.`,
        )
      }
      fs.rmSync(file, { force: true })
    }
  }
  throw new HostLockError(`Could not lock ${dataDir}: the lock file keeps reappearing. Is another Agentry starting at the same time?`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
