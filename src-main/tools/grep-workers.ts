import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

/**
 * A small pool of grep's search workers (grep-worker.ts). A warm worker answers in a millisecond instead of the tens
 * of milliseconds a new thread needs to start; idle ones are unref'd so they never keep the process alive.
 */

/** Where the worker is: beside this module in the sources (Node strips its types), or a bundle entry in builds. */
const CANDIDATES = ['./grep-worker.ts', './grep-worker.mjs', './grep-worker.js', '../grep-worker.mjs', '../grep-worker.js']
const MAX_IDLE = 2

let located: URL | undefined
const idle: Worker[] = []

function workerFile(): URL {
  if (located) return located
  for (const candidate of CANDIDATES) {
    const url = new URL(candidate, import.meta.url)
    if (fs.existsSync(url)) return (located = url)
  }
  throw new Error(`grep's search worker (grep-worker.mjs) is missing beside ${fileURLToPath(import.meta.url)}; rebuild Agentry (npm run build).`)
}

/** A worker for one search; give it back with `releaseWorker` (clean end) or terminate it. */
export function acquireWorker(): Worker {
  const warm = idle.pop()
  if (warm) {
    warm.ref()
    return warm
  }
  const worker = new Worker(workerFile(), { workerData: { agentry: 'grep' } })
  worker.on('exit', () => {
    const i = idle.indexOf(worker)
    if (i !== -1) idle.splice(i, 1)
  })
  // A busy worker's error also reaches its search, which reports it to the model; an idle one's is only logged
  // (it exits, and the exit handler drops it from the pool).
  worker.on('error', (err) => {
    if (idle.includes(worker)) console.error(`[agentry] an idle grep worker failed: ${err.message}`)
  })
  return worker
}

export function releaseWorker(worker: Worker): void {
  if (idle.length >= MAX_IDLE) {
    void worker.terminate()
    return
  }
  worker.unref()
  idle.push(worker)
}
