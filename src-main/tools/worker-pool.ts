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
/** Jobs of one kind running at once; more wait for a free worker (fifty subagents grepping at once get four threads). */
const MAX_BUSY = 4
const located = new Map<WorkerKind, URL>()
const idle = new Map<WorkerKind, Worker[]>()
const busy = new Map<WorkerKind, number>()
const waiting = new Map<WorkerKind, Array<() => void>>()

function listOf<T>(map: Map<WorkerKind, T[]>, kind: WorkerKind): T[] {
  let list = map.get(kind)
  if (!list) map.set(kind, (list = []))
  return list
}

function jobEnded(kind: WorkerKind): void {
  busy.set(kind, (busy.get(kind) ?? 1) - 1)
  listOf(waiting, kind).shift()?.()
}

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

/**
 * A worker for one job, once fewer than MAX_BUSY of its kind are running; give it back with `releaseWorker` (clean
 * end) or `discardWorker` (aborted, failed). Rejects with the signal's reason when aborted while waiting.
 */
export async function acquireWorker(kind: WorkerKind, signal: AbortSignal): Promise<Worker> {
  while ((busy.get(kind) ?? 0) >= MAX_BUSY) {
    signal.throwIfAborted()
    await new Promise<void>((resolve) => {
      const wake = () => {
        signal.removeEventListener('abort', wake)
        const queue = listOf(waiting, kind)
        const i = queue.indexOf(wake)
        if (i !== -1) queue.splice(i, 1)
        resolve()
      }
      listOf(waiting, kind).push(wake)
      signal.addEventListener('abort', wake, { once: true })
    })
  }
  signal.throwIfAborted()
  busy.set(kind, (busy.get(kind) ?? 0) + 1)
  const pool = listOf(idle, kind)
  const warm = pool.pop()
  if (warm) {
    warm.ref()
    return warm
  }
  let worker: Worker
  try {
    worker = new Worker(workerFile(kind), { workerData: { agentry: kind } })
  } catch (e) {
    jobEnded(kind)
    throw e
  }
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

/** The job ended cleanly: the worker is kept warm for the next one (or ended when enough are idle). */
export function releaseWorker(kind: WorkerKind, worker: Worker): void {
  jobEnded(kind)
  const pool = listOf(idle, kind)
  if (pool.length >= MAX_IDLE) {
    void worker.terminate()
    return
  }
  worker.unref()
  pool.push(worker)
}

/** The job was aborted or failed: the worker may still be busy with it, so it is ended. */
export function discardWorker(kind: WorkerKind, worker: Worker): void {
  jobEnded(kind)
  void worker.terminate()
}
