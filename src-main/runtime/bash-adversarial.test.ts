import fs from 'node:fs'
import path from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Decision } from '../permissions'
import { decideRequests, fromCompact, loadShellGrammar, type LayeredRules } from '../permissions'
import { BUILTIN_TOOLS, runTool } from '../tools'
import { makeContext } from '../tools/test-context'
import { requestsFor } from './authorize'
import { BASH_LINES, RULE_SETS, type RuleSetName } from './testing/bash-lines'

/**
 * The adversarial table through the real gate: the bash tool's own asks (the line, and the files it writes),
 * decided by the real permission module under each rule set, and — only when allowed — run by real bash in the
 * sandbox. rm is denied by every set, so whatever runs must leave the victim files alone; a line's marker file
 * exists exactly when the line was allowed to run.
 */
const bash = BUILTIN_TOOLS.find((t) => t.name === 'bash')!
const VICTIMS = ['x', 'y', 'z', 'w']
const loop = monitorEventLoopDelay({ resolution: 5 })
let slowestJudgingMs = 0

beforeAll(async () => {
  await loadShellGrammar()
  loop.enable()
})
afterAll(() => loop.disable())

it('has at least 120 lines', () => {
  expect(BASH_LINES.length).toBeGreaterThanOrEqual(120)
  expect(new Set(BASH_LINES.map((l) => l.line)).size).toBe(BASH_LINES.length)
})

describe.each(Object.keys(RULE_SETS) as RuleSetName[])('under %s', (set) => {
  const chain: LayeredRules[] = [{ agent: fromCompact({ '*': 'allow' }), static: fromCompact(RULE_SETS[set]), runtime: [] }]

  it.each(BASH_LINES.map((l) => [l.line, l] as const))('%j', async (_name, l) => {
    const ctx = makeContext()
    try {
      for (const v of VICTIMS) fs.writeFileSync(path.join(ctx.workdir, v), 'victim')
      let decision: Decision | undefined
      ctx.authorize = async (asks) => {
        const started = performance.now()
        decision = decideRequests(chain, requestsFor('bash', asks))
        slowestJudgingMs = Math.max(slowestJudgingMs, performance.now() - started)
        return decision.action === 'allow' ? { ok: true } : { ok: false, message: decision.reason }
      }
      const r = await runTool(bash, { command: l.line, timeoutMs: 15_000 }, ctx)
      expect(decision?.action, decision?.reason).toBe(l[set])
      expect(r.metadata?.denied ?? false).toBe(l[set] !== 'allow')
      for (const v of VICTIMS) expect(fs.existsSync(path.join(ctx.workdir, v)), `${v} survives`).toBe(true)
      if (l.marker) expect(fs.existsSync(path.join(ctx.workdir, l.marker)), `marker ${l.marker}`).toBe(l[set] === 'allow')
    } finally {
      ctx.cleanup()
    }
  })
})

// The bench (bench/bash-judge.ts) reports the worst stall of a quiet run; on a shared, loaded test machine single
// scheduling hiccups happen, so the test holds the judging itself to the budget and the loop's 99th percentile.
it('judging stays far below the event-loop budget: every decision < 50 ms, the loop p99 < 50 ms', () => {
  expect(slowestJudgingMs).toBeLessThan(50)
  expect(loop.percentile(99) / 1e6).toBeLessThan(50)
})
