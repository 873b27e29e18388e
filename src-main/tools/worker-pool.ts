import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

/**
 * Worker threads for the tools' heavy work (grep's search, web_fetch's HTML conversion), so it never runs on the
 * host's event loop. A warm worker answers in a millisecond instead of the tens of milliseconds a new thread needs
 * to start; idle ones are unref'd so they never keep the process alive.
 */

export type WorkerKind = 'grep' | 'html'

const MAX_IDLE = 2
const located = new Map<WorkerKind, URL>()
const idle = new Map<WorkerKind, Worker[]>()

/**
 * Where a worker's file is: `{kind}-worker.ts` beside this module in the sources (Node strips its types), or the
 * bundle entry `{kind}-worker.mjs` / `.js` in builds (scripts/build-cli.mjs, electron.vite.config.ts).
 */
function workerFile(kind: WorkerKind): URL {
  const known = located.get(kind)
  if (known) return known
  const name = `${kind}-worker`
  for (const candidate of [`./${name}.ts`, `./${name}.mjs`, `./${name}.js`, `../${name}.mjs`, `../${name}.js`]) {
    const url = new URL(candidate, import.meta.url)
    if (fs.existsSync(url)) {
      located.set(kind, url)
      return url
    }
  }
  throw new Error(`The ${kind} worker (${name}.mjs) is missing beside ${fileURLToPath(import.meta.url)}; rebuild Agentry (npm run build).`)
}

/** A worker for one job; give it back with `releaseWorker` (clean end) or terminate it. */
export function acquireWorker(kind: WorkerKind): Worker {
  const pool = idle.get(kind) ?? []
  idle.set(kind, pool)
  const warm = pool.pop()
  if (warm) {
    warm.ref()
    return warm
  }
  const worker = new Worker(workerFile(kind), { workerData: { agentry: kind } })
  worker.on('exit', () => {
    const i = pool.indexOf(worker)
    if (i !== -1) pool.splice(i, 1)
  })
  // A busy worker's error also reaches its job, which reports it; an idle one's is only logged (it exits, and the
  // exit handler drops it from the pool).
  worker.on('error', (err) => {
    if (pool.includes(worker)) console.error(`[agentry] an idle ${kind} worker failed: ${err.message}`)
  })
  return worker
}

export function releaseWorker(kind: WorkerKind, worker: Worker): void {
  const pool = idle.get(kind) ?? []
  idle.set(kind, pool)
  if (pool.length >= MAX_IDLE) {
    void worker.terminate()
    return
  }
  worker.unref()
  pool.push(worker)
}
