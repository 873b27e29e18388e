import { WebSocket } from 'ws'
import type { BridgeConnection, HostMessage } from '../../src-shared/bridge-protocol'

/** Beyond this much unsent data the client is not keeping up; it is dropped and resumes with `afterSeq`. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024
/** Messages per frame at most, so a large replay goes out as several frames rather than one huge string. */
const MAX_BATCH = 1000

export const CLOSE_TOO_SLOW = 4001
export const CLOSE_BAD_MESSAGE = 1007

/**
 * Adapts one `ws` socket to the bridge's connection interface. Messages sent in the same synchronous run go out as one frame
 * holding a JSON array (the client accepts a message or an array of them): a frame and a syscall per event would
 * cap a streaming run, or a 10,000-event catch-up, far below what the bridge is asked to carry.
 */
export function wsConnection(ws: WebSocket): BridgeConnection<HostMessage> {
  let queue: HostMessage[] = []
  let scheduled = false

  const flush = (): void => {
    scheduled = false
    const batch = queue
    queue = []
    // A closed or closing socket is the normal end of a client's life, not an error for the host.
    if (batch.length === 0 || ws.readyState !== WebSocket.OPEN) return
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(CLOSE_TOO_SLOW, 'too slow: reconnect and resume with afterSeq')
      return
    }
    ws.send(JSON.stringify(batch.length === 1 ? batch[0] : batch))
  }
  ws.on('close', () => {
    queue = []
  })

  return {
    send(msg) {
      if (ws.readyState !== WebSocket.OPEN) return
      queue.push(msg)
      if (queue.length >= MAX_BATCH) return flush()
      // A microtask: everything sent in this synchronous run (a hub delivery, a replay) shares one frame, and a
      // lone event still leaves at once.
      if (!scheduled) {
        scheduled = true
        queueMicrotask(flush)
      }
    },
    onMessage(cb) {
      const listener = (data: WebSocket.RawData, isBinary: boolean): void => {
        if (isBinary) {
          ws.close(CLOSE_BAD_MESSAGE, 'binary frames are not part of the bridge protocol')
          return
        }
        let parsed: unknown
        try {
          parsed = JSON.parse(data.toString())
        } catch {
          // Not JSON at all: there is no id to answer, so the client is told by the close reason.
          ws.close(CLOSE_BAD_MESSAGE, 'bridge messages must be JSON')
          return
        }
        cb(parsed)
      }
      ws.on('message', listener)
      return () => ws.off('message', listener)
    },
    onClose(cb) {
      ws.on('close', cb)
      return () => ws.off('close', cb)
    },
  }
}
