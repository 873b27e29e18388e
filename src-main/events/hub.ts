import type { AgentEvent, SequencedEvent, SubscribeInput, SubscriptionMessage } from '../../src-shared'
import type { EventLogRepository } from '../store'

/** Active state sent to a subscriber before any replay: runs in flight, pending approvals. */
export type SnapshotSource = (stream: string | 'all') => Omit<Extract<SubscriptionMessage, { kind: 'snapshot' }>, 'kind' | 'stream' | 'lastSeq'>

type Listener = (m: SubscriptionMessage) => void

const NOTHING_ACTIVE: SnapshotSource = () => ({ runs: [], approvals: [] })

const RING_SIZE = 4096
/**
 * Rings kept in memory at most (the streams delivered to most recently): a daemon that runs for weeks over thousands
 * of sessions must not keep every stream's tail. Older streams replay from the event log instead.
 */
const MAX_RINGS = 64
const DB_KEEP = 50_000
const PRUNE_EVERY = 5_000

/**
 * Where events get their seq. One monotonic sequence per root session ("stream"); every event is written to the
 * store's event log in the same batched transaction as the chunk it describes, and delivered to subscribers only
 * after that transaction commits — so anything a viewer has seen is on disk.
 */
export class EventHub {
  private readonly seqs = new Map<string, number>()
  private readonly delivered = new Map<string, number>()
  private readonly rings = new Map<string, SequencedEvent[]>()
  private lastRing: string | undefined
  private readonly listeners = new Map<string, Set<Listener>>()
  private readonly allListeners = new Set<Listener>()
  private pending: SequencedEvent[] = []
  private readonly sincePrune = new Map<string, number>()
  private readonly disposeFlush: () => void

  constructor(private readonly log: EventLogRepository) {
    this.disposeFlush = log.onFlush(() => this.deliver())
  }

  publish(stream: string, event: AgentEvent): SequencedEvent {
    const seq = this.nextSeq(stream)
    const sequenced: SequencedEvent = { seq, stream, event }
    // Queue before appending: an append that fills the store's buffer flushes (and delivers) synchronously.
    this.pending.push(sequenced)
    this.log.appendEvent(sequenced)
    return sequenced
  }

  lastSeq(stream: string): number {
    return this.seqs.get(stream) ?? this.log.lastSeq(stream)
  }

  /** `snapshot`: the active state sent first (the host knows the runs in flight; the hub does not). */
  subscribe(input: SubscribeInput, listener: Listener, snapshot: SnapshotSource = NOTHING_ACTIVE): () => void {
    if (input.sessionId === 'all') {
      listener({ kind: 'snapshot', stream: 'all', lastSeq: 0, ...snapshot('all') })
      this.allListeners.add(listener)
      return () => this.allListeners.delete(listener)
    }
    const stream = input.sessionId
    const upTo = this.deliveredSeq(stream)
    listener({ kind: 'snapshot', stream, lastSeq: upTo, ...snapshot(stream) })
    if (input.afterSeq < upTo) {
      const missed = this.replay(stream, input.afterSeq, upTo)
      if (!missed) {
        listener({ kind: 'resync', stream, reason: `events after seq ${input.afterSeq} are no longer kept; reload the session` })
        return () => {}
      }
      for (const event of missed) listener({ kind: 'event', event })
    }
    let set = this.listeners.get(stream)
    if (!set) this.listeners.set(stream, (set = new Set()))
    set.add(listener)
    return () => {
      set.delete(listener)
      if (set.size === 0) this.listeners.delete(stream)
    }
  }

  /** A deleted root session's stream: nothing more is published to it, so its counters and tail go. */
  forget(stream: string): void {
    this.seqs.delete(stream)
    this.delivered.delete(stream)
    this.rings.delete(stream)
    if (this.lastRing === stream) this.lastRing = undefined
    this.sincePrune.delete(stream)
  }

  dispose(): void {
    this.deliver()
    this.disposeFlush()
    this.listeners.clear()
    this.allListeners.clear()
  }

  private nextSeq(stream: string): number {
    const seq = this.lastSeq(stream) + 1
    this.seqs.set(stream, seq)
    return seq
  }

  private deliveredSeq(stream: string): number {
    const known = this.delivered.get(stream)
    if (known !== undefined) return known
    // Nothing delivered by this process yet: everything before the first pending event is durable history.
    const firstPending = this.pending.find((e) => e.stream === stream)
    return firstPending ? firstPending.seq - 1 : this.lastSeq(stream)
  }

  /** Events (afterSeq, upTo], from memory when possible; undefined when the log no longer reaches back that far. */
  private replay(stream: string, afterSeq: number, upTo: number): SequencedEvent[] | undefined {
    const ring = this.rings.get(stream)
    if (ring && ring.length > 0 && ring[0].seq <= afterSeq + 1) {
      return ring.filter((e) => e.seq > afterSeq && e.seq <= upTo)
    }
    const oldest = this.log.oldestSeq(stream)
    if (oldest === undefined || oldest > afterSeq + 1) return undefined
    return this.log.eventsAfter(stream, afterSeq).filter((e) => e.seq <= upTo)
  }

  /** The stream's ring, moved to the newest end of the map (its order is the order of last delivery). */
  private ringOf(stream: string): SequencedEvent[] {
    let ring = this.rings.get(stream)
    if (ring && stream === this.lastRing) return ring
    if (ring) this.rings.delete(stream)
    else ring = []
    this.rings.set(stream, ring)
    this.lastRing = stream
    if (this.rings.size > MAX_RINGS) this.rings.delete(this.rings.keys().next().value!)
    return ring
  }

  private deliver(): void {
    if (this.pending.length === 0) return
    const batch = this.pending
    this.pending = []
    for (const e of batch) {
      this.delivered.set(e.stream, e.seq)
      const ring = this.ringOf(e.stream)
      ring.push(e)
      // Trim in chunks: shifting the whole ring on every event would make delivery O(ring size).
      if (ring.length >= RING_SIZE * 2) ring.splice(0, ring.length - RING_SIZE)
      const set = this.listeners.get(e.stream)
      if (set) for (const l of set) notify(l, { kind: 'event', event: e })
      for (const l of this.allListeners) notify(l, { kind: 'event', event: e })
      const n = (this.sincePrune.get(e.stream) ?? 0) + 1
      this.sincePrune.set(e.stream, n)
      if (n >= PRUNE_EVERY) {
        this.sincePrune.set(e.stream, 0)
        this.log.pruneEvents(e.stream, DB_KEEP)
      }
    }
  }
}

/** A broken subscriber must not stop delivery to the others or reach the runtime; it is reported, not hidden. */
function notify(listener: Listener, m: SubscriptionMessage): void {
  try {
    listener(m)
  } catch (err) {
    console.error('[agentry] event subscriber failed:', err instanceof Error ? err.message : err)
  }
}
