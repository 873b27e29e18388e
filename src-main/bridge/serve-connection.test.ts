import { describe, expect, it, vi } from 'vitest'
import type { AgentEvent, CallResult, SubscriptionMessage } from '../../src-shared'
import type { ClientMessage } from '../../src-shared/bridge-protocol'
import { createConnectionPair, type MemoryConnection } from '../../src-shared/bridge-memory'
import { createMemoryHostApi } from './testing'
import { serveConnection } from './serve-connection'

const tick = () => new Promise((r) => setTimeout(r, 0))
const delta = (n: number): AgentEvent => ({
  type: 'content_delta',
  sessionId: 's1',
  at: n,
  messageId: 'm',
  partId: 'p',
  partType: 'text',
  delta: `d${n}`,
})

/** The client half of the protocol, written out plainly so the test reads as the wire does. */
function client(conn: MemoryConnection<ClientMessage>) {
  const results = new Map<string | number, CallResult<unknown>>()
  const subs = new Map<string | number, SubscriptionMessage[]>()
  conn.onMessage((raw) => {
    const m = raw as { t: string; id: string | number; result?: CallResult<unknown>; msg?: SubscriptionMessage }
    if (m.t === 'result') results.set(m.id, m.result!)
    if (m.t === 'sub') subs.set(m.id, [...(subs.get(m.id) ?? []), m.msg!])
  })
  return { results, subs, send: (m: ClientMessage) => conn.send(m), conn }
}

describe('serveConnection over an in-memory pair', () => {
  it('answers calls by id, in completion order, through JSON', async () => {
    let release!: () => void
    const api = createMemoryHostApi({
      calls: {
        'workspaces.open': ({ root }) => new Promise((r) => (release = () => r({ root }))),
        'workspaces.list': async () => ({ recent: [], defaultRoot: '/home' }),
      },
    })
    const [c, h] = createConnectionPair()
    serveConnection(api, h)
    const cl = client(c)
    cl.send({ t: 'call', id: 1, name: 'workspaces.open', input: { root: '/slow' } })
    cl.send({ t: 'call', id: 'b', name: 'workspaces.list', input: {} })
    await tick()
    expect(cl.results.get('b')).toEqual({ ok: true, data: { recent: [], defaultRoot: '/home' } })
    expect(cl.results.has(1)).toBe(false)
    release()
    await tick()
    expect(cl.results.get(1)).toEqual({ ok: true, data: { root: '/slow' } })
  })

  it('answers malformed messages that carry an id, and keeps serving after ones that do not', async () => {
    const log = vi.fn()
    const api = createMemoryHostApi({ calls: { 'workspaces.list': async () => ({ recent: [], defaultRoot: '/' }) } })
    const [c, h] = createConnectionPair()
    serveConnection(api, h, { log })
    const cl = client(c)
    c.send({ t: 'frobnicate', id: 9 } as unknown as ClientMessage)
    c.send('garbage' as unknown as ClientMessage)
    c.send({ t: 'call', id: 10, name: 'workspaces.list', input: {} })
    await tick()
    expect(cl.results.get(9)).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
    expect(log).toHaveBeenCalledTimes(1)
    expect(cl.results.get(10)).toMatchObject({ ok: true })
  })

  it('delivers snapshot then live events per subscription, refuses bad subscribe input, and stops on unsubscribe', async () => {
    const api = createMemoryHostApi()
    const [c, h] = createConnectionPair()
    serveConnection(api, h)
    const cl = client(c)
    cl.send({ t: 'subscribe', id: 's', input: { sessionId: 's1' } })
    cl.send({ t: 'subscribe', id: 'bad', input: { sessionId: 's1', afterSeq: -1 } })
    await tick()
    api.emit('s1', delta(1))
    api.emit('s2', delta(2))
    await tick()
    expect(cl.subs.get('s')?.map((m) => m.kind)).toEqual(['snapshot', 'event'])
    expect(cl.results.get('bad')).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
    if (cl.results.get('bad')?.ok === false) expect(JSON.stringify(cl.results.get('bad'))).toContain('input.afterSeq')

    cl.send({ t: 'subscribe', id: 's', input: { sessionId: 's2' } })
    await tick()
    expect(cl.results.get('s')).toMatchObject({ ok: false, error: { message: expect.stringContaining('already in use') } })

    cl.send({ t: 'unsubscribe', id: 's' })
    await tick()
    expect(api.subscriberCount).toBe(0)
    api.emit('s1', delta(3))
    await tick()
    expect(cl.subs.get('s')).toHaveLength(2)
  })

  it('closing the connection detaches only its subscriptions; the host keeps emitting without errors', async () => {
    const api = createMemoryHostApi()
    const [c1, h1] = createConnectionPair()
    const [c2, h2] = createConnectionPair()
    serveConnection(api, h1)
    serveConnection(api, h2)
    const a = client(c1)
    const b = client(c2)
    a.send({ t: 'subscribe', id: 1, input: { sessionId: 's1' } })
    a.send({ t: 'subscribe', id: 2, input: { sessionId: 'all' } })
    b.send({ t: 'subscribe', id: 1, input: { sessionId: 's1' } })
    await tick()
    expect(api.subscriberCount).toBe(3)
    c1.close()
    await tick()
    expect(api.subscriberCount).toBe(1)
    expect(() => api.emit('s1', delta(1))).not.toThrow()
    await tick()
    expect(b.subs.get(1)?.at(-1)).toMatchObject({ kind: 'event', event: { seq: 1 } })
  })

  it('resumes exactly where the client left off, for any cut point (no gap, no duplicate)', async () => {
    const api = createMemoryHostApi({ keep: 1000 })
    let emitted = 0
    const seen: number[] = []
    let afterSeq = 0
    // Deterministic pseudo-random cut points so a failure is reproducible.
    let seed = 7
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
    for (let round = 0; round < 25; round++) {
      const [c, h] = createConnectionPair()
      serveConnection(api, h)
      const cl = client(c)
      cl.send({ t: 'subscribe', id: 'x', input: { sessionId: 's1', afterSeq } })
      await tick()
      const live = rand(20)
      for (let i = 0; i < live; i++) api.emit('s1', delta(++emitted))
      await tick()
      for (const m of cl.subs.get('x') ?? []) if (m.kind === 'event') seen.push(m.event.seq)
      afterSeq = seen.at(-1) ?? 0
      c.close()
      await tick()
      // Events while disconnected must arrive on the next round's replay.
      const offline = rand(30)
      for (let i = 0; i < offline; i++) api.emit('s1', delta(++emitted))
    }
    const [c, h] = createConnectionPair()
    serveConnection(api, h)
    const cl = client(c)
    cl.send({ t: 'subscribe', id: 'x', input: { sessionId: 's1', afterSeq } })
    await tick()
    for (const m of cl.subs.get('x') ?? []) if (m.kind === 'event') seen.push(m.event.seq)
    expect(seen).toEqual(Array.from({ length: emitted }, (_, i) => i + 1))
  })

  it('passes resync through when the cursor is older than what is kept', async () => {
    const api = createMemoryHostApi({ keep: 10 })
    for (let i = 1; i <= 50; i++) api.emit('s1', delta(i))
    const [c, h] = createConnectionPair()
    serveConnection(api, h)
    const cl = client(c)
    cl.send({ t: 'subscribe', id: 'x', input: { sessionId: 's1', afterSeq: 3 } })
    await tick()
    expect(cl.subs.get('x')?.map((m) => m.kind)).toEqual(['snapshot', 'resync'])
  })
})
