import { afterEach, describe, expect, it } from 'vitest'
import type { BridgeCallName } from '../../src-shared'
import { BridgeCalls } from '../../src-shared'
import { dispatchCall } from '../bridge'
import { createHarness, type Harness } from '../testing/harness'
import { explainBusy, FUZZ_AGENTS, FUZZ_PERMISSIONS, FUZZ_SCRIPT, fuzz, newFuzzState, quiesce, type Call, type FuzzOutcome } from './testing/bridge-fuzz'
import { HOSTILE_SCENARIOS } from './testing/hostile-scenarios'
import { healthProblems, settleHost } from './testing/settled-state'

/**
 * Issue 10: no valid call can stop the host. Every bridge call, in hostile orders, against a real host (store, loop,
 * script model, bash in its sandbox): the host survives, answers every call (never `internal`), leaves nothing busy or
 * running, and SQLite's integrity check passes. The daemon over WebSocket gets its own run in daemon-fuzz.test.ts.
 */
let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

async function fuzzHost(): Promise<{ h: Harness; call: Call }> {
  h = await createHarness({ script: FUZZ_SCRIPT, agents: FUZZ_AGENTS, permissions: FUZZ_PERMISSIONS })
  const host = h.host
  return { h, call: (name, input) => dispatchCall(host.api, name, input, { validateOutput: true }) }
}

function internals(outcomes: FuzzOutcome[]): string[] {
  return outcomes.filter((o) => !o.result.ok && o.result.error.code === 'internal').map((o) => `${o.name}: ${!o.result.ok && o.result.error.message}`)
}

async function expectHealthy(h: Harness, call: Call): Promise<void> {
  const left = await quiesce(call)
  expect(left, await explainBusy(call, left)).toEqual([])
  await settleHost(h.host)
  expect(healthProblems(h.host)).toEqual([])
  expect(h.host.log.faults).toBe(0)
  // Still serving: a fresh session runs a prompt to the end.
  const after = await h.run('hello')
  expect(after.final?.finishReason).toBe('stop')
}

describe('bridge fuzz against a real host', () => {
  it.each(HOSTILE_SCENARIOS)('$name: answered, contained, nothing left running, store whole', async (sc) => {
    const { h, call } = await fuzzHost()
    await sc.run(call, h.workdir)
    await expectHealthy(h, call)
  })

  it('random sequences over every bridge call (seeded)', async () => {
    const { h, call } = await fuzzHost()
    const state = newFuzzState(h.workdir)
    const seen = new Set<BridgeCallName>()
    for (const seed of [1, 2, 3, 4]) {
      const outcomes = await fuzz(call, state, { seed, steps: 80 })
      for (const o of outcomes) seen.add(o.name)
      expect(internals(outcomes), `seed ${seed}`).toEqual([])
    }
    // Every call of the contract was made at least once.
    expect([...seen].sort()).toEqual(Object.keys(BridgeCalls).sort())
    await expectHealthy(h, call)
  })
})
