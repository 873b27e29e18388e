import { BridgeCalls, HostError, type AgentEvent, type BridgeCallName, type HostApi, type HostCalls, type SequencedEvent, type SubscribeInput, type SubscriptionMessage } from '../../../src-shared'

export interface MemoryHostApi extends HostApi {
  /** Appends an event to a stream and delivers it to live subscribers; returns its seq. */
  emit(stream: string, event: AgentEvent): number
  /** Live subscriptions right now (to check that transports detach them). */
  readonly subscriberCount: number
}

/**
 * A HostApi held entirely in memory, for transport tests and the bridge benchmark: calls are whatever the test
 * passes (the rest answer `unavailable`); events follow the real contract — snapshot, replay of seq > afterSeq,
 * live — with a bounded log so a too-old cursor gets `resync`.
 */
export function createMemoryHostApi(options: { calls?: Partial<HostCalls>; keep?: number } = {}): MemoryHostApi {
  const keep = options.keep ?? 100_000
  const logs = new Map<string, SequencedEvent[]>()
  const lastSeq = new Map<string, number>()
  const listeners = new Map<string, Set<(m: SubscriptionMessage) => void>>()
  let subscriberCount = 0

  const calls = Object.fromEntries(
    (Object.keys(BridgeCalls) as BridgeCallName[]).map((name) => [
      name,
      options.calls?.[name] ??
        (async () => {
          throw new HostError('unavailable', `"${name}" is not available in the in-memory host.`)
        }),
    ]),
  ) as HostCalls

  const listenersOf = (stream: string): Set<(m: SubscriptionMessage) => void> => {
    let set = listeners.get(stream)
    if (!set) listeners.set(stream, (set = new Set()))
    return set
  }

  return {
    calls,
    get subscriberCount() {
      return subscriberCount
    },
    emit(stream, event) {
      const seq = (lastSeq.get(stream) ?? 0) + 1
      lastSeq.set(stream, seq)
      const sequenced: SequencedEvent = { seq, stream, event }
      let log = logs.get(stream)
      if (!log) logs.set(stream, (log = []))
      log.push(sequenced)
      // Trim in chunks so the cost is amortised rather than paid on every event.
      if (log.length > keep * 1.25) log.splice(0, log.length - keep)
      const msg: SubscriptionMessage = { kind: 'event', event: sequenced }
      for (const l of listeners.get(stream) ?? []) l(msg)
      for (const l of listeners.get('all') ?? []) l(msg)
      return seq
    },
    subscribe(input: SubscribeInput, onMessage) {
      const stream = input.sessionId
      const upTo = stream === 'all' ? 0 : (lastSeq.get(stream) ?? 0)
      onMessage({ kind: 'snapshot', stream, runs: [], approvals: [], lastSeq: upTo })
      if (stream !== 'all' && input.afterSeq < upTo) {
        const log = logs.get(stream) ?? []
        if (log.length === 0 || log[0].seq > input.afterSeq + 1) {
          onMessage({ kind: 'resync', stream, reason: `events after seq ${input.afterSeq} are no longer kept` })
          return () => {}
        }
        const start = input.afterSeq + 1 - log[0].seq
        for (let i = start; i < log.length; i++) onMessage({ kind: 'event', event: log[i] })
      }
      const set = listenersOf(stream)
      set.add(onMessage)
      subscriberCount++
      let live = true
      return () => {
        if (!live) return
        live = false
        subscriberCount--
        set.delete(onMessage)
      }
    },
  }
}
