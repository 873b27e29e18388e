import type { BridgeConnection, ClientMessage, HostMessage } from './bridge-protocol'

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
  const closeListeners = new Set<() => void>()
  const clientListeners = new Set<(m: unknown) => void>()
  const hostListeners = new Set<(m: unknown) => void>()

  const close = (): void => {
    if (!open) return
    open = false
    queueMicrotask(() => {
      for (const cb of [...closeListeners]) cb()
      closeListeners.clear()
    })
  }
  const sender =
    (to: Set<(m: unknown) => void>) =>
    (msg: unknown): void => {
      if (!open) return // like a closed socket: dropped, not an error
      const wire = JSON.stringify(msg)
      queueMicrotask(() => {
        if (!open) return
        const copy: unknown = JSON.parse(wire)
        for (const cb of [...to]) cb(copy)
      })
    }
  const end = <Out>(inbox: Set<(m: unknown) => void>, outbox: Set<(m: unknown) => void>): MemoryConnection<Out> => ({
    send: sender(outbox),
    onMessage(cb) {
      inbox.add(cb)
      return () => inbox.delete(cb)
    },
    onClose(cb) {
      closeListeners.add(cb)
      return () => closeListeners.delete(cb)
    },
    close,
  })
  return [end<ClientMessage>(clientListeners, hostListeners), end<HostMessage>(hostListeners, clientListeners)]
}
