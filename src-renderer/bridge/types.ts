import type {
  BridgeCallName,
  BridgeError,
  CallInput,
  CallOutput,
  CallResult,
  SubscribeInput,
  SubscriptionMessage,
} from '../../src-shared'
import type { AppCommand } from '../../src-preload/api'

export type { AppCommand }

/** `refused`: the host answers but no longer accepts this page's token (it restarted with a new one). */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'refused' | 'closed'

/** The one way the renderer reaches the host. Transport (IPC or WebSocket) is chosen at startup. */
export interface BridgeClient {
  /** Never rejects: transport failures come back as `{ ok: false, error: { code: 'unavailable' } }`. */
  call<N extends BridgeCallName>(name: N, input: CallInput<N>): Promise<CallResult<CallOutput<N>>>
  /**
   * Snapshot, then replayed and live events. After a reconnect the client re-subscribes with the last seq it
   * delivered, so the subscriber sees no gap and no duplicate. A `resync` message ends the subscription: reload the
   * session (`sessions.get`), dispose, and subscribe again with its `lastSeq`. `onError` hears a refused
   * subscription (bad input, unknown session). Returns a disposer.
   */
  subscribe(
    input: SubscribeInput,
    onMessage: (m: SubscriptionMessage) => void,
    onError?: (error: BridgeError) => void,
  ): () => void
  onConnectionChange(cb: (s: ConnectionState) => void): () => void
  /** Commands from the native shell (menu, open-folder dialog); never fires in the browser. */
  onAppCommand(cb: (command: AppCommand) => void): () => void
  readonly transport: 'ipc' | 'websocket'
}
