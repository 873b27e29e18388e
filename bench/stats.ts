/** Small helpers shared by the benchmarks: order statistics and a description of the machine. */
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

export const round = (n: number, digits = 1): number => Number(n.toFixed(digits))

/** Nearest-rank percentile of unsorted samples (p in 0..100). */
export function percentile(samples: number[], p: number): number {
  if (!samples.length) return NaN
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

export const median = (samples: number[]): number => percentile(samples, 50)

export function machine(): Record<string, unknown> {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memGiB: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAvg: os.loadavg().map((n) => round(n, 2)),
  }
}

/** True when `moduleUrl` is the script node was started with (`npx tsx bench/x.bench.ts`). */
export function isMain(moduleUrl: string): boolean {
  return Boolean(process.argv[1]) && moduleUrl === pathToFileURL(path.resolve(process.argv[1])).href
}

/** The standard direct-run behaviour of a bench module: print its figures as JSON. */
export function runIfMain(moduleUrl: string, run: () => Promise<Record<string, unknown>>): void {
  if (!isMain(moduleUrl)) return
  run().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (err: unknown) => {
      console.error(err)
      process.exitCode = 1
    },
  )
}
