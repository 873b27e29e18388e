import { foldEvent, type AgentEvent } from '../../src-shared'

/**
 * A child's timeout, counting only its own work: the clock stands still while a person is being asked something by
 * this child or any of its descendants (an approval, a question), and while the child waits for its own blocking
 * children (they have clocks of their own). Several reasons to pause may overlap; it runs when none is left.
 */
export class TaskClock {
  private readonly pauses = new Set<string>()
  private remainingMs: number
  private since = 0
  private timer: NodeJS.Timeout | undefined
  private started = false
  private done = false
  private waits = 0

  constructor(
    limitMs: number,
    private readonly onTimeout: () => void,
  ) {
    this.remainingMs = limitMs
  }

  start(): void {
    this.started = true
    this.schedule()
  }

  stop(): void {
    this.done = true
    this.clear()
  }

  /** Watches the child's events (its descendants' arrive wrapped) for questions to the person and their answers. */
  observe(event: AgentEvent): void {
    const { leaf } = foldEvent(event)
    if (leaf.type === 'tool_approval_required') this.pause(`approval:${leaf.approval.id}`)
    else if (leaf.type === 'tool_approval_resolved') this.resume(`approval:${leaf.approvalId}`)
  }

  /** Stands still while `work` (the child's own blocking children) runs. */
  async pauseWhile<T>(work: Promise<T>): Promise<T> {
    const key = `children:${++this.waits}`
    this.pause(key)
    try {
      return await work
    } finally {
      this.resume(key)
    }
  }

  get paused(): boolean {
    return this.pauses.size > 0
  }

  private pause(key: string): void {
    if (this.pauses.size === 0 && this.timer) {
      this.remainingMs -= Date.now() - this.since
      this.clear()
    }
    this.pauses.add(key)
  }

  private resume(key: string): void {
    if (!this.pauses.delete(key) || this.pauses.size > 0) return
    this.schedule()
  }

  private schedule(): void {
    if (!this.started || this.done || this.pauses.size > 0) return
    this.since = Date.now()
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.done = true
      this.onTimeout()
    }, Math.max(0, this.remainingMs))
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }
}
