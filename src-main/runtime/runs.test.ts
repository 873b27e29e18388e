import { describe, expect, it } from 'vitest'
import { addStep, RunRefused, RunRegistry, type RunKind, type RunRecord } from './runs'

/** A run whose end the test decides: it ends when finished or aborted, like a real run does. */
function startRun(reg: RunRegistry, o: { kind: RunKind; sessionId: string; path: string[] }, log: string[] = []) {
  let finish!: () => void
  const record = reg.begin({ ...o, agentType: 'a' }, (r) => {
    return new Promise<void>((resolve) => {
      finish = resolve
      r.controller.signal.addEventListener('abort', () => {
        log.push(`aborted ${o.sessionId} (${String(r.controller.signal.reason)})`)
        resolve()
      })
    })
  })
  return { record, finish: () => finish() }
}

/** Small deterministic PRNG (mulberry32): the same seed, the same sequence of operations. */
function rng(seed: number): () => number {
  let a = seed
  return () => {
    a |= 0
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('the run registry', () => {
  it('is one tree: within, pathOf and stop follow the session path, helpers only when asked', async () => {
    const reg = new RunRegistry()
    const root = startRun(reg, { kind: 'turn', sessionId: 'r', path: ['r'] })
    startRun(reg, { kind: 'task', sessionId: 'a', path: ['r', 'a'] })
    startRun(reg, { kind: 'task', sessionId: 'a1', path: ['r', 'a', 'a1'] })
    const b = startRun(reg, { kind: 'turn', sessionId: 'b', path: ['r', 'b'] })
    const summary = startRun(reg, { kind: 'helper', sessionId: 'a', path: ['r', 'a'] })
    expect(reg.pathOf('a1')).toEqual(['r', 'a', 'a1'])
    expect(reg.within('a').map((r) => r.sessionId).sort()).toEqual(['a', 'a1'])
    expect(reg.within('a', { helpers: true })).toHaveLength(3)
    expect(reg.isRunning('a')).toBe(true)
    // A second turn or task on a running session is refused; a helper is not a run of the session.
    expect(() => startRun(reg, { kind: 'task', sessionId: 'a', path: ['r', 'a'] })).toThrow(RunRefused)
    const stopped = reg.stop('a', 'stop a')
    expect(stopped.map((r) => r.controller.signal.reason)).toEqual(['stop a', 'stop a'])
    await reg.settled(stopped)
    expect(reg.isRunning('a')).toBe(false)
    expect(reg.list('helper')).toHaveLength(1)
    summary.finish()
    b.finish()
    root.finish()
    await reg.settleAll()
    expect(reg.list()).toEqual([])
    expect(reg.list('helper')).toEqual([])
  })

  it('a closed tree refuses new runs, stops what runs (helpers too) and lets `then` run once everything settled', async () => {
    const reg = new RunRegistry()
    const log: string[] = []
    startRun(reg, { kind: 'turn', sessionId: 'r', path: ['r'] }, log)
    startRun(reg, { kind: 'task', sessionId: 'c', path: ['r', 'c'] }, log)
    startRun(reg, { kind: 'helper', sessionId: 'r', path: ['r'] }, log)
    const other = startRun(reg, { kind: 'turn', sessionId: 'x', path: ['x'] }, log)
    let ranWith = -1
    const closing = reg.whileClosed(['r', 'c'], 'deleted', () => (ranWith = reg.within('r', { helpers: true }).length))
    // Meanwhile nothing new starts in the tree (a parent resuming a child, a queued prompt): one pass is enough.
    expect(() => startRun(reg, { kind: 'task', sessionId: 'd', path: ['r', 'c', 'd'] })).toThrow(/being deleted or archived/)
    expect(reg.isClosing('c')).toBe(true)
    await closing
    expect(ranWith).toBe(0)
    expect(log.sort()).toEqual(['aborted c (deleted)', 'aborted r (deleted)', 'aborted r (deleted)'])
    expect(reg.isClosing('r')).toBe(false)
    expect(reg.isRunning('x')).toBe(true)
    other.finish()
    await reg.settleAll()
  })

  it('a run that throws at once still leaves the registry, and its `done` says so', async () => {
    const reg = new RunRegistry()
    const record = reg.begin({ kind: 'turn', sessionId: 's', path: ['s'], agentType: 'a' }, () => {
      throw new Error('broken')
    })
    await expect(record.done).rejects.toThrow('broken')
    expect(reg.isRunning('s')).toBe(false)
  })

  it('adds steps to a run\'s totals; one unpriced step makes the cost unknown', () => {
    const reg = new RunRegistry()
    const { record, finish } = startRun(reg, { kind: 'turn', sessionId: 's', path: ['s'] })
    addStep(record.totals, { prompt: 10, completion: 2, reasoning: 0, cacheRead: 4, cacheWrite: 0, total: 12 }, 0.01)
    addStep(record.totals, { prompt: 20, completion: 3, reasoning: 1, cacheRead: 0, cacheWrite: 5, total: 23 }, 0.02)
    expect(record.totals).toEqual({ usage: { prompt: 30, completion: 5, reasoning: 1, cacheRead: 4, cacheWrite: 5, total: 35 }, costUsd: 0.03, steps: 2 })
    addStep(record.totals, { prompt: 1, completion: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0, total: 2 }, null)
    expect(record.totals.costUsd).toBeNull()
    finish()
  })

  // The invariants, over random trees: whatever starts, stops, closes and finishes in whatever order, every run
  // leaves the registry once it has ended, none is left dangling, and no session ever has two turns or tasks.
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`a random tree of starts, stops, closes and ends never leaves a dangling entry (seed ${seed})`, async () => {
      const random = rng(seed)
      const reg = new RunRegistry()
      const live = new Map<RunRecord, () => void>()
      const closings: Promise<unknown>[] = []
      const sessions: string[][] = [['r1'], ['r2']]
      const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]
      for (let step = 0; step < 300; step++) {
        const roll = random()
        if (roll < 0.45) {
          // start a run on a new child of some known session, or on a known session again
          const parent = pick(sessions)
          const path = random() < 0.6 ? [...parent, `s${step}`] : parent
          if (path !== parent) sessions.push(path)
          const kind = pick<RunKind>(['turn', 'task', 'task', 'helper'])
          try {
            const run = startRun(reg, { kind, sessionId: path.at(-1)!, path })
            live.set(run.record, run.finish)
          } catch (err) {
            expect(err).toBeInstanceOf(RunRefused)
            const why = (err as RunRefused).why
            if (why === 'running') expect(reg.isRunning(path.at(-1)!)).toBe(true)
            else expect(path.some((id) => reg.isClosing(id))).toBe(true)
          }
        } else if (roll < 0.65 && live.size) {
          pick([...live.values()])()
        } else if (roll < 0.8) {
          const target = pick(sessions).at(-1)!
          for (const r of reg.stop(target, 'stop', { helpers: random() < 0.5 })) expect(r.path).toContain(target)
        } else if (roll < 0.85) {
          const target = pick(sessions)
          closings.push(reg.whileClosed([target.at(-1)!], 'closed', () => expect(reg.within(target.at(-1)!, { helpers: true })).toEqual([])))
        }
        // Never two turns or tasks on one session.
        const ids = reg.list().map((r) => r.sessionId)
        expect(new Set(ids).size).toBe(ids.length)
        await Promise.resolve()
      }
      for (const finish of live.values()) finish()
      await Promise.all(closings)
      await reg.settleAll()
      expect(reg.list()).toEqual([])
      expect(reg.list('helper')).toEqual([])
      for (const path of sessions) for (const id of path) expect(reg.isClosing(id)).toBe(false)
    })
  }
})
