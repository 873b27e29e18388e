import type { Worker } from 'node:worker_threads'
import type { BatchResult, FromWorker, GrepFile, ToWorker } from './grep-protocol'
import { acquireWorker, discardWorker, releaseWorker } from './worker-pool'
import { ToolError } from './tool'
import { walkFiles, type WalkFile } from './walk'

/**
 * One grep call: the host walks and checks (confinement, .gitignore, read_file rules per file) and streams the files
 * that pass to a worker, which reads and matches them. The walk and the reads run at the same time; at most
 * IN_FLIGHT files are ahead of the worker, so a stop (match cap, deadline) leaves little unread work behind.
 */

const BATCH = 256
const IN_FLIGHT = 1_024
/** How long past its deadline a worker may take to notice it (one long line) before it is terminated. */
const HARD_STOP_GRACE_MS = 1_000

export interface GrepSearchOptions {
  pattern: string
  /** real path of the folder to walk, or of the one file to search */
  base: string
  baseIsFile: boolean
  /** the real workspace root */
  root: string
  /** shown path of the base, for a single file */
  shownBase: string
  include(rel: string): boolean
  /** what the rules say about reading one file (by its real path), asking no one */
  readable(file: WalkFile): 'allow' | 'ask' | 'deny'
  signal: AbortSignal
  budgetMs: number
  maxMatches: number
  maxLineChars: number
  maxFileBytes: number
  maxFiles: number
}

export interface GrepSearchResult {
  matches: string[]
  filesWithMatches: number
  filesRead: number
  capped: boolean
  timedOut: boolean
  binary: number
  large: string[]
  changed: string[]
  unreadable: string[]
  /** directories that could not be listed */
  unreadableDirs: string[]
  linksOutside: string[]
  denied: string[]
  needsApproval: string[]
  ignored: number
  walkExhausted: boolean
}

function emptyResult(): GrepSearchResult {
  return {
    matches: [], filesWithMatches: 0, filesRead: 0, capped: false, timedOut: false, binary: 0, large: [], changed: [],
    unreadable: [], unreadableDirs: [], linksOutside: [], denied: [], needsApproval: [], ignored: 0, walkExhausted: false,
  }
}

function merge(into: GrepSearchResult, b: BatchResult): void {
  into.matches.push(...b.matches)
  into.filesWithMatches += b.filesWithMatches
  into.filesRead += b.filesRead
  into.binary += b.binary
  into.large.push(...b.large)
  into.changed.push(...b.changed)
  into.unreadable.push(...b.unreadable)
  into.capped ||= b.capped
  into.timedOut ||= b.timedOut
}

let nextId = 0

/** The worker's side of one search, as promises: every message updates the state, waiters re-check their condition. */
class WorkerSearch {
  readonly id = ++nextId
  readonly result = emptyResult()
  ready = false
  done = false
  failure: Error | null = null
  handled = 0
  private waiters: Array<() => void> = []

  constructor(readonly worker: Worker) {
    worker.on('message', this.onMessage)
    worker.on('error', this.onError)
    worker.on('exit', this.onExit)
  }

  get stopped(): boolean {
    return this.result.capped || this.result.timedOut
  }

  post(m: ToWorker): void {
    this.worker.postMessage(m)
  }

  /** Resolves once `ready()` holds; throws the search's failure if there is one. */
  async until(ready: () => boolean): Promise<void> {
    while (!ready() && !this.failure) await new Promise<void>((resolve) => this.waiters.push(resolve))
    if (this.failure) throw this.failure
  }

  fail(e: Error): void {
    this.failure ??= e
    this.wake()
  }

  detach(): void {
    this.worker.off('message', this.onMessage)
    this.worker.off('error', this.onError)
    this.worker.off('exit', this.onExit)
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w()
  }

  private onMessage = (m: FromWorker) => {
    // A pooled worker may still be answering a search that was abandoned (aborted, timed out); not ours.
    if (m.id !== this.id) return
    if (m.type === 'ready') this.ready = true
    else if (m.type === 'error') this.fail(new ToolError(m.message))
    else if (m.type === 'done') this.done = true
    else {
      this.handled += m.handled
      merge(this.result, m)
    }
    this.wake()
  }

  private onError = (err: Error) => this.fail(new Error(`grep's search worker failed: ${err.message}`))
  private onExit = (code: number) => this.fail(new Error(`grep's search worker exited (code ${code})`))
}

class HardStop extends Error {}

export async function grepSearch(o: GrepSearchOptions): Promise<GrepSearchResult> {
  o.signal.throwIfAborted()
  const search = new WorkerSearch(await acquireWorker('grep', o.signal))
  // The budget starts once a worker is there (with many searches at once, a search may wait for one).
  const deadline = Date.now() + o.budgetMs
  // At the deadline the walk stops and the worker (which watches the same clock) finishes what it holds; one that
  // does not answer within the grace period (a very long line) is terminated and the partial result stands.
  const walkStop = new AbortController()
  const softStop = setTimeout(() => walkStop.abort(), o.budgetMs)
  const hardStop = setTimeout(() => search.fail(new HardStop()), o.budgetMs + HARD_STOP_GRACE_MS)
  const onAbort = () => search.fail(new Error('aborted'))
  o.signal.addEventListener('abort', onAbort, { once: true })
  let reusable = false
  try {
    search.post({ type: 'start', id: search.id, pattern: o.pattern, maxMatches: o.maxMatches, maxLineChars: o.maxLineChars, maxFileBytes: o.maxFileBytes, deadline })
    try {
      await search.until(() => search.ready)
    } catch (e) {
      // A pattern the engine refuses leaves the worker as good as new.
      reusable = ToolError.isInstance(e)
      throw e
    }

    let pending: GrepFile[] = []
    let sent = 0
    const flush = async () => {
      if (pending.length === 0 || search.stopped) return
      search.post({ type: 'files', files: pending })
      sent += pending.length
      pending = []
      await search.until(() => search.stopped || sent - search.handled <= IN_FLIGHT)
    }
    // Synchronous unless a batch goes out: a walk over thousands of files should not wait a tick per file.
    const offer = (file: WalkFile): boolean | Promise<boolean> => {
      const verdict = o.readable(file)
      if (verdict !== 'allow') {
        ;(verdict === 'deny' ? search.result.denied : search.result.needsApproval).push(file.shown)
        return true
      }
      pending.push({ abs: file.abs, shown: file.shown })
      return pending.length >= BATCH ? flush().then(() => !search.stopped) : !search.stopped
    }

    try {
      if (o.baseIsFile) {
        await offer({ abs: o.base, linked: false, rel: o.shownBase, shown: o.shownBase })
      } else {
        const walk = await walkFiles(o.base, {
          root: o.root,
          signal: AbortSignal.any([o.signal, walkStop.signal]),
          maxFiles: o.maxFiles,
          gitignore: true,
          visit: (file) => (o.include(file.rel) ? offer(file) : true),
        })
        Object.assign(search.result, { unreadableDirs: walk.unreadable, linksOutside: walk.linksOutside, ignored: walk.ignored, walkExhausted: walk.exhausted })
      }
      await flush()
    } catch (e) {
      if (!walkStop.signal.aborted || o.signal.aborted) throw e
      search.result.timedOut = true
    }
    // The worker answers `end` after everything before it, dropped files included: then it is idle and reusable.
    search.post({ type: 'end' })
    await search.until(() => search.done)
    reusable = true
    return search.result
  } catch (e) {
    if (o.signal.aborted) throw o.signal.reason ?? e
    if (e instanceof HardStop) {
      search.result.timedOut = true
      return search.result
    }
    throw e
  } finally {
    clearTimeout(softStop)
    clearTimeout(hardStop)
    o.signal.removeEventListener('abort', onAbort)
    search.detach()
    if (reusable) releaseWorker('grep', search.worker)
    else discardWorker('grep', search.worker)
  }
}
