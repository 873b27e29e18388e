import { describe, expect, it } from 'vitest'
import { Allowance, budgetTokens, tightest } from './budget'

const step = (prompt: number, completion: number, cacheRead = 0) => ({ prompt, completion, reasoning: 0, cacheRead, cacheWrite: 0, total: prompt + completion })

describe('Allowance', () => {
  it('charges every allowance up the chain, so a parent bounds all its children together', () => {
    const parent = new Allowance(undefined, { tokens: 1000 }, 'parent')
    const a = new Allowance(parent, {}, 'a')
    const b = new Allowance(parent, {}, 'b')
    a.charge(step(300, 100), 0.01)
    expect(b.reached()).toBeUndefined()
    b.charge(step(500, 100), 0.02)
    expect(a.reached()).toEqual({ allowance: parent, field: 'tokens' })
    expect(parent.spent().costUsd).toBeCloseTo(0.03)
    expect(a.spent().tokens).toBe(400)
  })

  it('counts cache reads at a tenth of a token', () => {
    expect(budgetTokens(step(1000, 100, 900))).toBe(100 + 90 + 100)
  })

  it('names the outermost limit when several are reached at once', () => {
    const session = new Allowance(undefined, { tokens: 100 }, 'session')
    const child = new Allowance(session, { tokens: 100 }, 'child')
    child.charge(step(100, 0), null)
    expect(child.reached()?.allowance).toBe(session)
  })

  it('an unknown price never counts as reaching a cost limit, and makes the cost unknown', () => {
    const a = new Allowance(undefined, { costUsd: 0.01 }, 'a')
    a.charge(step(10, 10), null)
    expect(a.spent().costUsd).toBeNull()
    expect(a.reached()).toBeUndefined()
  })

  it('remaining is the least over the chain; a child asking for more gets what is left', () => {
    const parent = new Allowance(undefined, { tokens: 1000, costUsd: 1 }, 'parent')
    parent.charge(step(600, 0), 0.5)
    const child = new Allowance(parent, { tokens: 300 }, 'child')
    expect(child.remaining()).toEqual({ tokens: 300, costUsd: 0.5 })
    expect(tightest({ tokens: 1_000_000, costUsd: 9 }, child.remaining())).toEqual({ tokens: 300, costUsd: 0.5 })
  })

  it('warns at 80 % of any limit, steps and wall time included', () => {
    const a = new Allowance(undefined, { steps: 5 }, 'a')
    for (let i = 0; i < 3; i++) a.charge(step(1, 1), 0)
    expect(a.warning()).toBe(false)
    a.charge(step(1, 1), 0)
    expect(a.warning()).toBe(true)
    const timed = new Allowance(undefined, { seconds: 10 }, 't', {}, 0)
    expect(timed.reached(9_000)).toBeUndefined()
    expect(timed.warning(8_000)).toBe(true)
    expect(timed.reached(10_000)?.field).toBe('seconds')
  })

  it('extend raises the reached limit for this run; the view shows the nearest limited allowance', () => {
    const session = new Allowance(undefined, { tokens: 100 }, 'the session budget', { tokens: 100 })
    const turn = new Allowance(session, {}, 'this turn')
    expect(turn.view()).toMatchObject({ limit: { tokens: 100 }, reached: 'tokens', owner: 'the session budget' })
    session.extend({ tokens: 100 })
    expect(turn.reached()).toBeUndefined()
    expect(turn.view()).toMatchObject({ limit: { tokens: 200 }, spent: { tokens: 100 }, warning: false, owner: 'the session budget' })
    expect(new Allowance(undefined, {}, 'free').view()).toBeUndefined()
  })

  it('tells the turn of every charge that reaches it (the daily spend is recorded there)', () => {
    const turn = new Allowance(undefined, {}, 'turn')
    const seen: [number, number | null][] = []
    turn.onCharge = (t, c) => seen.push([t, c])
    new Allowance(new Allowance(turn, {}, 'child'), {}, 'grandchild').charge(step(10, 5), 0.001)
    expect(seen).toEqual([[15, 0.001]])
  })
  it('stops before a request that would go past a limit, expecting it to spend what the last one did', () => {
    const a = new Allowance(undefined, { tokens: 400, costUsd: 1 }, 'the budget')
    // A run's first request has nothing to go by.
    expect(a.reached()).toBeUndefined()
    a.charge(step(100, 50), 0.1)
    expect(a.reached()).toBeUndefined()
    a.charge(step(100, 50), 0.1)
    // 300 spent, the last request took 150: the next would make 450 > 400.
    expect(a.reached()).toEqual({ allowance: a, field: 'tokens', predicted: { tokens: 150, costUsd: 0.1 } })
    // The view says reached only for the run it stops (one that answers now never makes that request).
    expect(a.view()?.reached).toBeUndefined()
    expect(a.view(Date.now(), a.reached())).toMatchObject({ reached: 'tokens', spent: { tokens: 300 } })
  })
})
