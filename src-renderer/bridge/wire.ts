import type { CallResult, SubscriptionMessage } from '../../src-shared'

/**
 * The WebSocket wire protocol as the renderer sees it. The host side (with its zod parser) is
 * `src-main/bridge/protocol.ts`; the two are kept honest by the daemon + client test in `src-main/daemon/`.
 * A host frame holds one `HostWireMessage` or an array of them (messages of one tick, batched).
 */
export type ClientWireMessage =
  | { t: 'call'; id: number; name: string; input: unknown }
  | { t: 'subscribe'; id: number; input: unknown }
  | { t: 'unsubscribe'; id: number }

export type HostWireMessage =
  | { t: 'result'; id: number; result: CallResult<unknown> }
  | { t: 'sub'; id: number; msg: SubscriptionMessage }

export function isHostWireMessage(v: unknown): v is HostWireMessage {
  if (typeof v !== 'object' || v === null) return false
  const m = v as { t?: unknown; id?: unknown }
  return (m.t === 'result' || m.t === 'sub') && typeof m.id === 'number'
}
