import { SubscribeInput, type BridgeError, type CallResult, type SubscriptionMessage, HostError, type HostApi } from '../../src-shared'
import { describeIssues } from './describe-issues'

const MAX_SUBSCRIPTIONS = 256

/**
 * The subscriptions of one client (one socket, one webContents), keyed by the client's ids. Transports own one each
 * and call `disposeAll()` when the client goes away — that detaches the client only; runs keep going.
 */
export class SubscriptionSet<Id extends string | number = string | number> {
  private readonly active = new Map<Id, () => void>()

  constructor(private readonly api: HostApi) {}

  get size(): number {
    return this.active.size
  }

  /** Parses the input and subscribes; on refusal returns the error to send back instead of throwing. */
  add(id: Id, input: unknown, deliver: (msg: SubscriptionMessage) => void): CallResult<null> {
    if (this.active.has(id)) return refuse('invalid_request', `Subscription id ${JSON.stringify(id)} is already in use; unsubscribe it first or pick a new id.`)
    if (this.active.size >= MAX_SUBSCRIPTIONS) {
      return refuse('invalid_request', `Too many subscriptions on one connection (limit ${MAX_SUBSCRIPTIONS}); unsubscribe unused ones.`)
    }
    const parsed = SubscribeInput.safeParse(input)
    if (!parsed.success) return refuse('invalid_request', describeIssues('Invalid input for "subscribe"', parsed.error.issues, input, SubscribeInput))

    // Placeholder first: the host may deliver (and the client may unsubscribe) before subscribe() returns.
    let disposed = false
    this.active.set(id, () => {
      disposed = true
    })
    let dispose: () => void
    try {
      dispose = this.api.subscribe(parsed.data, (msg) => {
        if (!disposed) deliver(msg)
      })
    } catch (err) {
      this.active.delete(id)
      if (HostError.isInstance(err)) return refuse(err.code, err.message)
      console.error('[agentry] subscribe failed unexpectedly:', err instanceof Error ? (err.stack ?? err.message) : err)
      return refuse('internal', 'Subscribing failed because of an internal error in the host. The details are in the host log.')
    }
    if (disposed) {
      dispose()
      return { ok: true, data: null }
    }
    this.active.set(id, () => {
      disposed = true
      dispose()
    })
    return { ok: true, data: null }
  }

  /** Returns false when no such subscription exists (already gone is not an error for the client). */
  remove(id: Id): boolean {
    const dispose = this.active.get(id)
    if (!dispose) return false
    this.active.delete(id)
    dispose()
    return true
  }

  disposeAll(): void {
    const all = [...this.active.values()]
    this.active.clear()
    for (const dispose of all) dispose()
  }
}

function refuse(code: BridgeError['code'], message: string): CallResult<never> {
  return { ok: false, error: { code, message } }
}
