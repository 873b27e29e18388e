import type { BridgeCallName, BridgeError, CallInput, CallOutput, CallResult, SubscriptionMessage } from '../../src-shared'
import type { AgentryApi } from '../../src-preload/api'
import type { BridgeClient, ConnectionState } from './types'

type Subscription = { onMessage: (m: SubscriptionMessage) => void; onError?: (e: BridgeError) => void }
type CallMethod = (input: unknown) => Promise<CallResult<unknown>>

/** `sessions.list` → `sessionsList`, the preload's method for that call. */
export function callMethodName(name: BridgeCallName): string {
  return name.replace(/\.(\w)/, (_, c: string) => c.toUpperCase())
}

/**
 * The bridge over Electron IPC through the preload's `window.agentry`. Main and renderer live and die together,
 * so there is nothing to reconnect: a reload builds a new client and the page catches up with `afterSeq`.
 */
export function createIpcBridgeClient(api: AgentryApi): BridgeClient {
  const subs = new Map<string, Subscription>()
  let nextId = 1

  api.onEvent((id, msg) => {
    const sub = subs.get(id)
    if (!sub) return // arrived after unsubscribe; expected and harmless
    if (msg.kind === 'resync') subs.delete(id)
    try {
      sub.onMessage(msg)
    } catch (err) {
      console.error('[agentry] a subscriber threw:', err)
    }
  })

  return {
    transport: 'ipc',
    async call<N extends BridgeCallName>(name: N, input: CallInput<N>): Promise<CallResult<CallOutput<N>>> {
      const method = (api as unknown as Record<string, CallMethod>)[callMethodName(name)]
      try {
        return (await method(input)) as CallResult<CallOutput<N>>
      } catch (err) {
        // Main answers every call with a CallResult; a rejection means the IPC channel itself failed.
        return { ok: false, error: { code: 'unavailable', message: `The app's host did not answer "${name}": ${err instanceof Error ? err.message : String(err)}` } }
      }
    },
    subscribe(input, onMessage, onError) {
      const id = `s${nextId++}`
      subs.set(id, { onMessage, onError })
      api.subscribe(id, input).then(
        (r) => {
          if (r.ok || !subs.delete(id)) return
          if (onError) onError(r.error)
          else console.error(`[agentry] subscription refused: ${r.error.message}`)
        },
        (err: unknown) => console.error('[agentry] subscribing over IPC failed:', err),
      )
      return () => {
        if (!subs.delete(id)) return
        api.unsubscribe(id).catch((err: unknown) => console.error('[agentry] unsubscribing over IPC failed:', err))
      }
    },
    onConnectionChange(cb: (s: ConnectionState) => void) {
      cb('open')
      return () => {}
    },
    onAppCommand(cb) {
      return api.onAppCommand(cb)
    },
  }
}
