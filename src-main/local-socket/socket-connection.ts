import type net from 'node:net'
import { PROMPT_MAX_CHARS } from '../../src-shared/limits'
import type { BridgeConnection } from '../../src-shared/bridge-protocol'

/** A line longer than this is not a bridge message: the biggest valid prompt JSON-escaped (up to 6 bytes a character), and room for the rest of the call. */
const MAX_LINE = 6 * PROMPT_MAX_CHARS + 1024 * 1024
/** Beyond this much unsent data the peer is not reading; it is dropped (a CLI re-attaches and resumes). */
const MAX_BUFFERED = 64 * 1024 * 1024

/**
 * Adapts a stream socket to the bridge's connection interface: one JSON message per line. Messages sent in the same
 * synchronous run are written together (one syscall for a replay of thousands of events). A peer that sends
 * something other than JSON lines is disconnected: there is no id to answer it with.
 */
export function socketConnection<Out>(socket: net.Socket): BridgeConnection<Out> & { close(): void } {
  let queue: string[] = []
  let scheduled = false
  let closed = false
  socket.setEncoding('utf8')
  socket.on('close', () => {
    closed = true
    queue = []
  })
  // Resets and pipe errors end the connection ('close' follows); they are not the host's errors.
  socket.on('error', () => socket.destroy())

  const flush = (): void => {
    scheduled = false
    const batch = queue
    queue = []
    if (batch.length === 0 || closed || !socket.writable) return
    if (socket.writableLength > MAX_BUFFERED) {
      socket.destroy()
      return
    }
    socket.write(batch.join(''))
  }

  return {
    send(msg) {
      if (closed) return
      queue.push(`${JSON.stringify(msg)}\n`)
      if (!scheduled) {
        scheduled = true
        queueMicrotask(flush)
      }
    },
    onMessage(cb) {
      let buffered = ''
      const onData = (chunk: string): void => {
        buffered += chunk
        let end: number
        while ((end = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, end)
          buffered = buffered.slice(end + 1)
          if (line.trim() === '') continue
          let parsed: unknown
          try {
            parsed = JSON.parse(line)
          } catch {
            socket.destroy()
            return
          }
          cb(parsed)
        }
        if (buffered.length > MAX_LINE) socket.destroy()
      }
      socket.on('data', onData)
      return () => socket.off('data', onData)
    },
    onClose(cb) {
      if (closed) {
        queueMicrotask(cb)
        return () => {}
      }
      socket.on('close', cb)
      return () => socket.off('close', cb)
    },
    close() {
      socket.end()
    },
  }
}
