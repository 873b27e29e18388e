import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Decision } from '../permissions'
import { decideRequests, fromCompact, loadShellGrammar, type LayeredRules } from '../permissions'
import { BUILTIN_TOOLS, runTool } from '../tools'
import { makeContext } from '../tools/testing/test-context'
import { requestsFor } from './authorize'
import { BASH_LINES, READ_ONLY_ALLOWED, RULE_SETS, type RuleSetName } from './testing/bash-lines'

/**
 * The adversarial table through the real gate: the bash tool's own asks (the line, and the files it writes),
 * decided by the real permission module under each rule set, and — only when allowed — run by real bash in the
 * sandbox. rm is denied by every set, so whatever runs must leave the victim files alone; a line's marker file
 * exists exactly when the line was allowed to run.
 */
const bash = BUILTIN_TOOLS.find((t) => t.name === 'bash')!
const VICTIMS = ['x', 'y', 'z', 'w']
let slowestJudgingMs = 0

beforeAll(() => loadShellGrammar())

it('has at least 120 lines', () => {
  expect(BASH_LINES.length).toBeGreaterThanOrEqual(120)
  expect(new Set(BASH_LINES.map((l) => l.line)).size).toBe(BASH_LINES.length)
})

/** The three rule sets as they were, then `askDefault` with read-only commands running without asking (issue 28). */
const RUNS: { name: string; set: RuleSetName; readOnly: boolean }[] = [
  ...(Object.keys(RULE_SETS) as RuleSetName[]).map((set) => ({ name: set, set, readOnly: false })),
  { name: 'askDefault with read-only commands allowed', set: 'askDefault', readOnly: true },
  { name: 'readOnly with read-only commands allowed', set: 'readOnly', readOnly: true },
]
const expected = (l: (typeof BASH_LINES)[number], run: (typeof RUNS)[number]) =>
  run.readOnly && run.set === 'askDefault' && READ_ONLY_ALLOWED.has(l.line) ? 'allow' : l[run.set]

it('read-only commands newly allow only lines that read inside the workspace: never a marker, never a denied line', () => {
  for (const l of BASH_LINES.filter((x) => READ_ONLY_ALLOWED.has(x.line))) {
    expect(l.marker, l.line).toBeUndefined()
    expect(l.allowAllButRm, l.line).toBe('allow')
    expect(l.askDefault, l.line).toBe('ask')
  }
  expect(BASH_LINES.filter((x) => READ_ONLY_ALLOWED.has(x.line))).toHaveLength(READ_ONLY_ALLOWED.size)
})

describe.each(RUNS)('under $name', (run) => {
  const set = run.set
  const chain: LayeredRules[] = [{ agent: fromCompact({ '*': 'allow' }), static: fromCompact(RULE_SETS[set]), runtime: [] }]

  it.each(BASH_LINES.map((l) => [l.line, l] as const))('%j', async (_name, l) => {
    const ctx = makeContext()
    try {
      for (const v of VICTIMS) fs.writeFileSync(path.join(ctx.workdir, v), 'victim')
      let decision: Decision | undefined
      ctx.authorize = async (asks) => {
        // This thread's CPU, not wall time: on a loaded machine the thread also waits for a core, which is not judging.
        const started = process.threadCpuUsage()
        decision = decideRequests(chain, requestsFor('bash', asks, { readOnly: run.readOnly }))
        const used = process.threadCpuUsage(started)
        slowestJudgingMs = Math.max(slowestJudgingMs, (used.user + used.system) / 1000)
        return decision.action === 'allow' ? { ok: true } : { ok: false, message: decision.reason }
      }
      const r = await runTool(bash, { command: l.line, timeoutMs: 15_000 }, ctx)
      const want = expected(l, run)
      expect(decision?.action, decision?.reason).toBe(want)
      expect(r.metadata?.denied ?? false).toBe(want !== 'allow')
      for (const v of VICTIMS) expect(fs.existsSync(path.join(ctx.workdir, v)), `${v} survives`).toBe(true)
      if (l.marker) expect(fs.existsSync(path.join(ctx.workdir, l.marker)), `marker ${l.marker}`).toBe(want === 'allow')
    } finally {
      ctx.cleanup()
    }
  })
})

// The host's own synchronous work per call is the judging; it must stay far below the 50 ms stall budget (measured in
// the thread's CPU time, so a busy machine does not fail it and a slow judge still does). The
// event-loop delay itself (monitorEventLoopDelay) is reported by bench/shell.bench.ts: inside the full test run
// the loop also waits whenever the shared CPUs are busy with other test files, which says nothing about Agentry.
it('judging stays far below the event-loop budget: every decision < 50 ms', () => {
  expect(slowestJudgingMs).toBeLessThan(50)
})
