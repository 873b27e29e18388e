/**
 * Fan-out benchmark (issue 3): one root turn whose first step calls `task` N times, each explore child answering
 * one line, then the root answering.
 * (a) in-process with the harness and the `script` model, N = 1, 16, 64 (maxConcurrent = N, so none queue):
 *     wall time, per-spawn overhead (T_N − T_1)/(N − 1), peak RSS. Targets: < 5 ms/spawn, N=64 < 1 s, < 200 MiB.
 * (b) through the built CLI against the loopback openai-compatible server (zero latency), N = 16: wall time
 *     end to end (target < 1.5 s) and the CLI process's peak RSS.
 * Peak RSS is the kernel's ru_maxrss of the measuring process (process.resourceUsage().maxRSS): (a) runs in a
 * child process of its own so earlier benches do not count, (b) is read by `bench/peak-rss.mjs` preloaded into
 * the CLI process. Run: `npx tsx bench/fanout.bench.ts` (prints JSON). The bench runner imports run().
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AgentEvent } from '../src-shared'
import { agentry, buildCli, REPO_ROOT, tempDir, writeFiles } from '../src-main/cli/testing/cli-process'
import { startScriptedChatServer } from '../src-main/models/testing'
import { createHarness, flatten, toolParts } from '../src-main/testing/harness'
import { isMain, median, round, runIfMain } from './stats'

const SIZES = [1, 16, 64]
const RUNS = 5
const CLI_N = 16
const TARGETS = { perSpawnMs: 5, n64Ms: 1000, peakRssMiB: 200, cliN16Ms: 1500 }
const here = fileURLToPath(import.meta.url)
const kibToMiB = (kib: number) => round(kib / 1024, 1)

const task = (i: number) => ({ name: 'task', input: { subagent_type: 'explore', description: `Part ${i}`, prompt: `Look at part ${i}` } })

/** The most children in `running` state at the same time, from the task_update events of one turn. */
function mostRunningAtOnce(events: AgentEvent[]): number {
  const running = new Set<string>()
  let most = 0
  for (const { event: e } of flatten(events)) {
    if (e.type !== 'task_update') continue
    if (e.task.status === 'running') running.add(e.task.taskId)
    else running.delete(e.task.taskId)
    most = Math.max(most, running.size)
  }
  return most
}

/** One harness per N; 1 warm-up turn, then RUNS timed turns (each a new root session). */
async function inProcessN(n: number): Promise<Record<string, unknown>> {
  const h = await createHarness({
    // The fan-out approval (budgets.fanOut) would wait for a person: the bench measures the spawning, approved.
    config: { subagents: { maxConcurrent: n }, budgets: { fanOut: { askAboveChildren: 1000 } } },
    script: {
      agents: {
        build: [
          { step: 1, repeat: true, text: 'Splitting the work.', tools: Array.from({ length: n }, (_, i) => task(i)) },
          { step: 2, repeat: true, text: 'All parts reported.' },
        ],
        explore: [{ repeat: true, text: 'Part looked at.' }],
        '*': [{ repeat: true, text: 'Fan-out' }],
      },
    },
  })
  try {
    const times: number[] = []
    let maxRunning = 0
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now()
      const r = await h.run(`fan out to ${n}`)
      const ms = performance.now() - t0
      const done = toolParts(r.messages).filter((p) => p.type === 'tool-task' && p.toolState === 'output-available')
      if (r.final?.text !== 'All parts reported.' || done.length !== n) throw new Error(`fan-out ${n}: ${done.length}/${n} children completed; answer ${JSON.stringify(r.final?.text)}`)
      maxRunning = Math.max(maxRunning, mostRunningAtOnce(r.events))
      if (i > 0) times.push(ms)
    }
    return { n, medianMs: round(median(times)), minMs: round(Math.min(...times)), maxRunningAtOnce: maxRunning, peakRssMiB: kibToMiB(process.resourceUsage().maxRSS) }
  } finally {
    await h.close()
  }
}

/** (a), run inside the worker process: sizes in increasing order, so the last peak RSS is the overall peak. */
async function inProcessWorker(): Promise<Record<string, unknown>> {
  const baselineRssMiB = kibToMiB(process.resourceUsage().maxRSS)
  const rows: Record<string, unknown>[] = []
  for (const n of SIZES) rows.push(await inProcessN(n))
  return { baselineRssMiB, rows }
}

function inProcess(): Promise<{ baselineRssMiB: number; rows: { n: number; medianMs: number; minMs: number; peakRssMiB: number }[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', here, '--in-process-worker'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.once('error', reject)
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`in-process fan-out worker exited ${code}: ${err.slice(-2000)}`))
      resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}'))
    })
  })
}

/** (b): the built CLI, a user's config pointing at the loopback server, N explore children. */
async function throughCli(): Promise<Record<string, unknown>> {
  type Body = { messages: { role: string }[]; tools?: { function: { name: string } }[] }
  const server = await startScriptedChatServer({
    respond: (raw) => {
      const b = raw as Body
      const isRoot = b.tools?.some((t) => t.function.name === 'task')
      if (!isRoot) return { text: 'Part looked at.' } // explore children and the title agent
      if (b.messages[b.messages.length - 1].role === 'tool') return { text: 'All parts reported.' }
      return { text: 'Splitting the work. ', toolCalls: Array.from({ length: CLI_N }, (_, i) => ({ name: 'task', arguments: task(i).input })) }
    },
  })
  const home = tempDir('bench-fanout-home')
  const work = tempDir('bench-fanout-work')
  try {
    writeFiles(home, {
      'config.yaml': { model: 'mock/m', providers: { mock: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } }, subagents: { maxConcurrent: CLI_N }, budgets: { fanOut: { askAboveChildren: 1000 } } },
    })
    const rssFile = path.join(home, 'peak-rss')
    const times: number[] = []
    const rss: number[] = []
    for (let i = 0; i <= RUNS; i++) {
      const before = server.requests.length
      const r = await agentry(['run', `fan out to ${CLI_N}`], {
        home,
        cwd: work,
        env: { AGENTRY_BENCH_RSS_FILE: rssFile },
        nodeArgs: ['--import', pathToPeakRss()],
      })
      if (r.code !== 0 || r.stdout !== 'All parts reported.\n') throw new Error(`agentry run failed (exit ${r.code}): ${r.stderr || r.stdout}`)
      // root step 1 + N children + root step 2 (+ the title, which may still be in flight when the turn ends)
      if (server.requests.length - before < CLI_N + 2) throw new Error(`only ${server.requests.length - before} model calls for ${CLI_N} children`)
      if (i === 0) continue // warm-up: first database, first compile cache
      times.push(r.ms)
      rss.push(Number(fs.readFileSync(rssFile, 'utf8')))
    }
    const medianMs = median(times)
    const peak = kibToMiB(Math.max(...rss))
    return { n: CLI_N, medianMs: round(medianMs), minMs: round(Math.min(...times)), peakRssMiB: peak, pass: medianMs < TARGETS.cliN16Ms }
  } finally {
    await server.close()
    fs.rmSync(home, { recursive: true, force: true })
    fs.rmSync(work, { recursive: true, force: true })
  }
}

const pathToPeakRss = () => path.join(REPO_ROOT, 'bench', 'peak-rss.mjs')

export async function run(): Promise<Record<string, unknown>> {
  const a = await inProcess()
  const at = (n: number) => a.rows.find((r) => r.n === n)
  const t1 = at(1)?.medianMs ?? NaN
  const perSpawn = (n: number) => round(((at(n)?.medianMs ?? NaN) - t1) / (n - 1), 2)
  const n64 = at(64)?.medianMs ?? NaN
  const peak = Math.max(...a.rows.map((r) => r.peakRssMiB))
  buildCli()
  const cli = await throughCli()
  return {
    bench: 'fanout',
    runsPerSize: RUNS,
    inProcess: {
      rows: a.rows,
      perSpawnMs16: perSpawn(16),
      perSpawnMs64: perSpawn(64),
      n64Ms: n64,
      peakRssMiB: peak,
      baselineRssMiB: a.baselineRssMiB,
      rssMethod: 'process.resourceUsage().maxRSS of a dedicated child process (tsx-loaded), = /usr/bin/time "Maximum resident set size"',
      targets: TARGETS,
      pass: { perSpawn: perSpawn(64) < TARGETS.perSpawnMs, n64: n64 < TARGETS.n64Ms, peakRss: peak < TARGETS.peakRssMiB },
    },
    cli: { ...cli, target: TARGETS.cliN16Ms, rssMethod: 'process.resourceUsage().maxRSS at exit of the CLI process (bench/peak-rss.mjs)' },
  }
}

if (process.argv.includes('--in-process-worker') && isMain(import.meta.url)) {
  inProcessWorker().then(
    (result) => console.log(JSON.stringify(result)),
    (err: unknown) => {
      console.error(err)
      process.exitCode = 1
    },
  )
} else runIfMain(import.meta.url, run)
