import type { BridgeConnection, ClientMessage, HostMessage } from './bridge-protocol'
import { createEmitter, type Emitter } from './emitter'

export interface MemoryConnection<Out> extends BridgeConnection<Out> {
  /** Closes both ends, like a dropped socket. */
  close(): void
}

/**
 * Two connected in-memory ends (a client's transport, the host's end), for tests and in-process use. Messages go
 * through JSON and are delivered asynchronously in order, like a real socket, so anything that would not survive the
 * wire fails here too.
 */
export function createConnectionPair(): [client: MemoryConnection<ClientMessage>, host: MemoryConnection<HostMessage>] {
  let open = true
  const closed = createEmitter()
  const toClient = createEmitter<unknown>()
  const toHost = createEmitter<unknown>()

  const close = (): void => {
    if (!open) return
    open = false
    queueMicrotask(() => closed.fire())
  }
  const sender =
    (to: Emitter<unknown>) =>
    (msg: unknown): void => {
      if (!open) return // like a closed socket: dropped, not an error
      const wire = JSON.stringify(msg)
      queueMicrotask(() => {
        if (open) to.fire(JSON.parse(wire))
      })
    }
  const end = <Out>(inbox: Emitter<unknown>, outbox: Emitter<unknown>): MemoryConnection<Out> => ({
    send: sender(outbox),
    onMessage: inbox.on,
    onClose: closed.on,
    close,
  })
  return [end<ClientMessage>(toClient, toHost), end<HostMessage>(toHost, toClient)]
}
