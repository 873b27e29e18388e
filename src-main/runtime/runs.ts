import type { BudgetView, TokenUsage } from '../../src-shared'
import { addUsage, emptyUsage } from '../loop'
import type { Ruleset } from '../permissions'

/**
 * Every run in flight, in one tree: turns of stored sessions (the runner's), children running as tasks (blocking and
 * background), and host helpers writing for a session (a summary). Stop, is-running, descendants, ancestor paths and
 * settling are queries on it; the runner and the subagents both start and end their runs here, so no one keeps a
 * second notion of what runs.
 *
 * The tree is a tree of sessions: a run's `path` is the session ids from its conversation's root down to its own
 * session (opaque children included, which have no row), so "below X" means "its path goes through X" — a task of a
 * task, and a turn of a stored child session prompted directly, alike.
 */
export type RunKind = 'turn' | 'task' | 'helper'

export interface RunTotals {
  usage: TokenUsage
  /** null once a step's price is unknown */
  costUsd: number | null
  steps: number
}

export interface RunRecord {
  readonly kind: RunKind
  readonly sessionId: string
  /** session ids from the root down to this run's session */
  readonly path: readonly string[]
  readonly agentType: string
  /** what it is doing, as the person named it (a task's label or description) */
  readonly label?: string
  readonly background: boolean
  readonly startedAt: number
  readonly controller: AbortController
  /** aborts this run: `self` when its own session is the one stopped, else because a run above it was */
  abort(reason: string, self: boolean): void
  /** running totals of this run's own model steps */
  readonly totals: RunTotals
  /** settles when the run and what it writes afterwards (a background child's delivery) are over */
  readonly done: Promise<void>
  /** its spend against its budget, now (absent: nothing limits it) */
  budget?(): BudgetView | undefined
  /** "Always allow … for this run" answers: they reach this run and the runs it starts, and end with it */
  readonly grants: Ruleset
  /** messages sent to it while it runs, waiting for its next step (see RunRegistry.steer) */
  readonly mailbox: SteerMessage[]
}

/** A message for a running session, delivered at its next step. */
export interface SteerMessage {
  text: string
  /** the person (the app, an editor) or an agent above it (sessions_send) */
  from: 'person' | 'agent'
  at: number
}

export interface BeginRun {
  kind: RunKind
  sessionId: string
  path: readonly string[]
  agentType: string
  label?: string
  background?: boolean
  controller?: AbortController
  /** how to abort it (default: the controller, with the reason) */
  abort?(controller: AbortController, reason: string, self: boolean): void
  budget?(): BudgetView | undefined
}

/** A run may not start: its session runs already, or its tree is closing (being deleted or archived). */
export class RunRefused extends Error {
  override readonly name = 'RunRefused'
  constructor(
    readonly why: 'running' | 'closing',
    message: string,
  ) {
    super(message)
  }
}

export class RunRegistry {
  /** turns and tasks: one per session */
  private readonly bySession = new Map<string, RunRecord>()
  /** helpers: any number per session, never counted as the session running */
  private readonly helpers = new Set<RunRecord>()
  /** sessions whose tree is closing (a count: closings may overlap) */
  private readonly closing = new Map<string, number>()
  private readonly returnListeners = new Set<(record: RunRecord, unread: SteerMessage[]) => void>()

  /**
   * Registers a run; `work` is what it does. The record leaves the registry when `work` settles, whatever the outcome.
   * Refused when the session already has a turn or task, or when any session on its path is closing.
   */
  begin(o: BeginRun, work: (record: RunRecord) => Promise<void>): RunRecord {
    const closingAt = o.path.find((id) => this.closing.has(id))
    if (closingAt) throw new RunRefused('closing', `session ${closingAt} is being deleted or archived right now; nothing new can start in it`)
    if (o.kind !== 'helper' && this.bySession.has(o.sessionId)) throw new RunRefused('running', `session ${o.sessionId} is already running`)
    const controller = o.controller ?? new AbortController()
    const abort = o.abort ?? ((c: AbortController, reason: string) => c.abort(reason))
    const record: RunRecord & { done: Promise<void> } = {
      kind: o.kind,
      sessionId: o.sessionId,
      path: [...o.path],
      agentType: o.agentType,
      ...(o.label !== undefined ? { label: o.label } : {}),
      background: o.background ?? false,
      startedAt: Date.now(),
      controller,
      abort: (reason, self) => abort(controller, reason, self),
      totals: { usage: emptyUsage(), costUsd: 0, steps: 0 },
      done: Promise.resolve(),
      ...(o.budget ? { budget: o.budget } : {}),
      grants: [],
      mailbox: [],
    }
    if (o.kind === 'helper') this.helpers.add(record)
    else this.bySession.set(o.sessionId, record)
    const leave = () => {
      if (o.kind === 'helper') this.helpers.delete(record)
      else if (this.bySession.get(o.sessionId) === record) this.bySession.delete(o.sessionId)
      // The run ended before its next step: what was sent to it goes back, never silently dropped.
      const unread = record.mailbox.splice(0)
      if (unread.length) for (const l of this.returnListeners) l(record, unread)
    }
    // The work starts only now, with the record in place: whatever it starts below itself finds its parent here.
    let running: Promise<void>
    try {
      running = work(record)
    } catch (err) {
      running = Promise.reject(err)
    }
    record.done = running.finally(leave)
    return record
  }

  /** The turn or task writing this session now. */
  get(sessionId: string): RunRecord | undefined {
    return this.bySession.get(sessionId)
  }

  isRunning(sessionId: string): boolean {
    return this.bySession.has(sessionId)
  }

  /** Session ids from the root down to a running session; undefined when it does not run. */
  pathOf(sessionId: string): readonly string[] | undefined {
    return this.bySession.get(sessionId)?.path
  }

  /** The runs of this session and every session below it; helpers only when asked for. */
  within(sessionId: string, o: { helpers?: boolean } = {}): RunRecord[] {
    const candidates = o.helpers ? [...this.bySession.values(), ...this.helpers] : this.bySession.values()
    return [...candidates].filter((r) => r.path.includes(sessionId))
  }

  /** Runs in flight: turns and tasks (helpers are the host's own work), or those of one kind. */
  list(kind?: RunKind): RunRecord[] {
    if (kind === 'helper') return [...this.helpers]
    const all = [...this.bySession.values()]
    return kind ? all.filter((r) => r.kind === kind) : all
  }

  /**
   * Aborts the runs of this session and below: its own with `reason`, the others as stopped from above. A person's
   * Stop leaves the host's helpers (a summary being written) alone; closing a tree does not.
   */
  stop(sessionId: string, reason: string, o: { helpers?: boolean } = {}): RunRecord[] {
    const hit = this.within(sessionId, o)
    for (const r of hit) r.abort(reason, r.sessionId === sessionId)
    return hit
  }

  /** Aborts everything (the host is stopping). */
  stopAll(reason: string): void {
    for (const r of [...this.bySession.values(), ...this.helpers]) r.abort(reason, true)
  }

  /** Resolves when these runs are over (their writes included); never rejects. */
  async settled(records: readonly RunRecord[]): Promise<void> {
    await Promise.allSettled(records.map((r) => r.done))
  }

  /** Resolves when nothing runs any more (shutdown, tests). */
  async settleAll(): Promise<void> {
    while (this.bySession.size || this.helpers.size) await this.settled([...this.bySession.values(), ...this.helpers])
  }

  /**
   * Closes a tree while `then` runs: nothing new starts in it, everything in it stops, and its writes settle first.
   * One pass is enough — a run that would start meanwhile (a parent resuming a child) is refused at `begin`.
   */
  async whileClosed<T>(ids: readonly string[], reason: string, then: () => T): Promise<T> {
    for (const id of ids) this.closing.set(id, (this.closing.get(id) ?? 0) + 1)
    try {
      const hit = new Set<RunRecord>()
      for (const id of ids) for (const r of this.stop(id, reason, { helpers: true })) hit.add(r)
      await this.settled([...hit])
      return then()
    } finally {
      for (const id of ids) {
        const n = (this.closing.get(id) ?? 1) - 1
        if (n > 0) this.closing.set(id, n)
        else this.closing.delete(id)
      }
    }
  }

  isClosing(sessionId: string): boolean {
    return this.closing.has(sessionId)
  }

  /**
   * A message for the turn or task running this session, taken at its next step (between model requests). False when
   * the session does not run (or only a helper writes for it): the caller prompts it instead.
   */
  steer(sessionId: string, text: string, from: SteerMessage['from']): boolean {
    const record = this.bySession.get(sessionId)
    if (!record || record.controller.signal.aborted) return false
    record.mailbox.push({ text, from, at: Date.now() })
    return true
  }

  /** The messages waiting for this session's run, emptied (the loop calls it before each model request). */
  takeMessages(sessionId: string): SteerMessage[] {
    return this.bySession.get(sessionId)?.mailbox.splice(0) ?? []
  }

  /** Told when a run ends with messages it never took (it finished first): they must reach someone. */
  onReturned(cb: (record: RunRecord, unread: SteerMessage[]) => void): () => void {
    this.returnListeners.add(cb)
    return () => this.returnListeners.delete(cb)
  }

  /** The "for this run" grants of every run on a path (a run's reach the runs it started below it). */
  grantsOn(path: readonly string[]): Ruleset {
    const out: Ruleset = []
    for (const id of path) {
      const r = this.bySession.get(id)
      if (r?.grants.length) out.push(...r.grants)
    }
    return out
  }
}

/** Adds one model step to a run's totals (cost null once a step's price is unknown). */
export function addStep(totals: RunTotals, usage: TokenUsage, cost: number | null): void {
  addUsage(totals.usage, usage)
  totals.costUsd = totals.costUsd === null || cost === null ? null : totals.costUsd + cost
  totals.steps++
}
