// Preloaded into a measured long-running process (`node --expose-gc --import bench/heap-sampler.mjs …`): every
// AGENTRY_BENCH_HEAP_MS (default 2000) it runs a full GC and appends one JSON line
// `{ t, heapUsedMiB, rssMiB, externalMiB }` to AGENTRY_BENCH_HEAP_FILE. The live heap after a full GC tells a leak
// (it keeps growing) from memory the allocator or V8 simply has not given back (RSS grows, the live heap does not).
import fs from 'node:fs'

const file = process.env.AGENTRY_BENCH_HEAP_FILE
const every = Number(process.env.AGENTRY_BENCH_HEAP_MS ?? 2000)
const started = Date.now()
const mib = (n) => Math.round((n / 2 ** 20) * 10) / 10
// AGENTRY_BENCH_HEAP_GC=0: no forced GC, only what the process holds as it runs (V8's heap size, SQLite and
// other native memory = RSS − heapTotal − external), to see where RSS goes in a daemon left to its own devices.
const forceGc = process.env.AGENTRY_BENCH_HEAP_GC !== '0'
if (file && (!forceGc || typeof globalThis.gc === 'function')) {
  setInterval(() => {
    if (forceGc) globalThis.gc()
    const m = process.memoryUsage()
    const line = { t: Date.now() - started, forcedGc: forceGc, heapUsedMiB: mib(m.heapUsed), heapTotalMiB: mib(m.heapTotal), rssMiB: mib(m.rss), externalMiB: mib(m.external) }
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`)
  }, every).unref()
}
