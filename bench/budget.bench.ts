/**
 * The budget check's cost per model step (issue 25 target: < 0.1 ms). A step charges its usage to its allowance and
 * every one above it, and the next request first asks whether any limit is reached. Measured on the deepest chain a run
 * can have — the workspace's day, the session, the CLI run, the turn and five levels of children (maxDepth 5) — with
 * every field limited, so every check walks the whole chain.
 */
import { Allowance } from '../src-main/runtime'
import { round } from './stats'

const usage = { prompt: 1200, completion: 300, reasoning: 0, cacheRead: 800, cacheWrite: 0, total: 1500 }
const LIMIT = { tokens: 1e15, costUsd: 1e12, seconds: 6 * 86_400, steps: 1e12 }

export async function run(): Promise<Record<string, unknown>> {
  let chain = new Allowance(undefined, { costUsd: LIMIT.costUsd }, 'day')
  chain = new Allowance(chain, LIMIT, 'session')
  chain = new Allowance(chain, LIMIT, 'run')
  chain = new Allowance(chain, {}, 'turn')
  for (let d = 1; d <= 5; d++) chain = new Allowance(chain, LIMIT, `child ${d}`)
  const leaf = chain
  const steps = 200_000
  const measure = (): number => {
    const t0 = process.hrtime.bigint()
    let hits = 0
    for (let i = 0; i < steps; i++) {
      leaf.charge(usage, 0.0001)
      if (leaf.reached()) hits++
      // The card's live view, as each step publishes it.
      if (leaf.view() === undefined) hits++
    }
    if (hits) throw new Error('a limit was reached in the bench')
    return Number(process.hrtime.bigint() - t0) / 1e6 / steps
  }
  measure() // warm up
  const samples = [measure(), measure(), measure()]
  const perStepMs = Math.min(...samples)
  return { chainDepth: 9, steps, perStepMs: round(perStepMs, 5), perStepMicros: round(perStepMs * 1000, 2), target: '< 0.1 ms per step', met: perStepMs < 0.1 }
}
