/**
 * `npm run bench`: every benchmark in sequence, one JSON object `{ machine, results }` on stdout.
 * A bench that fails is reported as `{ error }` (and the exit code is 1) without hiding the others' figures.
 * The renderer bench runs only when it exists and Chromium is installed (CHROMIUM_PATH or /usr/bin/chromium).
 * Progress goes to stderr, so stdout stays one parseable JSON object. `npm run bench -- fanout cli-start` runs a subset.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { machine, round } from './stats'

type BenchModule = { run(): Promise<Record<string, unknown>> }

const here = path.dirname(fileURLToPath(import.meta.url))
/** A bench that hangs (a lost event, a browser that never answers) must not hang the whole run. */
const TIME_LIMIT_MS = 10 * 60_000
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** In order; `skip` says why a bench cannot run here (the reason lands in the results). */
const BENCHES: { name: string; file: string; skip?: () => string | undefined }[] = [
  { name: 'store', file: 'store.bench.ts' },
  { name: 'search', file: 'search.bench.ts' },
  { name: 'bridge', file: 'bridge.bench.ts' },
  { name: 'cli-start', file: 'cli-start.bench.ts' },
  { name: 'fanout', file: 'fanout.bench.ts' },
  { name: 'acp', file: 'acp.bench.ts' },
  { name: 'agents', file: 'agents.bench.ts' },
  { name: 'subagent-power', file: 'subagent-power.bench.ts' },
  { name: 'request-bytes', file: 'request-bytes.bench.ts' },
  { name: 'shell', file: 'shell.bench.ts' },
  { name: 'mcp', file: 'mcp.bench.ts' },
  { name: 'checkpoints', file: 'checkpoints.bench.ts', skip: () => (spawnSync('git', ['--version']).status === 0 ? undefined : 'git is not installed') },
  { name: 'budget', file: 'budget.bench.ts' },
  { name: 'hooks', file: 'hooks.bench.ts' },
  { name: 'steer', file: 'steer.bench.ts' },
  { name: 'discovery', file: 'discovery.bench.ts' },
  { name: 'checkpoint-turn', file: 'checkpoint-turn.bench.ts', skip: () => (spawnSync('git', ['--version']).status === 0 ? undefined : 'git is not installed') },
  { name: 'grep', file: 'grep.bench.ts', skip: () => (spawnSync('grep', ['--version']).status === 0 ? undefined : 'GNU grep is not installed') },
  { name: 'container-start', file: 'container-start.bench.ts', skip: () => (process.env.AGENTRY_BENCH_ENGINE || spawnSync('podman', ['--version']).status === 0 ? undefined : 'no container engine (apt-get install podman runc, or set AGENTRY_BENCH_ENGINE)') },
  { name: 'renderer', file: 'renderer.bench.ts', skip: () => (fs.existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`) },
]

async function main(): Promise<void> {
  const only = process.argv.slice(2)
  const before = machine()
  const results: Record<string, unknown> = {}
  let failed = false
  let timedOut = false
  for (const b of BENCHES) {
    if (only.length && !only.includes(b.name)) continue
    const file = path.join(here, b.file)
    const skipped = !fs.existsSync(file) ? `${b.file} does not exist` : b.skip?.()
    if (skipped) {
      results[b.name] = { skipped }
      process.stderr.write(`[bench] ${b.name}: skipped (${skipped})\n`)
      continue
    }
    process.stderr.write(`[bench] ${b.name}…\n`)
    const started = performance.now()
    try {
      const mod = (await import(pathToFileURL(file).href)) as BenchModule
      let timer: NodeJS.Timeout | undefined
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true
          reject(new Error(`no result within ${TIME_LIMIT_MS / 60_000} min`))
        }, TIME_LIMIT_MS)
      })
      const figures = await Promise.race([mod.run(), limit]).finally(() => clearTimeout(timer))
      results[b.name] = { ...figures, benchSeconds: round((performance.now() - started) / 1000) }
    } catch (err) {
      failed = true
      results[b.name] = { error: err instanceof Error ? err.message : String(err) }
      process.stderr.write(`[bench] ${b.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    }
  }
  // Load average at the end too: the figures are only comparable on a quiet machine.
  const out = { machine: { ...before, loadAvgAtEnd: machine().loadAvg }, results }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`)
  if (failed) process.exitCode = 1
  // A timed-out bench still holds its sockets, timers or browser; exit instead of waiting on them forever.
  if (timedOut) process.exit()
}

await main()
