import { z } from 'zod'
import type { CallResult, SubscriptionMessage } from '../../src-shared'

/**
 * The wire protocol every message-based transport speaks (WebSocket, in-memory pair).
 * Ids are chosen by the client: a call id pairs a request with its result; a subscription id names a stream of
 * `sub` messages until the client unsubscribes or the connection closes.
 */
const WireId = z.union([z.string().min(1).max(100), z.number().int().nonnegative()])

export const ClientMessage = z.discriminatedUnion('t', [
  z.object({ t: z.literal('call'), id: WireId, name: z.string().max(200), input: z.unknown() }).strict(),
  z.object({ t: z.literal('subscribe'), id: WireId, input: z.unknown() }).strict(),
  z.object({ t: z.literal('unsubscribe'), id: WireId }).strict(),
])
export type ClientMessage = z.infer<typeof ClientMessage>
export type WireId = z.infer<typeof WireId>

/**
 * Host → client. (A transport may batch: the WebSocket sends the messages of one tick as a JSON array in one frame.)
 * A `result` answers a call; for a subscribe it is sent only when the subscription was refused
 * (invalid input, unknown session) — an accepted subscription answers with its snapshot `sub` message instead.
 */
export type HostMessage =
  | { t: 'result'; id: WireId; result: CallResult<unknown> }
  | { t: 'sub'; id: WireId; msg: SubscriptionMessage }

/** A message transport, as small as possible so each transport is a short file (see VS Code's IPC protocol). */
export interface BridgeConnection<Out = HostMessage> {
  /** Never throws; a message sent after the peer went away is dropped by the transport. */
  send(msg: Out): void
  /** Messages arrive as untrusted data; the receiver parses them. Returns a disposer. */
  onMessage(cb: (msg: unknown) => void): () => void
  onClose(cb: () => void): () => void
}
