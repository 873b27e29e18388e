/**
 * The concurrency lane of one root session: at most `limit` subagents run at once; the rest wait in order.
 * A blocking parent that is itself a subagent gives its slot back while it waits for its own children, so a
 * deep chain of blocking calls can never deadlock the lane.
 */
export class Lane {
  private active = 0
  private readonly waiters: (() => void)[] = []

  constructor(private limit: number) {}

  setLimit(limit: number): void {
    this.limit = limit
    this.pump()
  }

  acquire(signal: AbortSignal): Promise<Slot> {
    if (signal.aborted) return Promise.reject(signal.reason)
    if (this.active < this.limit) {
      this.active++
      return Promise.resolve(new Slot(this))
    }
    return new Promise<Slot>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort)
        this.active++
        resolve(new Slot(this))
      }
      const onAbort = () => {
        const at = this.waiters.indexOf(grant)
        if (at >= 0) this.waiters.splice(at, 1)
        reject(signal.reason)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiters.push(grant)
    })
  }

  /** @internal */
  release(): void {
    this.active--
    this.pump()
  }

  /** @internal re-take a slot ahead of the queue: the holder had it before and its children just finished. */
  reclaim(): void {
    this.active++
  }

  private pump(): void {
    while (this.active < this.limit && this.waiters.length) this.waiters.shift()!()
  }
}

export class Slot {
  private held = true
  private waitingOnChildren = 0

  constructor(private readonly lane: Lane) {}

  /** Give the slot back while `work` (this run's own blocking children) is in flight. */
  async yieldWhile<T>(work: Promise<T>): Promise<T> {
    if (this.waitingOnChildren++ === 0 && this.held) {
      this.held = false
      this.lane.release()
    }
    try {
      return await work
    } finally {
      if (--this.waitingOnChildren === 0 && !this.held) {
        this.held = true
        this.lane.reclaim()
      }
    }
  }

  release(): void {
    if (!this.held) return
    this.held = false
    this.lane.release()
  }
}
