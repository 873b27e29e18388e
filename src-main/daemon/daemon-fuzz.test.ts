import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import type { BridgeCallName } from '../../src-shared'
import { createBridgeClient, type BridgeClient } from '../../src-shared/bridge-client'
import { createWsTransport, type WebSocketCtor } from '../../src-renderer/bridge/ws-transport'
import { buildCli, spawnAgentry, type AgentryProcess } from '../cli/testing/cli-process'
import { explainBusy, FUZZ_AGENTS, FUZZ_PERMISSIONS, FUZZ_SCRIPT, fuzz, newFuzzState, quiesce, type Call } from '../host/testing/bridge-fuzz'
import { HOSTILE_SCENARIOS } from '../host/testing/hostile-scenarios'
import { databaseProblems } from '../host/testing/settled-state'
import { createFixture, type Fixture } from '../testing/fixture'

/**
 * Issue 10 over the wire: a real `agentry serve` process and several WebSocket clients (the browser's client code)
 * making the hostile sequences and fuzzed calls at once, one of them dropping its socket now and then. The daemon
 * must stay up, answer every call (never `internal`), log no fault, settle with nothing busy, and stop cleanly with a
 * database that passes SQLite's integrity check.
 */
beforeAll(() => buildCli(), 60_000)

let fx: Fixture
let fuzzWork: string
let daemon: AgentryProcess
let url: string
const clients: BridgeClient[] = []
const sockets: WebSocket[] = []

beforeAll(async () => {
  fx = createFixture({ script: FUZZ_SCRIPT, agents: FUZZ_AGENTS, permissions: FUZZ_PERMISSIONS })
  // The fuzz traffic works in a workspace of its own (same agents), so the scenarios' strict expectations are not
  // upset by a random delete of one of their sessions; each side is hostile to its own.
  fuzzWork = path.join(fx.root, 'fuzz-work')
  fs.cpSync(path.join(fx.workdir, '.agents'), path.join(fuzzWork, '.agents'), { recursive: true })
  fuzzWork = fs.realpathSync(fuzzWork)
  daemon = spawnAgentry(['serve', '--port', '0'], { home: fx.dataDir, cwd: fx.workdir })
  await daemon.waitFor(/running at http/, 30_000)
  const m = /running at http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/.exec(daemon.output().stdout)
  if (!m) throw new Error(`no URL in ${daemon.output().stdout}`)
  url = `ws://127.0.0.1:${m[1]}/bridge?token=${m[2]}`
}, 60_000)

afterAll(async () => {
  for (const c of clients) c.close()
  if (daemon.child.exitCode === null) {
    daemon.child.kill('SIGKILL')
    await daemon.exited
  }
  fx.remove()
})

function connect(): Call {
  class Tracked extends WebSocket {
    constructor(u: string) {
      super(u)
      sockets.push(this)
    }
  }
  const client = createBridgeClient(createWsTransport({ url, WebSocket: Tracked as unknown as WebSocketCtor, minDelayMs: 20, queueTimeoutMs: 30_000 }))
  clients.push(client)
  return (name, input) => client.call(name as BridgeCallName, input as never)
}

describe('agentry serve under hostile WebSocket traffic', () => {
  it('survives, answers every call, settles, and stops with a whole database', async () => {
    const [a, b, c] = [connect(), connect(), connect()]
    // A viewer of everything, as the sidebar is.
    let events = 0
    clients[0].subscribe({ sessionId: 'all', afterSeq: 0 }, (m) => void (m.kind === 'event' && events++))
    const internal: string[] = []
    const note = (name: string, r: Awaited<ReturnType<Call>>) => {
      if (!r.ok && r.error.code === 'internal') internal.push(`${name}: ${r.error.message}`)
    }
    const wrap = (call: Call): Call => async (name, input) => {
      const r = await call(name, input)
      note(name, r)
      return r
    }
    // A socket dropped now and then: the client reconnects; calls in flight fail `unavailable`, never hang.
    const dropper = setInterval(() => sockets.at(-1)?.terminate(), 700)
    try {
      await Promise.all([
        (async () => {
          for (const sc of HOSTILE_SCENARIOS) await sc.run(wrap(a), fx.workdir).catch((err: Error) => {
            // A dropped socket can fail a step with `unavailable`; anything else is a real finding.
            if (!/unavailable/.test(err.message)) throw new Error(`${sc.name}: ${err.message}`)
          })
        })(),
        fuzz(wrap(b), newFuzzState(fuzzWork), { seed: 7, steps: 80 }),
        fuzz(wrap(c), newFuzzState(fuzzWork), { seed: 8, steps: 80 }),
      ])
    } finally {
      clearInterval(dropper)
    }
    expect(internal).toEqual([])
    expect(daemon.child.exitCode).toBeNull()
    const left = await quiesce(wrap(a))
    expect(left, await explainBusy(a, left)).toEqual([])
    expect(events).toBeGreaterThan(0)
    const log = path.join(fx.dataDir, 'logs', 'host.log')
    expect(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '').not.toMatch(/fault in/)
    // A clean stop, then the database as the next host would find it.
    daemon.child.kill('SIGTERM')
    expect(await daemon.exited).toBe(0)
    expect(databaseProblems(fx.dataDir)).toEqual([])
    expect(daemon.output().stderr).not.toMatch(/Unhandled|uncaught|Warning/i)
  }, 300_000)
})
