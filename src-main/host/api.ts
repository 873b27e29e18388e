import type { BridgeCallName, BridgeError, CallInput, CallOutput, SubscribeInput, SubscriptionMessage } from '../../src-shared'

/**
 * What the host offers to transports: one method per bridge call (input already validated by the bridge),
 * plus subscribe. Methods throw `HostError` for expected failures; the bridge turns those into `{ ok: false }`.
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
