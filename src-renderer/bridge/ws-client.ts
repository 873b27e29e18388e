import type { BridgeError, CallResult, SubscribeInput, SubscriptionMessage } from '../../src-shared'
import type { AppCommand, BridgeClient, ConnectionState } from './types'
import { isHostWireMessage, type ClientWireMessage, type HostWireMessage } from './wire'

/** The slice of the WebSocket API the client uses: the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((ev: unknown) => void) | null
  onmessage: ((ev: { data: unknown }) => void) | null
  onclose: ((ev: { code: number; reason: string }) => void) | null
  onerror: ((ev: unknown) => void) | null
}
export type WebSocketCtor = new (url: string) => WebSocketLike

export interface WsClientOptions {
  url: string
  WebSocket: WebSocketCtor
  /** First reconnect delay; doubles per failed attempt up to `maxDelayMs`. */
  minDelayMs?: number
  maxDelayMs?: number
  /** A call made while disconnected fails with `unavailable` if no connection opens within this time. */
  queueTimeoutMs?: number
  /**
   * Asked when a connection attempt fails before opening: a browser cannot read why a WebSocket handshake was
   * refused, so the page asks the host over HTTP whether its token is still good. `refused` puts the client in
   * the `refused` state (it keeps retrying, in case the host comes back with the old token).
   */
  checkAccess?: () => Promise<'ok' | 'refused' | 'unreachable'>
}

export interface WsBridgeClient extends BridgeClient {
  readonly state: ConnectionState
  /** Stops reconnecting and closes the socket; pending calls fail with `unavailable`. */
  close(): void
}

const OPEN = 1

type PendingCall = { resolve: (r: CallResult<unknown>) => void; sent: boolean; timer?: ReturnType<typeof setTimeout>; msg: ClientWireMessage }
type Subscription = {
  input: SubscribeInput
  /** Last seq delivered; re-subscribing resumes after it. Per-session streams only: `all` has no single sequence. */
  lastSeq: number
  onMessage: (m: SubscriptionMessage) => void
  onError?: (e: BridgeError) => void
}

/**
 * The bridge over the daemon's WebSocket. Reconnects with backoff (100 ms → 5 s) and re-subscribes each live
 * subscription from the last seq it delivered, so a dropped socket costs neither events nor duplicates.
 */
export function createWsBridgeClient(options: WsClientOptions): WsBridgeClient {
  const minDelay = options.minDelayMs ?? 100
  const maxDelay = options.maxDelayMs ?? 5000
  const queueTimeout = options.queueTimeoutMs ?? 15_000
  const calls = new Map<number, PendingCall>()
  const subs = new Map<number, Subscription>()
  const stateListeners = new Set<(s: ConnectionState) => void>()
  let nextId = 1
  let state: ConnectionState = 'connecting'
  let socket: WebSocketLike | undefined
  let attempt = 0
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  const setState = (s: ConnectionState): void => {
    if (s === state) return
    state = s
    for (const cb of [...stateListeners]) guard(() => cb(s))
  }
  const send = (msg: ClientWireMessage): void => socket?.send(JSON.stringify(msg))
  const isOpen = (): boolean => socket !== undefined && socket.readyState === OPEN && state === 'open'

  const sendSubscribe = (id: number, sub: Subscription): void =>
    send({ t: 'subscribe', id, input: { ...sub.input, afterSeq: sub.input.sessionId === 'all' ? 0 : sub.lastSeq } })

  const probe = (): void => {
    if (!options.checkAccess) return
    options.checkAccess().then(
      (r) => {
        if (r === 'refused' && !stopped && state === 'reconnecting') setState('refused')
      },
      (err: unknown) => console.warn('[agentry] checking the access token failed:', err),
    )
  }

  const connect = (): void => {
    const ws = new options.WebSocket(options.url)
    let opened = false
    socket = ws
    ws.onopen = () => {
      opened = true
      attempt = 0
      setState('open')
      for (const [id, sub] of subs) sendSubscribe(id, sub)
      for (const call of calls.values()) {
        if (call.sent) continue
        clearTimeout(call.timer)
        call.sent = true
        send(call.msg)
      }
    }
    ws.onmessage = (ev) => onWireMessage(ev.data)
    // Every error is followed by a close event, which is where reconnecting happens.
    ws.onerror = () => {}
    ws.onclose = (ev) => {
      if (socket !== ws) return
      socket = undefined
      // Calls already sent may or may not have run: the caller decides whether to retry (prompts carry a requestId).
      for (const [id, call] of calls) {
        if (!call.sent) continue
        calls.delete(id)
        call.resolve(unavailable(`The connection to the host closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''}) before the answer arrived. Try again.`))
      }
      if (stopped) return setState('closed')
      // Refused stays refused until a connection opens again; a failed handshake asks why.
      if (state !== 'refused') setState('reconnecting')
      if (!opened && state === 'reconnecting') probe()
      const delay = Math.min(maxDelay, minDelay * 2 ** attempt)
      attempt++
      reconnectTimer = setTimeout(connect, delay)
    }
  }

  const onWireMessage = (data: unknown): void => {
    let msg: unknown
    try {
      msg = JSON.parse(String(data))
    } catch {
      console.error('[agentry] the host sent a bridge message that is not JSON; ignored')
      return
    }
    // The host batches messages of one tick into an array (one frame instead of hundreds).
    for (const m of Array.isArray(msg) ? msg : [msg]) {
      if (isHostWireMessage(m)) handle(m)
      else console.error('[agentry] the host sent an unknown bridge message; ignored')
    }
  }

  const handle = (msg: HostWireMessage): void => {
    if (msg.t === 'result') {
      const call = calls.get(msg.id)
      if (call) {
        calls.delete(msg.id)
        call.resolve(msg.result)
        return
      }
      // A result for a subscription id means the host refused the subscription.
      const sub = subs.get(msg.id)
      if (sub && !msg.result.ok) {
        const error = msg.result.error
        subs.delete(msg.id)
        if (sub.onError) guard(() => sub.onError?.(error))
        else console.error(`[agentry] subscription refused: ${error.message}`)
      }
      return
    }
    const sub = subs.get(msg.id)
    if (!sub) return // arrived after unsubscribe; expected and harmless
    const m = msg.msg
    if (m.kind === 'event' && sub.input.sessionId !== 'all') {
      // Guard against double delivery across a reconnect race: the cursor only moves forward.
      if (m.event.seq <= sub.lastSeq) return
      sub.lastSeq = m.event.seq
    }
    if (m.kind === 'resync') subs.delete(msg.id) // the host ends the stream; the subscriber reloads and re-subscribes
    guard(() => sub.onMessage(m))
  }

  connect()

  return {
    transport: 'websocket',
    get state() {
      return state
    },
    call(name, input) {
      if (stopped) return Promise.resolve(unavailable('The bridge client was closed.'))
      const id = nextId++
      const msg: ClientWireMessage = { t: 'call', id, name, input }
      return new Promise((resolve) => {
        const call: PendingCall = { resolve: resolve as PendingCall['resolve'], sent: false, msg }
        calls.set(id, call)
        if (isOpen()) {
          call.sent = true
          send(msg)
          return
        }
        call.timer = setTimeout(() => {
          calls.delete(id)
          resolve(unavailable(`Not connected to the host for ${Math.round(queueTimeout / 1000)} s; "${name}" was not sent. Check that "agentry serve" is running, then try again.`))
        }, queueTimeout)
      })
    },
    subscribe(input, onMessage, onError) {
      const id = nextId++
      const sub: Subscription = { input, lastSeq: input.afterSeq ?? 0, onMessage, onError }
      subs.set(id, sub)
      if (isOpen()) sendSubscribe(id, sub)
      return () => {
        if (!subs.delete(id)) return
        if (isOpen()) send({ t: 'unsubscribe', id })
      }
    },
    onConnectionChange(cb) {
      stateListeners.add(cb)
      return () => stateListeners.delete(cb)
    },
    onAppCommand(_cb: (command: AppCommand) => void) {
      return () => {} // the browser has no native shell sending commands
    },
    close() {
      if (stopped) return
      stopped = true
      clearTimeout(reconnectTimer)
      for (const [id, call] of calls) {
        calls.delete(id)
        clearTimeout(call.timer)
        call.resolve(unavailable('The bridge client was closed.'))
      }
      subs.clear()
      if (socket) socket.close(1000, 'client closed')
      else setState('closed')
    },
  }
}

function unavailable(message: string): CallResult<never> {
  return { ok: false, error: { code: 'unavailable', message } }
}

/** One failing listener must not stop the others or break the socket handler; it is reported. */
function guard(fn: () => void): void {
  try {
    fn()
  } catch (err) {
    console.error('[agentry] a bridge listener threw:', err)
  }
}
