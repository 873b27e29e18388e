/**
 * Soak (issue 10 target): a real `agentry serve` and 10 WebSocket clients (the browser's client code) for a long
 * time — prompts that fan out to subagents (blocking, background, opaque), prompts whose bash command runs for
 * seconds, aborts, deletes, archives, dropped sockets that reconnect, and now and then `kill -9` of a tool process
 * the daemon started. Reports: crashes (the daemon exited), calls answered `internal`, stuck sessions (still busy a
 * minute after the traffic stopped), leaked processes (tool processes alive after the daemon stopped), and the
 * daemon's RSS growth after warm-up (mean of the last tenth of the samples against the first tenth after warm-up).
 *
 * Duration: SOAK_SECONDS (default 600 = the 10-minute target). SOAK_FORCE_GC=1: a full GC before each heap sample. Run: `npx tsx bench/soak.bench.ts` (prints JSON).
 * Not part of `npm test` nor of `npm run bench` (it is long by design).
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { WebSocket } from 'ws'
import type { BridgeCallName, CallResult } from '../src-shared'
import { createBridgeClient, type BridgeClient } from '../src-shared/bridge-client'
import { createWsTransport, type WebSocketCtor } from '../src-renderer/bridge/ws-transport'
import { buildCli, spawnAgentry } from '../src-main/cli/testing/cli-process'
import { databaseProblems } from '../src-main/host/testing/settled-state'
import { createFixture } from '../src-main/testing/fixture'
import { machine, round, runIfMain } from './stats'

const here = path.dirname(fileURLToPath(import.meta.url))
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600)
const FORCE_GC = process.env.SOAK_FORCE_GC === '1'
const CLIENTS = 10
const MARK = 'soakmark'
const BUSY = new Set(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])

const task = (subagent_type: string, prompt: string, background = false) => ({ name: 'task', input: { subagent_type, description: prompt, prompt, background } })
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ')

const SCRIPT = {
  agents: {
    build: [
      { match: 'fanout', step: 1, repeat: true, tools: [task('worker', 'inspect'), task('helper', 'opaque'), task('worker', 'later', true), task('worker', 'tool', true)] },
      { match: 'tool', step: 1, repeat: true, tools: [{ name: 'bash', input: { command: `sleep 3; echo ${MARK}` } }] },
      { match: 'slow', step: 1, repeat: true, text: words(60), chunkDelayMs: 20 },
      { text: 'done', repeat: true },
    ],
    worker: [
      { match: 'tool', step: 1, repeat: true, tools: [{ name: 'bash', input: { command: `sleep 2; echo ${MARK}` } }] },
      { text: words(40), chunkDelayMs: 15, repeat: true },
    ],
    helper: [{ text: words(20), chunkDelayMs: 10, repeat: true }],
    '*': [{ text: 'a title', repeat: true }],
  },
}
const AGENTS = { worker: { mode: 'all', inspectable: true }, helper: { mode: 'subagent' } }

/** Every process below `root` (by parent pid), from /proc. */
function descendants(root: number): { pid: number; comm: string }[] {
  const parent = new Map<number, { ppid: number; comm: string }>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      const comm = stat.slice(stat.indexOf('(') + 1, close)
      const ppid = Number(stat.slice(close + 2).split(' ')[1])
      parent.set(Number(entry), { ppid, comm })
    } catch {
      // gone meanwhile: not ours to count
    }
  }
  const out: { pid: number; comm: string }[] = []
  for (const [pid, p] of parent) {
    for (let up = p.ppid, hops = 0; up > 1 && hops < 64; up = parent.get(up)?.ppid ?? 0, hops++) {
      if (up === root) {
        out.push({ pid, comm: p.comm })
        break
      }
    }
  }
  return out
}

/** Processes anywhere whose command line carries the soak's marker (tool processes that outlived the daemon). */
function markedProcesses(): number[] {
  const found: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(MARK)) found.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return found
}

function rssMiB(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

export async function run(): Promise<Record<string, unknown>> {
  buildCli()
  const fx = createFixture({ script: SCRIPT, agents: AGENTS, permissions: '{ "bash": "allow" }', config: { subagents: { maxConcurrent: 4 } } })
  const heapFile = path.join(fx.root, 'heap.ndjson')
  const daemon = spawnAgentry(['serve', '--port', '0'], {
    home: fx.dataDir,
    cwd: fx.workdir,
    // The daemon's heap sampled from inside (see heap-sampler.mjs), beside its RSS from /proc. By default without
    // forced GCs, as users run it (the RSS target is about that daemon); SOAK_FORCE_GC=1 adds a full GC before
    // each sample, which shows the live heap (a leak keeps growing it) at the price of a different RSS.
    nodeArgs: [...(FORCE_GC ? ['--expose-gc'] : []), '--import', pathToFileURL(path.join(here, 'heap-sampler.mjs')).href],
    env: { AGENTRY_BENCH_HEAP_FILE: heapFile, AGENTRY_BENCH_HEAP_MS: '5000', AGENTRY_BENCH_HEAP_GC: FORCE_GC ? '1' : '0' },
  })
  await daemon.waitFor(/running at http/, 60_000)
  const m = /running at http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/.exec(daemon.output().stdout)
  if (!m) throw new Error(`no URL in ${daemon.output().stdout}`)
  const url = `ws://127.0.0.1:${m[1]}/bridge?token=${m[2]}`
  const pid = daemon.child.pid!
  let crashed = false
  void daemon.exited.then(() => (crashed = true))

  const sockets: WebSocket[] = []
  class Tracked extends WebSocket {
    constructor(u: string) {
      super(u)
      sockets.push(this)
    }
  }
  const clients: BridgeClient[] = []
  const connect = (): BridgeClient => createBridgeClient(createWsTransport({ url, WebSocket: Tracked as unknown as WebSocketCtor, minDelayMs: 20, queueTimeoutMs: 60_000 }))
  for (let i = 0; i < CLIENTS; i++) clients.push(connect())
  const viewer = clients[0]
  let events = 0
  viewer.subscribe({ sessionId: 'all', afterSeq: 0 }, (msg) => void (msg.kind === 'event' && events++))

  const counts: Record<string, number> = {}
  const internal: string[] = []
  const count = (k: string) => (counts[k] = (counts[k] ?? 0) + 1)
  const call = async (i: number, name: BridgeCallName, input: unknown): Promise<CallResult<unknown>> => {
    const r = await clients[i].call(name, input as never)
    count(r.ok ? `${name}:ok` : `${name}:${r.error.code}`)
    if (!r.ok && r.error.code === 'internal') internal.push(`${name}: ${r.error.message}`)
    return r
  }

  const started = Date.now()
  const end = started + SECONDS * 1000
  const warmUpMs = Math.min(60_000, SECONDS * 200)
  const rss: { t: number; mib: number; dbMiB: number }[] = []
  // The database's size beside RSS: SQLite's page cache (up to cache_size) grows with the data it has read or written.
  const dbMiB = () => ['agentry.db', 'agentry.db-wal'].reduce((a, f) => a + (fs.statSync(path.join(fx.dataDir, f), { throwIfNoEntry: false })?.size ?? 0), 0) / 2 ** 20
  const sampler = setInterval(() => {
    const mib = rssMiB(pid)
    if (mib !== undefined) rss.push({ t: Date.now() - started, mib, dbMiB: dbMiB() })
  }, 2000)
  let killed = 0
  const killer = setInterval(() => {
    const tools = descendants(pid).filter((p) => p.comm === 'sleep' || p.comm === 'bash')
    const victim = tools[Math.floor(Math.random() * tools.length)]
    if (!victim) return
    try {
      process.kill(victim.pid, 'SIGKILL')
      killed++
    } catch {
      // it ended by itself meanwhile
    }
  }, 3000)
  let reconnects = 0
  const dropper = setInterval(() => {
    const open = sockets.filter((s) => s.readyState === WebSocket.OPEN)
    open[Math.floor(Math.random() * open.length)]?.terminate()
    reconnects++
  }, 5000)

  const PROMPTS = ['fanout', 'tool', 'slow', 'hello']
  const worker = async (i: number): Promise<void> => {
    const mine: string[] = []
    while (Date.now() < end && !crashed) {
      const roll = Math.random()
      const some = mine[Math.floor(Math.random() * mine.length)]
      if (roll < 0.35 || !some) {
        const created = await call(i, 'sessions.create', { workspaceRoot: fx.workdir })
        if (created.ok) {
          const id = (created.data as { session: { id: string } }).session.id
          mine.push(id)
          await call(i, 'messages.prompt', { sessionId: id, requestId: `s-${i}-${Math.random()}`, text: PROMPTS[Math.floor(Math.random() * PROMPTS.length)] })
        }
      } else if (roll < 0.55) await call(i, 'messages.prompt', { sessionId: some, requestId: `s-${i}-${Math.random()}`, text: PROMPTS[Math.floor(Math.random() * PROMPTS.length)] })
      else if (roll < 0.7) await call(i, 'messages.abort', { sessionId: some })
      else if (roll < 0.8) {
        await call(i, 'sessions.delete', { sessionId: some })
        mine.splice(mine.indexOf(some), 1)
      } else if (roll < 0.85) await call(i, 'sessions.archive', { sessionId: some, archived: Math.random() < 0.7 })
      else if (roll < 0.9) await call(i, 'tasks.list', { rootSessionId: some })
      else if (roll < 0.95) await call(i, 'sessions.get', { sessionId: some })
      else {
        // A client that goes away and comes back (a closed tab, a new one).
        clients[i].close()
        clients[i] = connect()
        reconnects++
      }
      // Keep the machine usable: a person does not click 100 times a second.
      await new Promise((r) => setTimeout(r, 150 + Math.random() * 350))
      // Old sessions go, so the database does not only grow (deleted ones are what a real user does too).
      if (mine.length > 12) {
        await call(i, 'sessions.delete', { sessionId: mine.shift()! })
      }
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => worker(i).catch((err: Error) => void internal.push(`client ${i}: ${err.message}`))))
  clearInterval(killer)
  clearInterval(dropper)
  const trafficMs = Date.now() - started

  // Settle: nothing new starts; whatever runs must end by itself (tool sleeps are seconds, replies too).
  const settleEnd = Date.now() + 90_000
  let stuck: string[] = []
  for (;;) {
    const list = await call(0, 'sessions.list', { includeChildren: true, includeArchived: true, limit: 20_000 })
    const sessions = list.ok ? (list.data as { sessions: { id: string; status: string }[] }).sessions : []
    stuck = sessions.filter((s) => BUSY.has(s.status)).map((s) => `${s.id} ${s.status}`)
    if (!stuck.length || Date.now() > settleEnd || crashed) break
    await new Promise((r) => setTimeout(r, 1000))
  }
  clearInterval(sampler)
  const toolsWhileIdle = descendants(pid).length
  for (const c of clients) c.close()
  daemon.child.kill('SIGTERM')
  const exitCode = await daemon.exited
  await new Promise((r) => setTimeout(r, 2000))
  const leaked = markedProcesses()
  for (const p of leaked) process.kill(p, 'SIGKILL')

  const after = rss.filter((s) => s.t >= warmUpMs)
  const tenth = Math.max(1, Math.floor(after.length / 10))
  const mean = (xs: { mib: number }[]) => xs.reduce((a, s) => a + s.mib, 0) / Math.max(1, xs.length)
  const early = mean(after.slice(0, tenth))
  const late = mean(after.slice(-tenth))
  const heap = fs.existsSync(heapFile)
    ? fs.readFileSync(heapFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { t: number; heapUsedMiB: number; heapTotalMiB: number; rssMiB: number; externalMiB: number })
    : []
  const heapAfter = heap.filter((s) => s.t >= warmUpMs)
  const heapTenth = Math.max(1, Math.floor(heapAfter.length / 10))
  const heapMean = (xs: { heapUsedMiB: number }[]) => xs.reduce((a, s) => a + s.heapUsedMiB, 0) / Math.max(1, xs.length)
  const heapEarly = heapMean(heapAfter.slice(0, heapTenth))
  const heapLate = heapMean(heapAfter.slice(-heapTenth))
  const result = {
    machine: machine(),
    durationSeconds: { asked: SECONDS, traffic: round(trafficMs / 1000), warmUp: round(warmUpMs / 1000) },
    clients: CLIENTS,
    calls: Object.values(counts).reduce((a, b) => a + b, 0),
    callsByOutcome: counts,
    eventsSeenByViewer: events,
    toolProcessesKilled: killed,
    socketDropsAndReconnects: reconnects,
    crashes: crashed && exitCode !== 0 ? 1 : 0,
    daemonExit: exitCode,
    internalAnswers: internal.length,
    internalSamples: internal.slice(0, 5),
    stuckSessions: stuck.length,
    stuckSamples: stuck.slice(0, 5),
    processesUnderDaemonWhenIdle: toolsWhileIdle,
    leakedProcesses: leaked.length,
    rssMiB: { samples: rss.length, first: round(rss[0]?.mib ?? 0), earlyAfterWarmUp: round(early), late: round(late), max: round(Math.max(...rss.map((s) => s.mib))) },
    rssGrowthAfterWarmUpPct: round(((late - early) / early) * 100),
    // RSS by minute (MiB), to see whether it levels off, and the database (file + WAL) at the same moments.
    rssByMinute: rss.filter((s, i) => i === rss.length - 1 || Math.floor(s.t / 60_000) !== Math.floor((rss[i + 1]?.t ?? 0) / 60_000)).map((s) => ({ min: round(s.t / 60_000), rss: round(s.mib), db: round(s.dbMiB) })),
    forcedGc: FORCE_GC,
    // With forced GCs heapUsed is the live heap; without, it includes garbage not yet collected.
    heapUsedMiB: { samples: heap.length, earlyAfterWarmUp: round(heapEarly), late: round(heapLate), max: round(Math.max(0, ...heap.map((s) => s.heapUsedMiB))) },
    heapUsedGrowthAfterWarmUpPct: round(((heapLate - heapEarly) / heapEarly) * 100),
    // Where RSS is, early after warm-up → late: V8's heap (heapTotal), external buffers, and the rest (SQLite's page
    // cache, malloc, code, thread stacks).
    rssParts: (() => {
      const part = (xs: typeof heap) => {
        const n = Math.max(1, xs.length)
        const heapTotal = xs.reduce((a, s) => a + s.heapTotalMiB, 0) / n
        const external = xs.reduce((a, s) => a + s.externalMiB, 0) / n
        const rssIn = xs.reduce((a, s) => a + s.rssMiB, 0) / n
        return { heapTotal: round(heapTotal), external: round(external), native: round(rssIn - heapTotal - external) }
      }
      return { earlyAfterWarmUp: part(heapAfter.slice(0, heapTenth)), late: part(heapAfter.slice(-heapTenth)) }
    })(),
    databaseProblems: databaseProblems(fx.dataDir),
    faultLines: (() => {
      const log = path.join(fx.dataDir, 'logs', 'host.log')
      return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((l) => /fault|internal error/.test(l)).length : 0
    })(),
    targets: { crashes: 0, stuckSessions: 0, leakedProcesses: 0, rssGrowthAfterWarmUpPct: '< 10' },
  }
  fx.remove()
  return result
}

runIfMain(import.meta.url, run)
