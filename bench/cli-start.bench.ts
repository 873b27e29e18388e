/**
 * CLI start-up benchmark: `agentry run … hi` answering one line, as a user would run it, side by side in one run:
 * a bare `node -e 0`; the `script` provider; the openai-compatible provider against a loopback server (the real HTTP
 * path) — each on a host of the command's own (no host running) and attached to a running `agentry serve`.
 * Measured per process: CPU (user + system, from the kernel's accounting of the waited-for child) and wall time
 * from spawn to exit. Target (issue 11): CPU ≤ 3× bare node. Floors: the same measure for a process that only opens
 * SQLite and writes a row, only makes one fetch(), and both — what an own-host run over HTTP cannot avoid (issue 23's
 * target: ≤ 2× that). AGENTRY_BENCH_BASELINE=<other checkout>/bin/agentry.js adds that build's own-host run. One
 * extra openai-compatible run under --cpu-prof gives the profile summary (self time by module).
 * Run: `npx tsx bench/cli-start.bench.ts` (prints JSON). The bench runner imports run().
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import path from 'node:path'
import { startScriptedChatServer } from '../src-main/models/testing'
import { AGENTRY_BIN, buildCli, cliEnv, spawnAgentry, tempDir, writeFiles } from '../src-main/cli/testing/cli-process'
import { median, round, runIfMain } from './stats'

const RUNS = 10
const require = createRequire(import.meta.url)
const TARGET_RATIO = 3
/** issue 23: own host over HTTP ≤ 2× the floor process (SQLite write + one fetch) */
const TARGET_FLOOR_RATIO = 2

interface Sample {
  cpuMs: number | null
  wallMs: number
  stdout: string
  code: number | null
}

/**
 * Runs `cmd` under bash, which after reaping it prints `times` on fd 3: its second line is the CPU (user, system) of
 * the children it waited for, from getrusage — to the millisecond, threads and process teardown included. (The
 * kernel's /proc stat counts in 10 ms ticks, rounded down: too coarse for a 20 ms bare start.) Where bash is
 * missing, cpuMs is null.
 */
function measure(cmd: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn('bash', ['-c', '"$@"; code=$?; times >&3; exit $code', 'bash', ...cmd], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let times = ''
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr!.resume()
    child.stdio[3]!.on('data', (d: Buffer) => (times += d.toString()))
    child.once('error', reject)
    child.once('close', (code) => {
      const wallMs = performance.now() - started
      // "0m0.021s 0m0.004s" on the second line: the children's user and system time
      const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(times.trim().split('\n')[1] ?? '')
      const cpuMs = m ? (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000 : null
      resolve({ cpuMs, wallMs, stdout, code })
    })
  })
}

type Figure = { cpuMs: number | null; wallMs: number }

/**
 * Several commands measured in rounds — each round runs every command once — so a machine that slows down or speeds
 * up meanwhile moves all of them alike: their ratios are what this bench is for.
 */
async function rounds<K extends string>(cmds: Record<K, { cmd: string[]; expect?: string }>, env: NodeJS.ProcessEnv, cwd: string): Promise<Record<K, Figure>> {
  const samples = new Map<K, { cpu: number[]; wall: number[] }>()
  const keys = Object.keys(cmds) as K[]
  for (const k of keys) samples.set(k, { cpu: [], wall: [] })
  for (let i = 0; i < RUNS; i++) {
    for (const k of keys) {
      const { cmd, expect } = cmds[k]
      const s = await measure(cmd, env, cwd)
      if (expect !== undefined && (s.code !== 0 || s.stdout !== expect)) throw new Error(`${cmd.slice(1).join(' ')} failed (exit ${s.code}): ${s.stdout}`)
      if (s.cpuMs !== null) samples.get(k)!.cpu.push(s.cpuMs)
      samples.get(k)!.wall.push(s.wallMs)
    }
  }
  const out = {} as Record<K, Figure>
  for (const k of keys) {
    const { cpu, wall } = samples.get(k)!
    out[k] = { cpuMs: cpu.length ? round(median(cpu)) : null, wallMs: round(median(wall)) }
  }
  return out
}

/** A chunk of the CLI bundle, named by what most of its sources are (from its source map). */
function bundleChunk(url: string): string {
  try {
    const map = JSON.parse(fs.readFileSync(`${new URL(url).pathname}.map`, 'utf8')) as { sources: string[] }
    const count = new Map<string, number>()
    for (const s of map.sources) {
      const k = s.includes('node_modules/') ? s.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1') : s.replace(/.*\/(src-[a-z]+\/[^/]+).*/, '$1')
      count.set(k, (count.get(k) ?? 0) + 1)
    }
    return `bundle[${[...count].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k]) => k).join(', ')}]`
  } catch {
    return `bundle ${path.basename(url)}`
  }
}

/** Self time by module of one profiled run: where the CPU goes. */
function profileSummary(dir: string): Record<string, number> {
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
  if (!file) return {}
  const p = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
    nodes: { id: number; callFrame: { url: string; functionName: string } }[]
    samples: number[]
    timeDeltas: number[]
  }
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  p.samples.forEach((id, i) => {
    const { url, functionName } = byId.get(id)!.callFrame
    const where = url
      ? url.includes('node_modules/')
        ? url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1')
        : url.startsWith('node:')
          ? url.replace(/^node:(internal\/)?(deps\/)?([^/]+).*/, 'node:$3')
          : bundleChunk(url)
      : `(${functionName || 'native'})`
    self.set(where, (self.get(where) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000)
  })
  return Object.fromEntries([...self].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => [k, round(v)]))
}

export async function run(): Promise<Record<string, unknown>> {
  buildCli()
  const server = await startScriptedChatServer({ respond: () => ({ text: 'hello' }) })
  const home = tempDir('bench-cli-home')
  const work = tempDir('bench-cli-work')
  const profiles = tempDir('bench-cli-prof')
  try {
    writeFiles(home, {
      'config.yaml': { model: 'mock/m', providers: { mock: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } } },
      'script.yaml': { agents: { '*': [{ text: 'hello', repeat: true }] } },
    })
    const extra = { AGENTRY_SCRIPT: path.join(home, 'script.yaml') }
    const env = cliEnv(home, extra)
    const node = process.execPath
    const commands = { script: [node, AGENTRY_BIN, 'run', '--model', 'script/x', 'hi'], openaiCompatible: [node, AGENTRY_BIN, 'run', 'hi'] }
    // The first run creates the database and fills Node's compile cache: not part of the figures.
    await measure(commands.openaiCompatible, env, work)
    await measure(commands.script, env, work)

    // Floors: what a process doing only what any own-host run over HTTP must do costs, with no Agentry code —
    // open the SQLite file, write a row, close it; one fetch() to the loopback server (loads Node's undici).
    const sqliteOnly = `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))}); const db = new D(${JSON.stringify(path.join(work, 'floor.db'))}); db.pragma('journal_mode = WAL'); db.exec('create table if not exists t(a)'); db.prepare('insert into t values (1)').run(); db.close();`
    const fetchOnly = `fetch(${JSON.stringify(`${server.url}/models`)}).then((r) => r.text(), () => {});`
    // Before/after in one run: AGENTRY_BENCH_BASELINE names another checkout's bin/agentry.js (built), e.g. a worktree
    // of the commit before a change; its own-host run is measured in the same rounds.
    const baselineBin = process.env.AGENTRY_BENCH_BASELINE
    if (baselineBin) await measure([node, baselineBin, 'run', 'hi'], env, work)
    const measured: Record<string, { cmd: string[]; expect?: string }> = {
      bare: { cmd: [node, '-e', '0'] },
      sqlite: { cmd: [node, '-e', sqliteOnly] },
      fetch: { cmd: [node, '-e', fetchOnly] },
      sqliteAndFetch: { cmd: [node, '-e', sqliteOnly + fetchOnly] },
      script: { cmd: commands.script, expect: 'hello\n' },
      openaiCompatible: { cmd: commands.openaiCompatible, expect: 'hello\n' },
    }
    if (baselineBin) measured.baseline = { cmd: [node, baselineBin, 'run', 'hi'], expect: 'hello\n' }
    const figures = await rounds(measured, env, work)
    const bare = figures.bare
    const floors = { sqlite: figures.sqlite, fetch: figures.fetch, sqliteAndFetch: figures.sqliteAndFetch }
    const inProcess = { script: figures.script, openaiCompatible: figures.openaiCompatible }
    const baseline = figures.baseline ? { openaiCompatible: figures.baseline } : undefined
    await measure([node, '--cpu-prof', `--cpu-prof-dir=${profiles}`, AGENTRY_BIN, 'run', 'hi'], env, work)
    const profile = profileSummary(profiles)

    const daemon = spawnAgentry(['serve', '--port', '0'], { home, cwd: work, env: extra })
    let attached
    try {
      await daemon.waitFor(/running at http/)
      await measure(commands.openaiCompatible, env, work)
      attached = await rounds({ script: { cmd: commands.script, expect: 'hello\n' }, openaiCompatible: { cmd: commands.openaiCompatible, expect: 'hello\n' } }, env, work)
    } finally {
      daemon.child.kill('SIGINT')
      await daemon.exited
    }
    const ratio = (s: { cpuMs: number | null }) => (s.cpuMs !== null && bare.cpuMs ? round(s.cpuMs / bare.cpuMs) : null)
    const withRatio = (s: { cpuMs: number | null; wallMs: number }) => ({ ...s, cpuRatioToBareNode: ratio(s) })
    const results = {
      inProcess: { script: withRatio(inProcess.script), openaiCompatible: withRatio(inProcess.openaiCompatible) },
      attached: { script: withRatio(attached.script), openaiCompatible: withRatio(attached.openaiCompatible) },
      floors: { sqlite: withRatio(floors.sqlite), fetch: withRatio(floors.fetch), sqliteAndFetch: withRatio(floors.sqliteAndFetch) },
    }
    const ratios = [results.inProcess.openaiCompatible.cpuRatioToBareNode, results.attached.openaiCompatible.cpuRatioToBareNode]
    // Issue 23: an own-host run over HTTP against the floor process (SQLite + one fetch, no Agentry code).
    const floorCpu = floors.sqliteAndFetch.cpuMs
    const toFloor = inProcess.openaiCompatible.cpuMs !== null && floorCpu ? round(inProcess.openaiCompatible.cpuMs / floorCpu) : null
    return {
      bench: 'cli-start',
      runs: RUNS,
      nodeBare: bare,
      ...results,
      targetCpuRatio: TARGET_RATIO,
      passInProcess: ratios[0] !== null && ratios[0] <= TARGET_RATIO,
      passAttached: ratios[1] !== null && ratios[1] <= TARGET_RATIO,
      inProcessCpuRatioToFloor: toFloor,
      targetFloorRatio: TARGET_FLOOR_RATIO,
      passInProcessFloor: toFloor !== null && toFloor <= TARGET_FLOOR_RATIO,
      ...(baseline
        ? { baseline: { bin: baselineBin, openaiCompatible: { ...baseline.openaiCompatible, cpuRatioToFloor: baseline.openaiCompatible.cpuMs !== null && floorCpu ? round(baseline.openaiCompatible.cpuMs / floorCpu) : null } } }
        : {}),
      profileInProcessOpenaiCompatibleSelfMs: profile,
    }
  } finally {
    await server.close()
    for (const dir of [home, work, profiles]) fs.rmSync(dir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
