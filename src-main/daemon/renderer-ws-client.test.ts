import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import type { AgentEvent, BridgeError, SubscriptionMessage } from '../../src-shared'
import { createBridgeClient, type BridgeClient } from '../../src-shared/bridge-client'
import { createWsTransport, type WebSocketCtor } from '../../src-renderer/bridge/ws-transport'
import { createMemoryHostApi, type MemoryHostApi } from '../bridge/testing'
import { startDaemon, type Daemon } from './start-daemon'

/**
 * The shared client over the renderer's WebSocket transport (the code the browser runs) against a real daemon on
 * 127.0.0.1. Node 20 has no global WebSocket, so the `ws` package is injected; every socket is tracked so the test
 * can cut it like a dropped network connection.
 */
const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-renderer-'))
const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))
async function until(cond: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await wait(5)
  }
}
const delta = (n: number): AgentEvent => ({ type: 'content_delta', sessionId: 's1', at: n, messageId: 'm', partId: 'p', partType: 'text', delta: `d${n}` })

async function setup(api: MemoryHostApi = createMemoryHostApi({ calls: { 'workspaces.list': async () => ({ recent: [], defaultRoot: '/r' }) } }), token?: string) {
  const daemon: Daemon = await startDaemon({ api, rendererDir, validateOutput: true })
  cleanups.push(() => daemon.close())
  const sockets: WebSocket[] = []
  class TrackedWebSocket extends WebSocket {
    constructor(url: string) {
      super(url)
      sockets.push(this)
    }
  }
  const states: string[] = []
  const client: BridgeClient = createBridgeClient(
    createWsTransport({
      url: `ws://127.0.0.1:${daemon.port}/bridge?token=${token ?? daemon.token}`,
      WebSocket: TrackedWebSocket as unknown as WebSocketCtor,
      queueTimeoutMs: 400,
    }),
  )
  cleanups.unshift(() => client.close())
  client.onConnectionChange((s) => states.push(s))
  const drop = () => sockets.at(-1)?.terminate()
  return { api, daemon, client, states, drop, sockets }
}

describe('renderer WebSocket client against the daemon', () => {
  it('connects, calls, and reports connection state', async () => {
    const { client, states } = await setup()
    expect(client.state).toBe('connecting')
    expect(await client.call('workspaces.list', {})).toEqual({ ok: true, data: { recent: [], defaultRoot: '/r' } })
    expect(states).toEqual(['open'])
    const bad = await client.call('sessions.get', { sessionId: '' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
  })

  it('reconnects after drops and resumes each subscription exactly where it stopped', async () => {
    const { api, client, drop, states } = await setup()
    const got: SubscriptionMessage[] = []
    client.subscribe({ sessionId: 's1', afterSeq: 0 }, (m) => got.push(m))
    await until(() => api.subscriberCount === 1, 'the subscription')
    const events = () => got.filter((m) => m.kind === 'event').length
    const snapshots = () => got.filter((m) => m.kind === 'snapshot').length
    let emitted = 0
    for (let round = 0; round < 4; round++) {
      const before = events()
      for (let i = 0; i < 50; i++) api.emit('s1', delta(++emitted))
      // Cut mid-stream: some of this round's events have arrived, the rest are in flight.
      await until(() => events() > before, 'the stream to start')
      drop()
      // Emitted while the socket dies and while the client is away: must be replayed, once.
      for (let i = 0; i < 30; i++) api.emit('s1', delta(++emitted))
      await until(() => client.state === 'reconnecting', 'the drop to be noticed')
      for (let i = 0; i < 10; i++) api.emit('s1', delta(++emitted))
      await until(() => snapshots() === round + 2, 'reconnect and re-subscribe')
    }
    await until(() => got.filter((m) => m.kind === 'event').length >= emitted, 'all events', 5000)
    await wait(50)
    const seqs = got.flatMap((m) => (m.kind === 'event' ? [m.event.seq] : []))
    expect(seqs).toEqual(Array.from({ length: emitted }, (_, i) => i + 1))
    expect(states.filter((s) => s === 'reconnecting').length).toBe(4)
    expect(got.filter((m) => m.kind === 'snapshot').length).toBe(5)
  })

  it('surfaces resync when the host no longer has the events it missed, and ends that subscription', async () => {
    const api = createMemoryHostApi({ keep: 10 })
    const { client, drop } = await setup(api)
    const got: SubscriptionMessage[] = []
    client.subscribe({ sessionId: 's1', afterSeq: 0 }, (m) => got.push(m))
    await until(() => api.subscriberCount === 1, 'the subscription')
    api.emit('s1', delta(1))
    await until(() => got.length === 2, 'first event')
    drop()
    for (let i = 2; i <= 100; i++) api.emit('s1', delta(i))
    await until(() => got.some((m) => m.kind === 'resync'), 'resync')
    expect(got.at(-1)).toMatchObject({ kind: 'resync', stream: 's1' })
    await wait(50)
    expect(api.subscriberCount).toBe(0)
  })

  it('tells the subscriber when the host refuses a subscription', async () => {
    const { client } = await setup()
    const errors: BridgeError[] = []
    client.subscribe({ sessionId: 'x'.repeat(500), afterSeq: 0 }, () => {}, (e) => errors.push(e))
    await until(() => errors.length === 1, 'the refusal')
    expect(errors[0].code).toBe('invalid_request')
    expect(errors[0].message).toContain('input.sessionId')
  })

  it('fails a call cut off by a drop with `unavailable`, and sends calls made while away once reconnected', async () => {
    let release!: () => void
    const api = createMemoryHostApi({
      calls: {
        'workspaces.open': ({ root }) => new Promise((r) => (release = () => r({ root }))),
        'workspaces.list': async () => ({ recent: [], defaultRoot: '/r' }),
      },
    })
    const { client, drop } = await setup(api)
    await until(() => client.state === 'open', 'open')
    const inFlight = client.call('workspaces.open', { root: '/w' })
    await wait(20)
    drop()
    const cut = await inFlight
    expect(cut).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    if (!cut.ok) expect(cut.error.message).toContain('Try again')
    release()
    expect(client.state).toBe('reconnecting')
    expect(await client.call('workspaces.list', {})).toMatchObject({ ok: true })
  })

  it('with a wrong token keeps retrying with backoff and fails queued calls after the timeout', async () => {
    const { client, sockets, states } = await setup(undefined, 'not-the-token')
    const r = await client.call('workspaces.list', {})
    expect(r).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    expect(states).not.toContain('open')
    // 100 + 200 ms backoff within the 400 ms queue timeout: a few attempts, not a tight loop.
    expect(sockets.length).toBeGreaterThanOrEqual(2)
    expect(sockets.length).toBeLessThanOrEqual(5)
  })

  it('reports `refused` when the host answers but no longer accepts the token (restarted with a new one)', async () => {
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>x</title>')
    const api = createMemoryHostApi({ calls: { 'workspaces.list': async () => ({ recent: [], defaultRoot: '/r' }) } })
    const daemon = await startDaemon({ api, rendererDir })
    cleanups.push(() => daemon.close())
    const probe = (token: string) => async () => {
      const res = await fetch(`http://127.0.0.1:${daemon.port}/?token=${token}`, { method: 'HEAD' })
      return res.status === 403 ? ('refused' as const) : ('ok' as const)
    }
    const make = (token: string) => {
      const client = createBridgeClient(
        createWsTransport({
          url: `ws://127.0.0.1:${daemon.port}/bridge?token=${token}`,
          WebSocket: WebSocket as unknown as WebSocketCtor,
          minDelayMs: 20,
          checkAccess: probe(token),
        }),
      )
      cleanups.unshift(() => client.close())
      return client
    }
    const stale = make('a-token-from-the-last-start')
    await until(() => stale.state === 'refused', 'the refused state')
    await wait(100) // further failed attempts keep it refused, not "reconnecting"
    expect(stale.state).toBe('refused')
    const fresh = make(daemon.token)
    await until(() => fresh.state === 'open', 'the good token to connect')
  })

  it('close() stops reconnecting and detaches its subscriptions on the host', async () => {
    const { api, client, sockets } = await setup()
    client.subscribe({ sessionId: 's1', afterSeq: 0 }, () => {})
    await until(() => api.subscriberCount === 1, 'the subscription')
    client.close()
    await until(() => api.subscriberCount === 0, 'detach')
    await wait(300)
    expect(client.state).toBe('closed')
    expect(sockets.length).toBe(1)
    expect(await client.call('workspaces.list', {})).toMatchObject({ ok: false, error: { code: 'unavailable' } })
  })
})
