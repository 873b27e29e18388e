import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import type { AgentEvent, SequencedEvent } from '../../src-shared'
import { createBridgeClient } from '../../src-shared/bridge-client'
import { createWsTransport, type WebSocketCtor } from '../../src-renderer/bridge/ws-transport'
import { createHarness, waitFor, type Harness } from '../testing/harness'
import { startDaemon, type Daemon } from './start-daemon'

/** The daemon in front of the REAL host (store, loop, script model): what `agentry serve` runs. */
let h: Harness | undefined
let daemon: Daemon | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) c()
  await daemon?.close()
  await h?.close()
  daemon = undefined
  h = undefined
})

const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-renderer-'))
fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Agentry</title>')

async function connect() {
  const sockets: WebSocket[] = []
  class Tracked extends WebSocket {
    constructor(url: string) {
      super(url)
      sockets.push(this)
    }
  }
  const client = createBridgeClient(createWsTransport({ url: `ws://127.0.0.1:${daemon!.port}/bridge?token=${daemon!.token}`, WebSocket: Tracked as unknown as WebSocketCtor, minDelayMs: 20 }))
  cleanups.push(() => client.close())
  return { client, sockets, drop: () => sockets.at(-1)?.terminate() }
}

describe('agentry serve with the real host', () => {
  it('a browser client creates a session, prompts, and a dropped socket mid-stream resumes with no gap and no duplicate', async () => {
    const words = Array.from({ length: 120 }, (_, i) => `w${i}`).join(' ')
    h = await createHarness({ script: { agents: { build: [{ text: words, chunkDelayMs: 2 }], title: [{ text: 't', repeat: true }] } } })
    daemon = await startDaemon({ api: h.host.api, rendererDir, validateOutput: true })
    const { client, drop, sockets } = await connect()
    const created = await client.call('sessions.create', { workspaceRoot: h.workdir })
    if (!created.ok) throw new Error(created.error.message)
    const sessionId = created.data.session.id
    const seen: SequencedEvent[] = []
    client.subscribe({ sessionId, afterSeq: 0 }, (m) => {
      if (m.kind === 'event') seen.push(m.event)
    })
    const sent = await client.call('messages.prompt', { sessionId, requestId: 'r1', text: 'stream please' })
    expect(sent.ok).toBe(true)
    await waitFor(() => seen.filter((e) => e.event.type === 'content_delta').length > 20)
    expect(seen.some((e) => e.event.type === 'turn_complete')).toBe(false)
    drop()
    await waitFor(() => seen.some((e) => e.event.type === 'turn_complete'), 10_000)
    expect(sockets.length).toBe(2)
    const seqs = seen.map((e) => e.seq)
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1))
    const text = seen.map((e) => e.event).filter((e): e is Extract<AgentEvent, { type: 'content_delta' }> => e.type === 'content_delta').map((e) => e.delta).join('')
    expect(text).toBe(words)
  })

  it('refuses a wrong token and answers calls with the right one', async () => {
    h = await createHarness()
    daemon = await startDaemon({ api: h.host.api, rendererDir, validateOutput: true })
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${daemon!.port}/bridge?token=wrong`)
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.on('open', () => resolve(101))
    })
    expect(refused).toBe(403)
    const { client } = await connect()
    const agents = await client.call('agents.list', { workspaceRoot: h.workdir })
    expect(agents.ok && agents.data.agents.map((a) => a.name)).toContain('build')
  })
})
