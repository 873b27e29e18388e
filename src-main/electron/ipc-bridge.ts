import { BridgeCalls, type BridgeCallName, type CallResult, type SubscriptionMessage, type HostApi } from '../../src-shared'
import { dispatchCall, SubscriptionSet, type DispatchOptions } from '../bridge'
import { EVENT_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL, callChannel } from '../../src-preload/channels'
import type { FrameLike } from './app-origin'

/** The slices of Electron's `ipcMain` and `webContents` this file needs (typed here so it can be tested in Node). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void
  removeHandler(channel: string): void
}
export interface IpcEventLike {
  readonly senderFrame: FrameLike | null
  readonly sender: WebContentsLike
}
export interface WebContentsLike {
  readonly id: number
  isDestroyed(): boolean
  send(channel: string, ...args: unknown[]): void
  on(event: 'destroyed' | 'render-process-gone' | 'did-start-navigation', listener: (...args: unknown[]) => void): unknown
}

const refused: CallResult<never> = {
  ok: false,
  error: { code: 'invalid_request', message: 'Refused: this request did not come from the Agentry window.' },
}

/**
 * One `ipcMain.handle` per bridge call plus subscribe/unsubscribe, each checking the sender frame. Subscriptions
 * belong to one webContents and end when it is destroyed, crashes or navigates (reload): the runs go on, the page
 * catches up with `afterSeq`. Returns a disposer that removes the handlers and detaches every subscription.
 */
export function registerIpcBridge(
  ipcMain: IpcMainLike,
  api: HostApi,
  isTrusted: (frame: FrameLike | null) => boolean,
  options: DispatchOptions = {},
): () => void {
  const perContents = new Map<number, SubscriptionSet<string>>()
  const channels: string[] = []
  const handle = (channel: string, fn: (event: IpcEventLike, ...args: unknown[]) => unknown): void => {
    channels.push(channel)
    ipcMain.handle(channel, (event, ...args) => {
      if (!isTrusted(event.senderFrame)) {
        console.error(`[agentry] refused IPC on ${channel} from ${event.senderFrame?.url ?? 'a frame that is gone'}`)
        return refused
      }
      return fn(event, ...args)
    })
  }

  for (const name of Object.keys(BridgeCalls) as BridgeCallName[]) {
    handle(callChannel(name), (_event, input) => dispatchCall(api, name, input, options))
  }

  handle(SUBSCRIBE_CHANNEL, (event, id, input): CallResult<null> => {
    if (typeof id !== 'string' || id.length === 0 || id.length > 100) {
      return { ok: false, error: { code: 'invalid_request', message: 'subscribe: the subscription id must be a string of 1–100 characters.' } }
    }
    const wc = event.sender
    return subscriptionsOf(wc).add(id, input, (msg) => deliver(wc, id, msg))
  })

  handle(UNSUBSCRIBE_CHANNEL, (event, id): CallResult<null> => {
    if (typeof id === 'string') perContents.get(event.sender.id)?.remove(id)
    return { ok: true, data: null }
  })

  function subscriptionsOf(wc: WebContentsLike): SubscriptionSet<string> {
    let set = perContents.get(wc.id)
    if (set) return set
    set = new SubscriptionSet<string>(api)
    perContents.set(wc.id, set)
    const detach = (): void => {
      const s = perContents.get(wc.id)
      perContents.delete(wc.id)
      s?.disposeAll()
    }
    wc.on('destroyed', detach)
    wc.on('render-process-gone', detach)
    wc.on('did-start-navigation', (details: unknown) => {
      // A reload or navigation of the main frame replaces the page, and with it every subscription it made.
      const d = details as { isMainFrame?: boolean; isSameDocument?: boolean }
      if (d.isMainFrame && !d.isSameDocument) detach()
    })
    return set
  }

  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel)
    for (const set of perContents.values()) set.disposeAll()
    perContents.clear()
  }
}

/** Sending to a window that is closing is normal; it must never reach the runtime as an error. */
function deliver(wc: WebContentsLike, id: string, msg: SubscriptionMessage): void {
  if (wc.isDestroyed()) return
  try {
    wc.send(EVENT_CHANNEL, id, msg)
  } catch (err) {
    console.error(`[agentry] could not deliver an event to the window: ${err instanceof Error ? err.message : String(err)}`)
  }
}
