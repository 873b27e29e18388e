import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import type { AgentEvent, BridgeError, SubscriptionMessage } from '../../src-shared'
import { createMemoryHostApi, type MemoryHostApi } from '../bridge/testing'
import { createPreloadApi, type IpcRendererLike } from '../../src-preload/api'
import { createBridgeClient } from '../../src-shared/bridge-client'
import { createIpcTransport } from '../../src-renderer/bridge/ipc-transport'
import type { FrameLike } from './app-origin'
import { isTrustedSender } from './app-origin'
import { registerIpcBridge, type IpcEventLike, type IpcMainLike } from './ipc-bridge'

/**
 * The whole desktop bridge minus Electron: the shared client over the renderer's IPC transport → the real preload
 * object → a stand-in for Electron's IPC (structured-clone copies, like the real one) → main's handlers → a host.
 */
function chain(api: MemoryHostApi, frameUrl = 'app://agentry/index.html') {
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>()
  const ipcMain: IpcMainLike = {
    handle: (channel, fn) => void handlers.set(channel, fn),
    removeHandler: (channel) => void handlers.delete(channel),
  }
  const toRenderer = new EventEmitter()
  const webContents = Object.assign(new EventEmitter(), {
    id: 1,
    isDestroyed: () => false,
    send: (channel: string, ...args: unknown[]) => {
      const copy = structuredClone(args)
      queueMicrotask(() => toRenderer.emit(channel, { sender: 'ipcRenderer' }, ...copy))
    },
  })
  const frame: FrameLike = { url: frameUrl, parent: null }
  const ipcRenderer: IpcRendererLike = {
    invoke: async (channel, ...args) => {
      const fn = handlers.get(channel)
      if (!fn) throw new Error(`Error invoking remote method '${channel}': No handler registered`)
      return structuredClone(await fn({ senderFrame: frame, sender: webContents }, ...structuredClone(args)))
    },
    on: (channel, listener) => toRenderer.on(channel, listener),
    removeListener: (channel, listener) => toRenderer.removeListener(channel, listener),
  }
  registerIpcBridge(ipcMain, api, (f) => isTrustedSender(f), { validateOutput: true })
  return { client: createBridgeClient(createIpcTransport(createPreloadApi(ipcRenderer))), webContents }
}
const tick = () => new Promise((r) => setTimeout(r, 5))
const status = (seq: number): AgentEvent => ({ type: 'status_change', sessionId: 's1', at: seq, status: 'busy' })

describe('desktop bridge chain (renderer client → preload → IPC → main → host)', () => {
  it('calls reach the host with validation, and answers come back typed', async () => {
    const api = createMemoryHostApi({ calls: { 'workspaces.list': async () => ({ recent: [], defaultRoot: '/home/me' }) } })
    const { client } = chain(api)
    expect(client.state).toBe('open')
    expect(await client.call('workspaces.list', {})).toEqual({ ok: true, data: { recent: [], defaultRoot: '/home/me' } })
    const bad = await client.call('sessions.rename', { sessionId: 's', title: '' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('input.title') } })
    expect(await client.call('tasks.abort', { taskId: 't' })).toMatchObject({ ok: false, error: { code: 'unavailable' } })
  })

  it('subscriptions deliver snapshot, replay and live events; resync ends them; refusals reach onError', async () => {
    const api = createMemoryHostApi({ keep: 5 })
    for (let i = 1; i <= 3; i++) api.emit('s1', status(i))
    const { client } = chain(api)
    const got: SubscriptionMessage[] = []
    const dispose = client.subscribe({ sessionId: 's1', afterSeq: 1 }, (m) => got.push(m))
    await tick()
    api.emit('s1', status(4))
    await tick()
    expect(got.map((m) => (m.kind === 'event' ? m.event.seq : m.kind))).toEqual(['snapshot', 2, 3, 4])
    dispose()
    await tick()
    expect(api.subscriberCount).toBe(0)

    for (let i = 5; i <= 20; i++) api.emit('s1', status(i))
    const old: SubscriptionMessage[] = []
    client.subscribe({ sessionId: 's1', afterSeq: 2 }, (m) => old.push(m))
    await tick()
    expect(old.map((m) => m.kind)).toEqual(['snapshot', 'resync'])

    const errors: BridgeError[] = []
    client.subscribe({ sessionId: '', afterSeq: 0 }, () => {}, (e) => errors.push(e))
    await tick()
    expect(errors).toMatchObject([{ code: 'invalid_request' }])
  })

  it('a page from anywhere else gets nothing, and a reload detaches the old page', async () => {
    const api = createMemoryHostApi({ calls: { 'workspaces.list': async () => ({ recent: [], defaultRoot: '/' }) } })
    const evil = chain(api, 'https://evil.example/')
    expect(await evil.client.call('workspaces.list', {})).toMatchObject({ ok: false, error: { message: expect.stringContaining('did not come from the Agentry window') } })

    const host = createMemoryHostApi()
    const second = chain(host)
    second.client.subscribe({ sessionId: 's1', afterSeq: 0 }, () => {})
    await tick()
    expect(host.subscriberCount).toBe(1)
    second.webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false })
    expect(host.subscriberCount).toBe(0)
  })
})
