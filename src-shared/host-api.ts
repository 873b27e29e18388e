import type { BridgeCallName, BridgeError, CallInput, CallOutput, SubscribeInput, SubscriptionMessage } from './bridge'

/**
 * The host's contract with every transport (bridge, daemon, Electron shell, CLI): one method per bridge call, plus
 * subscribe. The host implements it; transports and clients only ever see this type. Inputs reaching the host are
 * already validated by the bridge. Methods throw `HostError` for expected failures; the bridge turns those into
 * `{ ok: false }`, and a remote client turns `{ ok: false }` back into a `HostError`.
 */
export type HostCalls = { [N in BridgeCallName]: (input: CallInput<N>) => Promise<CallOutput<N>> }

export interface HostApi {
  calls: HostCalls
  /** Snapshot, then replay of seq > afterSeq, then live; or a single resync. Returns a disposer. */
  subscribe(input: SubscribeInput, onMessage: (m: SubscriptionMessage) => void): () => void
}

export class HostError extends Error {
  override readonly name = 'HostError'
  constructor(
    readonly code: BridgeError['code'],
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
  static isInstance(e: unknown): e is HostError {
    return e instanceof Error && e.name === 'HostError' && 'code' in e
  }
}
