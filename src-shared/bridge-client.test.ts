import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SubscriptionMessage } from './bridge'
import type { AgentEvent } from './events'
import { createBridgeClient } from './bridge-client'
import { createConnectionPair } from './bridge-memory'
import type { ClientMessage, ClientTransport, ConnectionState } from './bridge-protocol'
import { HostError } from './host-api'

/**
 * The client half alone, over an in-memory transport pair whose host end the test plays by hand: what every
 * transport (WebSocket, IPC, local socket) relies on. The round trip with the real serving half is in
 * src-main/bridge/round-trip.test.ts.
 */
const tick = () => new Promise((r) => setTimeout(r, 0))
const status: AgentEvent = { type: 'status_change', sessionId: 's1', at: 0, status: 'busy' }
const event = (seq: number): SubscriptionMessage => ({ kind: 'event', event: { seq, stream: 's1', event: status } })

function connected() {
  const [transport, host] = createConnectionPair()
  const received: ClientMessage[] = []
  host.onMessage((m) => received.push(m as ClientMessage))
  return { client: createBridgeClient(transport), host, received }
}

afterEach(() => vi.restoreAllMocks())

describe('createBridgeClient', () => {
  it('pairs each result with its call by id, in whatever order the host answers', async () => {
    const { client, host, received } = connected()
    const first = client.call('workspaces.list', {})
    const second = client.call('sessions.get', { sessionId: 'a' })
    await tick()
    expect(received).toEqual([
      { t: 'call', id: 1, name: 'workspaces.list', input: {} },
      { t: 'call', id: 2, name: 'sessions.get', input: { sessionId: 'a' } },
    ])
    host.send({ t: 'result', id: 2, result: { ok: false, error: { code: 'not_found', message: 'No session a.' } } })
    host.send({ t: 'result', id: 1, result: { ok: true, data: { recent: [], defaultRoot: '/' } } })
    expect(await first).toEqual({ ok: true, data: { recent: [], defaultRoot: '/' } })
    expect(await second).toEqual({ ok: false, error: { code: 'not_found', message: 'No session a.' } })
  })

  it('`calls` resolve to the data or throw the host’s error rebuilt as HostError (code, message, data)', async () => {
    const { client, host } = connected()
    const ok = client.calls['workspaces.open']({ root: '/w' })
    const failed = client.calls['sessions.get']({ sessionId: 'x' }).catch((e: unknown) => e)
    await tick()
    host.send({ t: 'result', id: 1, result: { ok: true, data: { root: '/w/real' } } })
    host.send({ t: 'result', id: 2, result: { ok: false, error: { code: 'config_error', message: 'Bad.', data: { fields: { a: 'b' } } } } })
    expect(await ok).toEqual({ root: '/w/real' })
    const err = await failed
    expect(HostError.isInstance(err)).toBe(true)
    expect(err).toMatchObject({ code: 'config_error', message: 'Bad.', data: { fields: { a: 'b' } } })
  })

  it('delivers each subscription’s messages to its subscriber; unsubscribing sends one unsubscribe and stops delivery', async () => {
    const { client, host, received } = connected()
    const a: SubscriptionMessage[] = []
    const b: SubscriptionMessage[] = []
    const stopA = client.subscribe({ sessionId: 's1', afterSeq: 3 }, (m) => a.push(m))
    client.subscribe({ sessionId: 'all', afterSeq: 0 }, (m) => b.push(m))
    await tick()
    expect(received).toEqual([
      { t: 'subscribe', id: 1, input: { sessionId: 's1', afterSeq: 3 } },
      { t: 'subscribe', id: 2, input: { sessionId: 'all', afterSeq: 0 } },
    ])
    host.send({ t: 'sub', id: 1, msg: event(4) })
    host.send({ t: 'sub', id: 2, msg: event(9) })
    await tick()
    expect(a).toEqual([event(4)])
    expect(b).toEqual([event(9)])
    stopA()
    stopA()
    host.send({ t: 'sub', id: 1, msg: event(5) }) // already on its way when the client unsubscribed
    await tick()
    expect(a).toEqual([event(4)])
    expect(received.filter((m) => m.t === 'unsubscribe')).toEqual([{ t: 'unsubscribe', id: 1 }])
  })

  it('a resync ends the subscription: nothing after it is delivered and disposing sends nothing', async () => {
    const { client, host, received } = connected()
    const got: SubscriptionMessage[] = []
    const stop = client.subscribe({ sessionId: 's1', afterSeq: 0 }, (m) => got.push(m))
    host.send({ t: 'sub', id: 1, msg: { kind: 'resync', stream: 's1', reason: 'too far behind' } })
    host.send({ t: 'sub', id: 1, msg: event(1) })
    await tick()
    expect(got.map((m) => m.kind)).toEqual(['resync'])
    stop()
    await tick()
    expect(received.map((m) => m.t)).toEqual(['subscribe'])
  })

  it('a refused subscription reaches onError as a HostError, or the console when there is no onError', async () => {
    const { client, host } = connected()
    const errors: HostError[] = []
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    client.subscribe({ sessionId: 'nope', afterSeq: 0 }, () => {}, (e) => errors.push(e))
    client.subscribe({ sessionId: 'gone', afterSeq: 0 }, () => {})
    host.send({ t: 'result', id: 1, result: { ok: false, error: { code: 'not_found', message: 'No session nope.' } } })
    host.send({ t: 'result', id: 2, result: { ok: false, error: { code: 'not_found', message: 'No session gone.' } } })
    await tick()
    expect(errors).toHaveLength(1)
    expect(HostError.isInstance(errors[0])).toBe(true)
    expect(errors[0]).toMatchObject({ code: 'not_found', message: 'No session nope.' })
    expect(logged).toHaveBeenCalledWith('[agentry] subscription refused: No session gone.')
  })

  it('a subscriber that throws does not stop the others; unknown host messages are ignored', async () => {
    const { client, host } = connected()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const got: SubscriptionMessage[] = []
    client.subscribe({ sessionId: 's1', afterSeq: 0 }, () => {
      throw new Error('bug in a subscriber')
    })
    client.subscribe({ sessionId: 's1', afterSeq: 0 }, (m) => got.push(m))
    host.send('garbage' as never)
    host.send({ t: 'frobnicate', id: 1 } as never)
    host.send({ t: 'sub', id: 1, msg: event(1) })
    host.send({ t: 'sub', id: 2, msg: event(1) })
    await tick()
    expect(got).toEqual([event(1)])
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
      '[agentry] the host sent an unknown bridge message; ignored',
      '[agentry] the host sent an unknown bridge message; ignored',
      '[agentry] a bridge listener threw:',
    ])
  })

  it('when the transport closes, pending and later calls fail with unavailable and `closed` resolves', async () => {
    const { client, host } = connected()
    const states: ConnectionState[] = []
    client.onConnectionChange((s) => states.push(s))
    expect(client.state).toBe('open')
    const pending = client.call('workspaces.list', {})
    const thrown = client.calls['workspaces.list']({}).catch((e: unknown) => e)
    await tick()
    host.close()
    await client.closed
    expect(await pending).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    expect(await thrown).toMatchObject({ name: 'HostError', code: 'unavailable' })
    expect(await client.call('workspaces.list', {})).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    expect(client.state).toBe('closed')
    expect(states).toEqual(['closed'])
  })

  it('close() fails what is pending at once and closes the transport', async () => {
    const { client, host } = connected()
    let hostSawClose = false
    host.onClose(() => (hostSawClose = true))
    const pending = client.call('workspaces.list', {})
    client.close()
    expect(await pending).toMatchObject({ ok: false, error: { code: 'unavailable', message: 'The bridge client was closed.' } })
    await client.closed
    expect(hostSawClose).toBe(true)
  })

  it('follows the connection state of a transport that reconnects by itself', () => {
    const [inner] = createConnectionPair()
    let setState!: (s: ConnectionState) => void
    const transport: ClientTransport = {
      ...inner,
      state: 'connecting',
      onStateChange(cb) {
        setState = cb
        return () => {}
      },
    }
    const client = createBridgeClient(transport)
    const states: ConnectionState[] = []
    client.onConnectionChange((s) => states.push(s))
    expect(client.state).toBe('connecting')
    setState('open')
    setState('reconnecting')
    setState('refused')
    expect(client.state).toBe('refused')
    expect(states).toEqual(['open', 'reconnecting', 'refused'])
  })
})
