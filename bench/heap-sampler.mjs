// Preloaded into a measured long-running process (`node --expose-gc --import bench/heap-sampler.mjs …`): every
// AGENTRY_BENCH_HEAP_MS (default 2000) it runs a full GC and appends one JSON line
// `{ t, heapUsedMiB, rssMiB, externalMiB }` to AGENTRY_BENCH_HEAP_FILE. The live heap after a full GC tells a leak
// (it keeps growing) from memory the allocator or V8 simply has not given back (RSS grows, the live heap does not).
import fs from 'node:fs'

const file = process.env.AGENTRY_BENCH_HEAP_FILE
const every = Number(process.env.AGENTRY_BENCH_HEAP_MS ?? 2000)
const started = Date.now()
const mib = (n) => Math.round((n / 2 ** 20) * 10) / 10
if (file && typeof globalThis.gc === 'function') {
  setInterval(() => {
    globalThis.gc()
    const m = process.memoryUsage()
    fs.appendFileSync(file, `${JSON.stringify({ t: Date.now() - started, heapUsedMiB: mib(m.heapUsed), rssMiB: mib(m.rss), externalMiB: mib(m.external) })}\n`)
  }, every).unref()
}
