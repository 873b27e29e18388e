// Types only from the contract, and its error class alone: the CLI loads this module on its start-up path, which must
// not build the schemas (nor load zod).
import type { BridgeCallName, BridgeError, CallInput, CallOutput, CallResult, SubscribeInput, SubscriptionMessage } from './bridge'
import type { ClientTransport, ConnectionState, HostMessage } from './bridge-protocol'
import { createEmitter } from './emitter'
import { HostError, type HostApi, type HostCalls } from './host-api'

/** A host reached over a transport: the host's own `HostApi`, the same calls as results, and the connection's life. */
export interface BridgeClient extends HostApi {
  /** A call's result as data. Never rejects: a transport failure is `{ ok: false, error: { code: 'unavailable' } }`. */
  call<N extends BridgeCallName>(name: N, input: CallInput<N>): Promise<CallResult<CallOutput<N>>>
  /**
   * Snapshot, then replayed and live events; or a `resync`, which ends the subscription (reload the session and
   * subscribe again from its `lastSeq`). `onError` hears a refused subscription (bad input, unknown session); the
   * host's own API throws instead. Returns a disposer.
   */
  subscribe(input: SubscribeInput, onMessage: (m: SubscriptionMessage) => void, onError?: (e: HostError) => void): () => void
  readonly state: ConnectionState
  /** Hears every change of `state` after it is registered. Returns a disposer. */
  onConnectionChange(cb: (s: ConnectionState) => void): () => void
  /** Resolves when the transport is gone (closed by either side); pending calls have failed with `unavailable`. */
  readonly closed: Promise<void>
  close(): void
}

type Subscription = { onMessage(m: SubscriptionMessage): void; onError?(e: HostError): void }

/**
 * The client half of the bridge over any transport (WebSocket, Electron IPC, local socket, in-memory pair): pairs
 * each result with its call, delivers each subscription's messages, and rebuilds the host's errors as `HostError`.
 * `calls` resolve to their data or throw exactly as the host's own methods do, so code written against `HostApi`
 * runs unchanged in process or attached to another process's host.
 */
export function createBridgeClient(transport: ClientTransport): BridgeClient {
  const pending = new Map<number, (result: CallResult<unknown>) => void>()
  const subs = new Map<number, Subscription>()
  const stateChanges = createEmitter<ConnectionState>()
  let nextId = 1
  let open = true
  let state: ConnectionState = transport.state ?? 'open'
  let markClosed!: () => void
  const closed = new Promise<void>((resolve) => (markClosed = resolve))

  const setState = (s: ConnectionState): void => {
    if (s === state) return
    state = s
    stateChanges.fire(s)
  }
  const shutDown = (reason: string): void => {
    open = false
    for (const resolve of pending.values()) resolve(unavailable(reason))
    pending.clear()
    subs.clear()
  }

  transport.onMessage((raw) => {
    const msg = envelope(raw)
    if (!msg) return console.error('[agentry] the host sent an unknown bridge message; ignored')
    if (typeof msg.id !== 'number') return // not an id this client gave out
    if (msg.t === 'sub') return deliver(msg.id, msg.msg)
    const resolve = pending.get(msg.id)
    if (resolve) {
      pending.delete(msg.id)
      return resolve(msg.result)
    }
    // A result for a subscription id: the host refused it.
    const sub = subs.get(msg.id)
    if (!sub || msg.result.ok) return
    subs.delete(msg.id)
    const error = hostError(msg.result.error)
    if (sub.onError) guard(() => sub.onError?.(error))
    else console.error(`[agentry] subscription refused: ${error.message}`)
  })
  transport.onStateChange?.(setState)
  transport.onClose(() => {
    shutDown('The connection to the Agentry host closed (the host stopped or restarted).')
    setState('closed')
    markClosed()
  })

  const deliver = (id: number, m: SubscriptionMessage): void => {
    const sub = subs.get(id)
    if (!sub) return // arrived after unsubscribe; expected and harmless
    if (m.kind === 'resync') subs.delete(id) // the host ends the stream
    guard(() => sub.onMessage(m))
  }

  const call = (name: BridgeCallName, input: unknown): Promise<CallResult<unknown>> => {
    if (!open) return Promise.resolve(unavailable(`"${name}": the connection to the Agentry host is closed.`))
    const id = nextId++
    return new Promise((resolve) => {
      pending.set(id, resolve)
      transport.send({ t: 'call', id, name, input })
    })
  }
  // Any name goes to the host, which checks it against the contract (the client need not load the schemas).
  const calls = new Proxy({} as HostCalls, {
    get: (_target, name) => (typeof name === 'string' ? (input: unknown) => call(name as BridgeCallName, input).then(dataOf) : undefined),
  })

  return {
    call: call as BridgeClient['call'],
    calls,
    subscribe(input, onMessage, onError) {
      if (!open) return () => {}
      const id = nextId++
      subs.set(id, { onMessage, onError })
      transport.send({ t: 'subscribe', id, input })
      return () => {
        if (subs.delete(id) && open) transport.send({ t: 'unsubscribe', id })
      }
    },
    get state() {
      return state
    },
    onConnectionChange: (cb) => stateChanges.on((s) => guard(() => cb(s))),
    closed,
    close() {
      if (!open) return
      shutDown('The bridge client was closed.')
      transport.close()
    },
  }
}

function dataOf(result: CallResult<unknown>): unknown {
  if (result.ok) return result.data
  throw hostError(result.error)
}

function hostError(e: BridgeError): HostError {
  return new HostError(e.code, e.message, e.data)
}

function unavailable(message: string): CallResult<never> {
  return { ok: false, error: { code: 'unavailable', message } }
}

/** The envelope of a host message; its payload is the host's, checked against the contract there. */
function envelope(raw: unknown): HostMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const m = raw as { t?: unknown; id?: unknown; result?: unknown; msg?: unknown }
  if (typeof m.id !== 'number' && typeof m.id !== 'string') return undefined
  const payload = m.t === 'result' ? m.result : m.t === 'sub' ? m.msg : undefined
  return typeof payload === 'object' && payload !== null ? (raw as HostMessage) : undefined
}

/** One failing listener must not stop the others or break the transport's handler; it is reported. */
function guard(fn: () => void): void {
  try {
    fn()
  } catch (err) {
    console.error('[agentry] a bridge listener threw:', err)
  }
}
