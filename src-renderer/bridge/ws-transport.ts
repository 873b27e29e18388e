import type { CallResult, SubscribeInput, SubscriptionMessage } from '../../src-shared'
import type { ClientMessage, ClientTransport, ConnectionState, HostMessage, WireId } from '../../src-shared/bridge-protocol'
import { createEmitter } from '../../src-shared/emitter'

/** The slice of the WebSocket API the transport uses: the browser's and the `ws` package's both fit. */
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

export interface WsTransportOptions {
  url: string
  WebSocket: WebSocketCtor
  /** First reconnect delay; doubles per failed attempt up to `maxDelayMs`. */
  minDelayMs?: number
  maxDelayMs?: number
  /** A call made while disconnected fails with `unavailable` if no connection opens within this time. */
  queueTimeoutMs?: number
  /**
   * Asked when a connection attempt fails before opening: a browser cannot read why a WebSocket handshake was
   * refused, so the page asks the host over HTTP whether its token is still good. `refused` puts the transport in
   * the `refused` state (it keeps retrying, in case the host comes back with the old token).
   */
  checkAccess?: () => Promise<'ok' | 'refused' | 'unreachable'>
}

const OPEN = 1

type Stream = {
  input: SubscribeInput
  /** Last seq delivered; re-subscribing resumes after it. Per-session streams only: `all` has no single sequence. */
  lastSeq: number
}

/**
 * The bridge over the daemon's WebSocket, as one connection that outlives dropped sockets: it reconnects with
 * backoff (100 ms → 5 s) and re-subscribes each live subscription from the last seq it delivered, so a drop costs
 * neither events nor duplicates. Calls made while away are sent once a socket opens (or fail after the queue
 * timeout); calls a drop cut off fail with `unavailable`, since they may or may not have run.
 */
export function createWsTransport(options: WsTransportOptions): ClientTransport {
  const minDelay = options.minDelayMs ?? 100
  const maxDelay = options.maxDelayMs ?? 5000
  const queueTimeout = options.queueTimeoutMs ?? 15_000
  const messages = createEmitter<unknown>()
  const stateChanges = createEmitter<ConnectionState>()
  const closing = createEmitter()
  /** calls written to the current socket and not answered yet */
  const inFlight = new Set<WireId>()
  /** calls made while disconnected, sent when a socket opens */
  const queued = new Map<WireId, { msg: ClientMessage; timer: ReturnType<typeof setTimeout> }>()
  const streams = new Map<WireId, Stream>()
  let state: ConnectionState = 'connecting'
  let socket: WebSocketLike | undefined
  let attempt = 0
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  const setState = (s: ConnectionState): void => {
    if (s === state) return
    state = s
    stateChanges.fire(s)
  }
  const fail = (id: WireId, message: string): void => messages.fire({ t: 'result', id, result: unavailable(message) } satisfies HostMessage)
  const write = (msg: ClientMessage): void => socket?.send(JSON.stringify(msg))
  const isOpen = (): boolean => socket !== undefined && socket.readyState === OPEN && state === 'open'
  const writeCall = (msg: ClientMessage): void => {
    inFlight.add(msg.id)
    write(msg)
  }
  const writeSubscribe = (id: WireId, s: Stream): void =>
    write({ t: 'subscribe', id, input: { ...s.input, afterSeq: s.input.sessionId === 'all' ? 0 : s.lastSeq } })

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
      for (const [id, s] of streams) writeSubscribe(id, s)
      for (const [id, q] of queued) {
        clearTimeout(q.timer)
        queued.delete(id)
        writeCall(q.msg)
      }
    }
    ws.onmessage = (ev) => receive(ev.data)
    // Every error is followed by a close event, which is where reconnecting happens.
    ws.onerror = () => {}
    ws.onclose = (ev) => {
      if (socket !== ws) return
      socket = undefined
      // Calls already sent may or may not have run: the caller decides whether to retry (prompts carry a requestId).
      const why = `${ev.code}${ev.reason ? `: ${ev.reason}` : ''}`
      for (const id of inFlight) fail(id, `The connection to the host closed (${why}) before the answer arrived. Try again.`)
      inFlight.clear()
      if (stopped) return end()
      // Refused stays refused until a connection opens again; a failed handshake asks why.
      if (state !== 'refused') setState('reconnecting')
      if (!opened && state === 'reconnecting') probe()
      const delay = Math.min(maxDelay, minDelay * 2 ** attempt)
      attempt++
      reconnectTimer = setTimeout(connect, delay)
    }
  }
  const end = (): void => {
    setState('closed')
    closing.fire()
  }

  const receive = (data: unknown): void => {
    let frame: unknown
    try {
      frame = JSON.parse(String(data))
    } catch {
      console.error('[agentry] the host sent a bridge message that is not JSON; ignored')
      return
    }
    // The host batches messages of one tick into an array (one frame instead of hundreds).
    for (const msg of Array.isArray(frame) ? frame : [frame]) if (follow(msg)) messages.fire(msg)
  }

  /** Keeps the books a reconnect needs; false for an event already delivered (a reconnect race), which is dropped. */
  const follow = (raw: unknown): boolean => {
    const m = (typeof raw === 'object' && raw !== null ? raw : {}) as { t?: unknown; id?: WireId; result?: CallResult<unknown>; msg?: SubscriptionMessage }
    if (m.id === undefined) return true
    if (m.t === 'result') {
      inFlight.delete(m.id)
      if (m.result?.ok === false) streams.delete(m.id) // a refused subscription
      return true
    }
    const s = streams.get(m.id)
    if (m.t !== 'sub' || !s || !m.msg) return true
    if (m.msg.kind === 'resync') streams.delete(m.id) // the host ends the stream; the subscriber reloads and re-subscribes
    if (m.msg.kind === 'event' && s.input.sessionId !== 'all') {
      // The cursor only moves forward.
      if (m.msg.event.seq <= s.lastSeq) return false
      s.lastSeq = m.msg.event.seq
    }
    return true
  }

  connect()

  return {
    send(msg) {
      if (stopped) return
      switch (msg.t) {
        case 'call': {
          if (isOpen()) return writeCall(msg)
          const timer = setTimeout(() => {
            queued.delete(msg.id)
            fail(msg.id, `Not connected to the host for ${Math.round(queueTimeout / 1000)} s; "${msg.name}" was not sent. Check that "agentry serve" is running, then try again.`)
          }, queueTimeout)
          queued.set(msg.id, { msg, timer })
          return
        }
        case 'subscribe': {
          const input = msg.input as SubscribeInput
          const s: Stream = { input, lastSeq: input.afterSeq ?? 0 }
          streams.set(msg.id, s)
          if (isOpen()) writeSubscribe(msg.id, s)
          return
        }
        case 'unsubscribe':
          if (streams.delete(msg.id) && isOpen()) write(msg)
          return
      }
    },
    onMessage: messages.on,
    onClose: closing.on,
    get state() {
      return state
    },
    onStateChange: stateChanges.on,
    close() {
      if (stopped) return
      stopped = true
      clearTimeout(reconnectTimer)
      for (const q of queued.values()) clearTimeout(q.timer)
      queued.clear()
      streams.clear()
      if (socket) socket.close(1000, 'client closed')
      else end()
    },
  }
}

function unavailable(message: string): CallResult<never> {
  return { ok: false, error: { code: 'unavailable', message } }
}
