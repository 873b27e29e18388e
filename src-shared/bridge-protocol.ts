import { z } from 'zod'
import { lazy } from './lazy'
import type { CallResult, SubscriptionMessage } from './bridge'

/**
 * The bridge's wire protocol, the same over every transport (WebSocket, local socket, Electron IPC, in-memory pair).
 * Ids are chosen by the client: a call id pairs a request with its result; a subscription id names a stream of `sub`
 * messages until the client unsubscribes or the connection closes.
 */
export const WireId = lazy(() => z.union([z.string().min(1).max(100), z.number().int().nonnegative()]))
export type WireId = z.infer<typeof WireId>

/** Client → host. The host parses every message with this schema: a client is not trusted. */
export const ClientMessage = lazy(() =>
  z.discriminatedUnion('t', [
    z.object({ t: z.literal('call'), id: WireId, name: z.string().max(200), input: z.unknown() }).strict(),
    z.object({ t: z.literal('subscribe'), id: WireId, input: z.unknown() }).strict(),
    z.object({ t: z.literal('unsubscribe'), id: WireId }).strict(),
  ])
)
export type ClientMessage = z.infer<typeof ClientMessage>

/**
 * Host → client. A `result` answers a call; for a subscribe it is sent only when the subscription was refused
 * (invalid input, unknown session) — an accepted subscription answers with its snapshot `sub` message instead.
 * The client checks only the envelope (`t`, `id`): the host is ours, its outputs are checked against the contract
 * in tests and with `--debug`, and the client must not need the schemas (they are not built on the CLI's start-up).
 */
export type HostMessage = { t: 'result'; id: WireId; result: CallResult<unknown> } | { t: 'sub'; id: WireId; msg: SubscriptionMessage }

/**
 * One end of a message transport, as small as possible so each transport is a short file (see VS Code's IPC
 * protocol). The host serves an end that sends `HostMessage`s; a client's end sends `ClientMessage`s.
 */
export interface BridgeConnection<Out> {
  /** Never throws; a message sent after the peer went away is dropped by the transport. */
  send(msg: Out): void
  /** Messages arrive as untrusted data; the receiver checks them. Returns a disposer. */
  onMessage(cb: (msg: unknown) => void): () => void
  /** The connection is gone for good (either side closed it). Returns a disposer. */
  onClose(cb: () => void): () => void
}

/**
 * `reconnecting`: the link dropped and the transport is getting it back (calls made meanwhile wait);
 * `refused`: the host answers but no longer accepts this client's token (it restarted with a new one).
 */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'refused' | 'closed'

/** What the bridge client runs over. */
export interface ClientTransport extends BridgeConnection<ClientMessage> {
  close(): void
  /**
   * Only for a transport that drops and comes back by itself (the browser's WebSocket); any other transport is open
   * until it closes. A transport that reconnects keeps the client's view whole: it re-subscribes from the last event
   * delivered and answers the calls a drop cut off with `unavailable`.
   */
  readonly state?: ConnectionState
  onStateChange?(cb: (s: ConnectionState) => void): () => void
}
