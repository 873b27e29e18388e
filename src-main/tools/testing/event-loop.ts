import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'

const LIMIT_MS = 50
/**
 * How far above the machine's own noise a run may go before it counts as our stall. A loop that works in short
 * slices is preempted mid-slice more often than an idle one, hence twice the idle delay plus a margin.
 */
const noiseLimit = (idleMs: number) => 2 * idleMs + 20

/** The longest event-loop delay (ms) while `run` runs. */
export async function longestDelay<T>(run: () => Promise<T>): Promise<{ result: T; maxMs: number; durationMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 })
  delay.enable()
  // The monitor measures from its previous tick: let it tick before the work, so a stall at once is seen too.
  await new Promise((resolve) => setTimeout(resolve, 20))
  const started = performance.now()
  try {
    const result = await run()
    const durationMs = performance.now() - started
    // A stall is recorded when the monitor's timer finally fires: let it fire once more after the last of the work.
    await new Promise((resolve) => setTimeout(resolve, 20))
    return { result, maxMs: delay.max / 1e6, durationMs }
  } finally {
    delay.disable()
  }
}

/** The longest delay of an idle event loop for `ms` while another thread of this process burns a core. */
async function controlDelay(ms: number): Promise<number> {
  const burner = new Worker(`const end = Date.now() + ${Math.ceil(ms)}; while (Date.now() < end) {}`, { eval: true })
  const { maxMs } = await longestDelay(() => new Promise((resolve) => burner.once('exit', resolve)))
  return maxMs
}

/**
 * Runs `run` and fails if the event loop stalled for more than 50 ms meanwhile. On a machine so loaded that the OS
 * itself holds a thread back that long (garbage collection slowed ten-fold, preempted time slices), the limit follows
 * what an idle loop suffers under the same load (a control run with one busy worker thread), and a run over it is
 * tried once more: a real stall — the regex or a conversion on this thread — takes seconds and fails every time.
 */
export async function withoutStall<T>(run: () => Promise<T>, attempts = 2): Promise<{ result: T; maxMs: number; limitMs: number }> {
  let why = ''
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const { result, maxMs, durationMs } = await longestDelay(run)
    if (maxMs < LIMIT_MS) return { result, maxMs, limitMs: LIMIT_MS }
    const control = await controlDelay(Math.min(durationMs, 5_000))
    const limitMs = Math.max(LIMIT_MS, noiseLimit(control))
    if (maxMs < limitMs) return { result, maxMs, limitMs }
    why = `the event loop stalled for ${maxMs.toFixed(1)} ms (limit ${LIMIT_MS} ms; an idle loop on this machine right now: ${control.toFixed(1)} ms)`
  }
  throw new Error(why)
}
