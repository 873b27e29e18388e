import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../testing/harness'
import { leafRunning, leftovers, readChain, rootStatus, streamOf } from './testing/matrix-inspect'
import { expectCase } from './testing/matrix-expect'
import { caseReplies, resumePrompt, resumeReplies, rootPrompt, scriptFor } from './testing/matrix-script'
import { depthOf, matrixCases, TIMEOUT_SECONDS, type MatrixCase, type Outcome } from './testing/matrix-table'
import { MATRIX_AGENTS, MATRIX_PERMISSIONS, MATRIX_PERMISSIONS_WRITES_ASK } from './testing/matrix-fixture'

/**
 * The combination matrix (issue 12), in process: every outcome but the host restart (matrix-restart.test.ts), and
 * one more row where they meet a person: the last child waits on an approval longer than its whole timeout.
 * Each outcome is one host; its cases — parent {root, opaque, inspectable} × child {opaque, inspectable} × mode
 * {blocking, background}, plus depth-3 chains — run at once, each in a root session of its own, then every case is
 * checked on its own.
 */
const OUTCOMES: Outcome[] = ['success', 'tool-error', 'model-error', 'stop', 'timeout', 'approval-wait', 'resume']
const CASES = matrixCases().filter((c) => OUTCOMES.includes(c.outcome))

async function settle(h: Harness): Promise<void> {
  do {
    await h.host.runner.idle()
    await h.host.subagents.settle()
  } while (h.host.runner.runs().length > 0)
  h.host.store.flush()
}

async function prompt(h: Harness, sessionId: string, requestId: string, text: string): Promise<void> {
  await h.host.api.calls['messages.prompt']({ sessionId, requestId, text })
}

/** The person presses Stop once the last child runs (in the background: once the root's own turn is over). */
async function stopWhenRunning(h: Harness, c: MatrixCase, rootId: string): Promise<void> {
  const ready = () => {
    const events = streamOf(h.events, rootId)
    return leafRunning(events, depthOf(c)) && (c.mode === 'blocking' || rootStatus(events) === 'idle')
  }
  const end = Date.now() + 15_000
  while (!ready()) {
    if (Date.now() > end) throw new Error(`${c.name}: the last child never ran`)
    await new Promise((r) => setTimeout(r, 5))
  }
  await h.host.api.calls['messages.abort']({ sessionId: rootId })
}

/** Every case's last child asks; the person answers only after longer than the whole timeout. */
async function answerSlowly(h: Harness, count: number): Promise<void> {
  const pending = () => h.host.store.approvals.listApprovals({ status: 'pending' })
  const end = Date.now() + 15_000
  while (pending().length < count) {
    if (Date.now() > end) throw new Error(`only ${pending().length} of ${count} approvals were asked`)
    await new Promise((r) => setTimeout(r, 10))
  }
  await new Promise((r) => setTimeout(r, (TIMEOUT_SECONDS['approval-wait']! + 0.5) * 1000))
  for (const a of pending()) await h.host.api.calls['approvals.answer']({ approvalId: a.id, decision: 'allow_once' })
}

for (const outcome of OUTCOMES) {
  describe(`matrix: ${outcome}`, () => {
    const cases = CASES.filter((c) => c.outcome === outcome)
    const roots = new Map<string, string>()
    let h: Harness

    beforeAll(async () => {
      h = await createHarness({
        agents: MATRIX_AGENTS,
        permissions: outcome === 'approval-wait' ? MATRIX_PERMISSIONS_WRITES_ASK : MATRIX_PERMISSIONS,
        config: { subagents: { timeoutSeconds: TIMEOUT_SECONDS[outcome] ?? 300 } },
        script: scriptFor(cases.flatMap(caseReplies)),
      })
      for (const c of cases) roots.set(c.id, (await h.host.api.calls['sessions.create']({ workspaceRoot: h.workdir })).session.id)
      await Promise.all(cases.map((c) => prompt(h, roots.get(c.id)!, `${c.id}-1`, rootPrompt(c))))
      if (outcome === 'stop') await Promise.all(cases.map((c) => stopWhenRunning(h, c, roots.get(c.id)!)))
      if (outcome === 'approval-wait') await answerSlowly(h, cases.length)
      await settle(h)
      if (outcome === 'resume') {
        // Second prompt: each level resumes the one below it by the task_id it got the first time.
        const resumes = cases.flatMap((c) => resumeReplies(c, readChain(h.host.store, roots.get(c.id)!, c).map((l) => l.sessionId)))
        h.setScript(scriptFor([...cases.flatMap(caseReplies), ...resumes]))
        await Promise.all(cases.map((c) => prompt(h, roots.get(c.id)!, `${c.id}-2`, resumePrompt(c))))
        await settle(h)
      }
    }, 60_000)
    afterAll(async () => h?.close())

    it('leaves nothing running, queued or waiting', () => {
      const left = leftovers(h.host.store, [...roots.values()])
      expect(left).toEqual({ busy: [], openParts: [], nestedOpen: [], jobs: [], queued: [], cards: [], approvals: [] })
      expect(h.host.runner.runs()).toEqual([])
    })

    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      await expectCase({ host: h.host, events: h.events, roots }, c)
    })
  })
}
