import type { CallResult, SubscribeInput } from '../../src-shared'
import type { ClientTransport, HostMessage, WireId } from '../../src-shared/bridge-protocol'
import { createEmitter } from '../../src-shared/emitter'
import type { AgentryApi } from '../../src-preload/api'

type CallMethod = (input: unknown) => Promise<CallResult<unknown>>

/** `sessions.list` → `sessionsList`, the preload's method for that call. */
function callMethodName(name: string): string {
  return name.replace(/\.(\w)/, (_, c: string) => c.toUpperCase())
}

/**
 * The bridge over Electron IPC, through the preload's `window.agentry`: one named method per call (Electron's
 * security guide: never a generic channel), so this transport turns each protocol message into its method and each
 * answer back into a protocol message. Main and renderer live and die together, so there is nothing to reconnect:
 * a reload builds a new client and the page catches up with `afterSeq`.
 */
export function createIpcTransport(api: AgentryApi): ClientTransport {
  const messages = createEmitter<unknown>()
  const closing = createEmitter()
  let closed = false
  const emit = (msg: HostMessage): void => {
    if (!closed) messages.fire(msg)
  }
  // The preload names subscriptions with strings; this client's ids are numbers.
  const offEvents = api.onEvent((id, msg) => emit({ t: 'sub', id: Number(id), msg }))

  const invoke = async (id: WireId, name: string, input: unknown): Promise<void> => {
    let result: CallResult<unknown>
    try {
      const method = (api as unknown as Record<string, CallMethod>)[callMethodName(name)]
      result = await method(input)
    } catch (err) {
      // Main answers every call with a CallResult; a throw means the IPC channel itself failed.
      result = { ok: false, error: { code: 'unavailable', message: `The app's host did not answer "${name}": ${err instanceof Error ? err.message : String(err)}` } }
    }
    emit({ t: 'result', id, result })
  }

  return {
    send(msg) {
      if (closed) return
      switch (msg.t) {
        case 'call':
          void invoke(msg.id, msg.name, msg.input)
          return
        case 'subscribe':
          api.subscribe(String(msg.id), msg.input as SubscribeInput).then(
            (result) => {
              if (!result.ok) emit({ t: 'result', id: msg.id, result })
            },
            (err: unknown) => console.error('[agentry] subscribing over IPC failed:', err),
          )
          return
        case 'unsubscribe':
          api.unsubscribe(String(msg.id)).catch((err: unknown) => console.error('[agentry] unsubscribing over IPC failed:', err))
          return
      }
    },
    onMessage: messages.on,
    onClose: closing.on,
    close() {
      if (closed) return
      closed = true
      offEvents()
      closing.fire()
    },
  }
}
