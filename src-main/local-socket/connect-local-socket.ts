import net from 'node:net'
import type { ClientMessage, ClientTransport } from '../../src-shared/bridge-protocol'
import { socketConnection } from './socket-connection'
import { localSocketPath } from './socket-path'

/** No socket, one nobody listens on (its host died), or a host that stopped as we connected: no live host. */
const NO_HOST = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ECONNRESET'])

/**
 * Connects to the host serving `dataDir`, if one is running. Resolves to the connection, or undefined when no live
 * host listens there; any other failure (permissions, a path that is not ours) is an error.
 */
export function connectLocalSocket(dataDir: string): Promise<ClientTransport | undefined> {
  const file = localSocketPath(dataDir)
  return new Promise((resolve, reject) => {
    const socket = net.connect(file)
    const onError = (err: NodeJS.ErrnoException): void => {
      socket.destroy()
      if (err.code && NO_HOST.has(err.code)) resolve(undefined)
      else reject(new Error(`Could not attach to the Agentry host at ${file}: ${err.message}`))
    }
    socket.once('error', onError)
    socket.once('connect', () => {
      socket.off('error', onError)
      resolve(socketConnection<ClientMessage>(socket))
    })
  })
}
