import type { BridgeCallName, CallResult, HostApi, HostCalls, SubscribeInput, SubscriptionMessage } from '../../src-shared'
// The contract's error class alone: this module is on the CLI's start-up path, which must not build the schemas.
import { HostError } from '../../src-shared/host-api'
import type { BridgeConnection, ClientMessage } from './protocol'

/** A host reached over a connection: the same `HostApi` as the host's own, plus the connection's life. */
export interface RemoteHost extends HostApi {
  /** `onError` hears a refused subscription (bad input); the host's own API throws instead. */
  subscribe(input: SubscribeInput, onMessage: (m: SubscriptionMessage) => void, onError?: (e: HostError) => void): () => void
  /** Resolves when the connection is gone (closed by either side); pending calls have failed with `unavailable`. */
  readonly closed: Promise<void>
  close(): void
}

type Pending = { resolve(data: unknown): void; reject(e: HostError): void }
type Subscription = { onMessage(m: SubscriptionMessage): void; onError?(e: HostError): void }

/**
 * The client half of the wire protocol over any connection (a local socket, an in-memory pair): calls resolve to
 * their data or throw `HostError` exactly as the host's own methods do, so code written against `HostApi` runs
 * unchanged in process or attached to another process's host.
 */
export function createBridgeClient(conn: BridgeConnection<ClientMessage> & { close(): void }): RemoteHost {
  const pending = new Map<number, Pending>()
  const subs = new Map<number, Subscription>()
  let nextId = 1
  let open = true
  let markClosed!: () => void
  const closed = new Promise<void>((resolve) => (markClosed = resolve))

  conn.onMessage((raw) => {
    const m = raw as { t?: unknown; id?: unknown; result?: CallResult<unknown>; msg?: SubscriptionMessage }
    if (typeof m !== 'object' || m === null || typeof m.id !== 'number') return
    if (m.t === 'sub' && m.msg) {
      const sub = subs.get(m.id)
      if (!sub) return // arrived after unsubscribe
      if (m.msg.kind === 'resync') subs.delete(m.id)
      sub.onMessage(m.msg)
      return
    }
    if (m.t !== 'result' || !m.result) return
    const call = pending.get(m.id)
    if (call) {
      pending.delete(m.id)
      if (m.result.ok) call.resolve(m.result.data)
      else call.reject(new HostError(m.result.error.code, m.result.error.message, m.result.error.data))
      return
    }
    // A result for a subscription id: the host refused it.
    const sub = subs.get(m.id)
    if (sub && !m.result.ok) {
      subs.delete(m.id)
      const error = new HostError(m.result.error.code, m.result.error.message)
      if (sub.onError) sub.onError(error)
      else console.error(`[agentry] subscription refused: ${error.message}`)
    }
  })
  conn.onClose(() => {
    open = false
    const gone = new HostError('unavailable', 'The connection to the Agentry host closed (the host stopped or restarted).')
    for (const call of pending.values()) call.reject(gone)
    pending.clear()
    subs.clear()
    markClosed()
  })

  const call = (name: BridgeCallName, input: unknown): Promise<unknown> => {
    if (!open) return Promise.reject(new HostError('unavailable', `"${name}": the connection to the Agentry host is closed.`))
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      conn.send({ t: 'call', id, name, input })
    })
  }
  // Any name goes to the host, which checks it against the contract (the client need not load the schemas).
  const calls = new Proxy({} as HostCalls, {
    get: (_target, name) => (typeof name === 'string' ? (input: unknown) => call(name as BridgeCallName, input) : undefined),
  })

  return {
    calls,
    closed,
    subscribe(input, onMessage, onError) {
      const id = nextId++
      subs.set(id, { onMessage, onError })
      conn.send({ t: 'subscribe', id, input })
      return () => {
        if (!subs.delete(id) || !open) return
        conn.send({ t: 'unsubscribe', id })
      }
    },
    close: () => conn.close(),
  }
}
