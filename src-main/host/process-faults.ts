import type { HostLog } from './host-log'

/**
 * The last fence of a long-running host process (`agentry serve`, the desktop app): a promise rejection nobody
 * handled, or an exception thrown from a timer, is a fault of one piece of work — logged with an id, and the process
 * goes on serving every other client and run rather than dropping them all. (Node's default is to exit.) Every such
 * fault is a bug: the fuzz tests and the soak bench fail on any logged fault. Returns a disposer.
 */
export function containProcessFaults(log: HostLog): () => void {
  const onRejection = (reason: unknown) => void log.fault('a promise nobody awaited', reason)
  const onException = (err: unknown) => void log.fault('a callback (uncaught exception)', err)
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  return () => {
    process.off('unhandledRejection', onRejection)
    process.off('uncaughtException', onException)
  }
}
