import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import type { CallResult } from '../../src-shared'
import { createMemoryHostApi } from '../bridge/testing'
import { EVENT_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL } from '../../src-preload/channels'
import { isTrustedSender, type FrameLike } from './app-origin'
import { registerIpcBridge, type IpcEventLike, type IpcMainLike } from './ipc-bridge'

/** Stand-ins for Electron's ipcMain and webContents (Electron is not available under vitest). */
class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>()
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`)
    this.handlers.set(channel, listener)
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel)
  }
  invoke(event: IpcEventLike, channel: string, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel)
    if (!h) return Promise.reject(new Error(`No handler registered for '${channel}'`))
    return Promise.resolve(h(event, ...args))
  }
}
class FakeWebContents extends EventEmitter {
  destroyed = false
  readonly sent: unknown[][] = []
  constructor(readonly id: number) {
    super()
  }
  isDestroyed() {
    return this.destroyed
  }
  send(channel: string, ...args: unknown[]) {
    if (this.destroyed) throw new Error('Object has been destroyed')
    this.sent.push([channel, ...args])
  }
}
const appFrame: FrameLike = { url: 'app://agentry/index.html', parent: null }

function setup() {
  const api = createMemoryHostApi({ calls: { 'workspaces.list': async () => ({ recent: [], defaultRoot: '/r' }) } })
  const ipc = new FakeIpcMain()
  const dispose = registerIpcBridge(ipc, api, (f) => isTrustedSender(f), { validateOutput: true })
  const wc = new FakeWebContents(1)
  const ev = (frame: FrameLike | null = appFrame): IpcEventLike => ({ senderFrame: frame, sender: wc })
  return { api, ipc, dispose, wc, ev }
}

describe('Electron IPC bridge', () => {
  it('registers one handler per bridge call and validates input like every transport', async () => {
    const { ipc, ev } = setup()
    expect(ipc.handlers.has('agentry:sessions.list')).toBe(true)
    expect(ipc.handlers.has('agentry:rules.revoke')).toBe(true)
    expect(await ipc.invoke(ev(), 'agentry:workspaces.list', {})).toEqual({ ok: true, data: { recent: [], defaultRoot: '/r' } })
    expect(await ipc.invoke(ev(), 'agentry:sessions.get', { sessionId: 3 })).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
    await expect(ipc.invoke(ev(), 'agentry:anything', {})).rejects.toThrow(/No handler/)
  })

  it('refuses calls from a foreign page or a subframe without running them', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { ipc, ev, api } = setup()
    for (const frame of [{ url: 'https://evil.example/', parent: null }, { url: 'app://agentry/index.html', parent: {} }, null]) {
      const r = (await ipc.invoke(ev(frame), 'agentry:workspaces.list', {})) as CallResult<unknown>
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('did not come from the Agentry window') } })
      expect(await ipc.invoke(ev(frame), SUBSCRIBE_CHANNEL, 's1', { sessionId: 'x' })).toMatchObject({ ok: false })
    }
    expect(api.subscriberCount).toBe(0)
    vi.restoreAllMocks()
  })

  it('delivers subscription messages to the window and detaches on unsubscribe', async () => {
    const { ipc, ev, api, wc } = setup()
    expect(await ipc.invoke(ev(), SUBSCRIBE_CHANNEL, 's1', { sessionId: 'ses_a' })).toEqual({ ok: true, data: null })
    api.emit('ses_a', { type: 'status_change', sessionId: 'ses_a', at: 1, status: 'busy' })
    expect(wc.sent.map(([ch, id, m]) => [ch, id, (m as { kind: string }).kind])).toEqual([
      [EVENT_CHANNEL, 's1', 'snapshot'],
      [EVENT_CHANNEL, 's1', 'event'],
    ])
    expect(await ipc.invoke(ev(), SUBSCRIBE_CHANNEL, '', { sessionId: 'ses_a' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
    await ipc.invoke(ev(), UNSUBSCRIBE_CHANNEL, 's1')
    expect(api.subscriberCount).toBe(0)
  })

  it('a reload, crash or closed window detaches its subscriptions and sends nothing to a destroyed window', async () => {
    const { ipc, ev, api, wc } = setup()
    await ipc.invoke(ev(), SUBSCRIBE_CHANNEL, 'a', { sessionId: 'ses_a' })
    await ipc.invoke(ev(), SUBSCRIBE_CHANNEL, 'b', { sessionId: 'all' })
    wc.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false })
    expect(api.subscriberCount).toBe(0)

    await ipc.invoke(ev(), SUBSCRIBE_CHANNEL, 'a', { sessionId: 'ses_a' })
    wc.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false }) // an iframe: not a reload
    wc.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true }) // a hash change: not a reload
    expect(api.subscriberCount).toBe(1)
    wc.emit('render-process-gone', {}, { reason: 'crashed' })
    expect(api.subscriberCount).toBe(0)

    await ipc.invoke(ev(), SUBSCRIBE_CHANNEL, 'a', { sessionId: 'ses_a' })
    wc.destroyed = true // closing, before 'destroyed' fires
    expect(() => api.emit('ses_a', { type: 'status_change', sessionId: 'ses_a', at: 1, status: 'idle' })).not.toThrow()
    wc.emit('destroyed')
    expect(api.subscriberCount).toBe(0)
  })

  it('the disposer removes every handler and subscription', async () => {
    const { ipc, ev, api, dispose } = setup()
    await ipc.invoke(ev(), SUBSCRIBE_CHANNEL, 'a', { sessionId: 'ses_a' })
    dispose()
    expect(ipc.handlers.size).toBe(0)
    expect(api.subscriberCount).toBe(0)
  })
})
