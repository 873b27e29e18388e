import { describe, expect, it } from 'vitest'
import { HostError, type AgentEvent, type SubscriptionMessage } from '../../src-shared'
import { createBridgeClient } from '../../src-shared/bridge-client'
import { createConnectionPair } from '../../src-shared/bridge-memory'
import { serveConnection } from './serve-connection'
import { createMemoryHostApi } from './testing'

const tick = () => new Promise((r) => setTimeout(r, 0))
const delta = (n: number): AgentEvent => ({ type: 'content_delta', sessionId: 's1', at: n, messageId: 'm', partId: 'p', partType: 'text', delta: `d${n}` })

/** The client half against the real serving half: what an attached CLI and an in-process one both run. */
function connected(calls: Parameters<typeof createMemoryHostApi>[0] = {}) {
  const host = createMemoryHostApi(calls)
  const [client, hostEnd] = createConnectionPair()
  serveConnection(host, hostEnd, { validateOutput: true })
  return { host, api: createBridgeClient(client), client }
}

describe('createBridgeClient against serveConnection', () => {
  it('resolves a call to its data and throws the host’s HostError (code, message, data) for a failure', async () => {
    const { api } = connected({
      calls: {
        'workspaces.open': async ({ root }) => ({ root: `${root}/real` }),
        'sessions.get': async ({ sessionId }) => {
          throw new HostError('not_found', `No session ${sessionId}.`, { sessionId })
        },
      },
    })
    expect(await api.calls['workspaces.open']({ root: '/w' })).toEqual({ root: '/w/real' })
    const err = await api.calls['sessions.get']({ sessionId: 'nope' }).catch((e: unknown) => e)
    expect(HostError.isInstance(err)).toBe(true)
    expect(err).toMatchObject({ code: 'not_found', message: 'No session nope.', data: { sessionId: 'nope' } })
  })

  it('gets invalid_request for bad input, checked by the host, not trusted from the client', async () => {
    const { api } = connected({ calls: { 'sessions.get': async () => ({}) as never } })
    const err = await api.calls['sessions.get']({ sessionId: 7 as unknown as string }).catch((e: unknown) => e)
    expect(err).toMatchObject({ name: 'HostError', code: 'invalid_request' })
    expect((err as Error).message).toMatch(/input\.sessionId: must be a string, not a number/)
  })

  it('delivers snapshot, replay and live events; a refused subscription reaches onError; unsubscribe stops delivery', async () => {
    const { host, api } = connected()
    host.emit('s1', delta(1))
    const got: SubscriptionMessage[] = []
    const stop = api.subscribe({ sessionId: 's1', afterSeq: 0 }, (m) => got.push(m))
    const refused: HostError[] = []
    api.subscribe({ sessionId: 's1', afterSeq: -5 }, () => {}, (e) => refused.push(e))
    await tick()
    host.emit('s1', delta(2))
    await tick()
    expect(got.map((m) => (m.kind === 'event' ? m.event.seq : m.kind))).toEqual(['snapshot', 1, 2])
    expect(refused[0]).toMatchObject({ code: 'invalid_request' })
    stop()
    await tick()
    expect(host.subscriberCount).toBe(0)
    host.emit('s1', delta(3))
    await tick()
    expect(got).toHaveLength(3)
  })

  it('fails pending and later calls with unavailable when the connection closes, and resolves `closed`', async () => {
    let release!: () => void
    const { api, client } = connected({ calls: { 'workspaces.list': () => new Promise((r) => (release = () => r({ recent: [], defaultRoot: '/' }))) } })
    const pending = api.calls['workspaces.list']({}).catch((e: unknown) => e)
    await tick()
    client.close()
    await api.closed
    expect(await pending).toMatchObject({ code: 'unavailable' })
    expect(await api.calls['workspaces.list']({}).catch((e: unknown) => e)).toMatchObject({ code: 'unavailable' })
    release()
  })
})
