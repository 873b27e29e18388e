import { afterEach, describe, expect, it } from 'vitest'
import type { ApprovalRecord, TaskCard } from '../../src-shared'
import { localDay } from '../store'
import { createHarness, toolParts, waitFor, type Harness } from '../testing/harness'

/**
 * Budgets (issue 25) where they meet the person and the model: the fan-out approval (interactive and headless), a root
 * at its budget asking to extend, a child that cannot hand out more than it has, a background respawn loop, the daily
 * cap, and spend that survives the run.
 */
let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const USAGE = { input: 100, output: 50 }
const task = (description: string, extra: Record<string, unknown> = {}) => ({ name: 'task', input: { subagent_type: 'worker', description, prompt: `do ${description}`, ...extra } })
const many = (n: number) => Array.from({ length: n }, (_, i) => task(`part ${i + 1}`))
const WORKER = { worker: { mode: 'subagent', permission: { '*': 'allow' } } }

async function pendingBudget(hh: Harness): Promise<ApprovalRecord> {
  return waitFor(() => hh.host.store.approvals.listApprovals({ status: 'pending' }).find((a) => a.kind === 'budget'))
}

function taskOutputs(messages: Parameters<typeof toolParts>[0]): string[] {
  return toolParts(messages).filter((p) => p.type === 'tool-task').map((p) => String(p.data.error ?? p.data.output))
}

describe('fan-out approval', () => {
  const script = { usage: USAGE, agents: { build: [{ step: 1, tools: many(12) }, { text: 'all asked', repeat: true }], worker: [{ text: 'part done', repeat: true }], title: [{ text: 't', repeat: true }] } }

  it('asks once for a step that starts more children than budgets.fanOut.askAboveChildren; Start runs them all', async () => {
    h = await createHarness({ agents: WORKER, script })
    const run = await h.run('fan out', { wait: false })
    const approval = await pendingBudget(h)
    expect(approval.toolName).toBe('task')
    expect(approval.arguments.summary).toBe('build wants to start 12 subagents at once.')
    expect(approval.arguments.reason).toBe('Asks because it is more than 10 at once (budgets.fanOut.askAboveChildren).')
    expect(approval.arguments.budget).toEqual({ children: 12 })
    expect(approval.alwaysSuggestions).toEqual([])
    // One question for the whole step, not one per child; nothing started while it waits.
    await new Promise((r) => setTimeout(r, 100))
    expect(h.host.store.approvals.listApprovals({ status: 'pending' })).toHaveLength(1)
    expect(h.host.runs.list('task')).toEqual([])
    await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
    await h.host.runner.idle()
    await h.host.runs.settleAll()
    const outputs = taskOutputs(h.host.store.transcript.listMessages(run.sessionId))
    expect(outputs).toHaveLength(12)
    for (const o of outputs) expect(o).toMatch(/^<task_result agent="worker"/)
  })

  it("Don't start: every call of the step gets the refusal, with the person's words, and nothing runs", async () => {
    h = await createHarness({ agents: WORKER, script })
    const run = await h.run('fan out', { wait: false })
    const approval = await pendingBudget(h)
    await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'deny', feedback: 'three at a time' })
    await h.host.runner.idle()
    await h.host.runs.settleAll()
    const outputs = taskOutputs(h.host.store.transcript.listMessages(run.sessionId))
    expect(outputs).toHaveLength(12)
    for (const o of outputs) expect(o).toBe("Not started: the person did not approve this step's fan-out (start 12 subagents at once). They said: three at a time Start fewer at a time, or do the work yourself.")
    expect(h.host.store.sessions.listSessions({}).filter((s) => s.parentId)).toEqual([])
  })

  it('headless: refused without --yes (the model is told the limit), allowed with it', async () => {
    h = await createHarness({ agents: WORKER, script, headlessRun: { yes: false, allow: [{ tool: 'task', pattern: 'worker' }] } })
    const denied = await h.run('fan out')
    for (const o of taskOutputs(denied.messages)) expect(o).toMatch(/^Not started: this step would start 12 subagents at once, which needs the person's approval \(more than 10 at once \(budgets.fanOut.askAboveChildren\)\), and no one can answer in this run \(it was started without --yes\)\. Start fewer at a time \(at most 10\)/)
    await h.close()
    h = await createHarness({ agents: WORKER, script, headlessRun: { yes: true, allow: [] } })
    const allowed = await h.run('fan out')
    expect(taskOutputs(allowed.messages).filter((o) => o.startsWith('<task_result'))).toHaveLength(12)
  })

  it('asks when the children\'s cost budgets add up past askAboveCostUsd, even for a few', async () => {
    const costly = { usage: USAGE, agents: { ...script.agents, build: [{ step: 1, tools: [task('a', { budget: { cost_usd: 2 } }), task('b', { budget: { cost_usd: 2 } })] }, { text: 'ok', repeat: true }] } }
    h = await createHarness({ agents: WORKER, script: costly, config: { budgets: { fanOut: { askAboveCostUsd: 3 } } } })
    await h.run('two costly', { wait: false })
    const approval = await pendingBudget(h)
    expect(approval.arguments.summary).toBe('build wants to start 2 subagents at once with budgets adding up to $4.00.')
    expect(approval.arguments.budget).toEqual({ children: 2, childrenCostUsd: 4 })
    await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
  })
})

describe('a root run at its budget', () => {
  const endless = { usage: USAGE, agents: { build: [{ tools: [{ name: 'list_dir', input: {} }], repeat: true }], title: [{ text: 't', repeat: true }] } }

  it('asks the person: Extend gives as much again and the run goes on; Stop ends it with the reason', async () => {
    h = await createHarness({ script: endless, config: { budgets: { session: { tokens: 300 } } } })
    const run = await h.run('work forever', { wait: false })
    const first = await pendingBudget(h)
    expect(first.toolName).toBe('budget')
    expect(first.arguments.summary).toBe('The session budget (budgets.session) is used up (tokens: 300 of 300 tokens). Extend it by 300 tokens for this run, or stop here?')
    expect(first.arguments.budget?.extendBy).toEqual({ tokens: 300 })
    expect(first.arguments.budget?.view?.reached).toBe('tokens')
    await h.host.api.calls['approvals.answer']({ approvalId: first.id, decision: 'allow_once' })
    const second = await waitFor(() => h!.host.store.approvals.listApprovals({ status: 'pending' }).find((a) => a.kind === 'budget' && a.id !== first.id))
    expect(second.arguments.summary).toMatch(/tokens: 600 of 600 tokens/)
    await h.host.api.calls['approvals.answer']({ approvalId: second.id, decision: 'deny' })
    await h.host.runner.idle()
    await h.host.runs.settleAll()
    const session = h.host.store.sessions.getSession(run.sessionId)!
    expect(session.status).toBe('idle')
    expect(session.usage.total).toBe(600)
    const done = await waitFor(() => {
      const ends = h!.events.map((e) => e.event).filter((e) => e.type === 'turn_complete' && e.sessionId === run.sessionId)
      return ends.length ? ends : undefined
    })
    expect(done.map((e) => e.type === 'turn_complete' && e.finishReason)).toEqual(['budget'])
    // The header's view: spent against the budget, reached.
    expect(session.metadata.budget).toMatchObject({ limit: { tokens: 600 }, spent: { tokens: 600 }, warning: true, reached: 'tokens' })
  })

  it('the session budget counts earlier turns: a new prompt past it stops before its first request (headless)', async () => {
    h = await createHarness({
      script: { usage: USAGE, agents: { build: [{ text: 'answer', repeat: true }], title: [{ text: 't', repeat: true }] } },
      config: { budgets: { session: { tokens: 300 } } },
      headlessRun: { yes: true, allow: [] },
    })
    const one = await h.run('first')
    await h.run('second', { sessionId: one.sessionId })
    const third = await h.run('third', { sessionId: one.sessionId })
    expect(third.final?.finishReason).toBe('budget')
    expect(h.host.store.sessions.getSession(one.sessionId)!.usage.total).toBe(300)
  })

  it("the daily cap counts every conversation of the workspace, and is kept in the store", async () => {
    h = await createHarness({
      script: { usage: USAGE, agents: { build: [{ text: 'answer', repeat: true }], title: [{ text: 't', repeat: true }] } },
      config: { budgets: { dailyCostUsd: 0.0003 }, providers: { script: { models: { test: { pricing: { input: 1, output: 1 } } } } } },
      headlessRun: { yes: true, allow: [] },
    })
    // 150 tokens at $1/M = $0.00015 a step: two conversations spend the day's $0.0003.
    expect((await h.run('a')).final?.finishReason).toBe('stop')
    expect((await h.run('b')).final?.finishReason).toBe('stop')
    const third = await h.run('c')
    expect(third.final?.finishReason).toBe('budget')
    const stop = h.host.store.transcript.listMessages(third.sessionId).find((m) => m.metadata.error !== undefined)
    expect((stop?.metadata.error as { message: string } | undefined)?.message).toMatch(/^Stopped before its next model request: this workspace's daily budget \(budgets.dailyCostUsd\) is used up \(cost: \$0.0003 of \$0.0003\)\.$/)
    expect(h.host.store.spend.dailySpend(h.workdir, localDay()).costUsd).toBeCloseTo(0.0003, 8)
  })
})

describe('a child cannot raise its own budget', () => {
  it("a task call asking for more than the caller has left gets the caller's remainder", async () => {
    h = await createHarness({
      agents: { worker: { mode: 'subagent', permission: { '*': 'allow' }, budget: { tokens: 450 } }, leaf: { mode: 'subagent', permission: { '*': 'allow' } } },
      script: {
        usage: USAGE,
        agents: {
          build: [{ step: 1, tools: [task('outer')] }, { text: 'done', repeat: true }],
          worker: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'leaf', description: 'inner', prompt: 'go deeper', budget: { tokens: 1_000_000, cost_usd: 100 } } }] }, { text: 'worker done', repeat: true }],
          leaf: [{ tools: [{ name: 'list_dir', input: {} }], repeat: true }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const run = await h.run('go')
    const outer = toolParts(run.messages).find((p) => p.type === 'tool-task')!.data.subagent as TaskCard
    const inner = toolParts(outer.transcript ?? []).find((p) => p.type === 'tool-task')!.data.subagent as TaskCard
    // It asked for a million; it got what its caller had left after its own first step (450 − 150).
    expect(inner.budget?.limit.tokens).toBe(300)
    expect(inner.budget?.limit.costUsd).toBe(100)
    expect(inner.budget?.reached).toBe('tokens')
    expect(outer.budget?.spent.tokens).toBeLessThanOrEqual(450 + 150)
  })
})

describe('a running task in the listing', () => {
  it('tasks.list carries a running background child\'s spend against its budget (the tasks panel after a reload)', async () => {
    h = await createHarness({
      agents: { worker: { mode: 'subagent', permission: { '*': 'allow' }, budget: { tokens: 10_000 } } },
      script: {
        usage: USAGE,
        agents: {
          build: [{ step: 1, tools: [task('slow', { background: true })] }, { text: 'started', repeat: true }],
          worker: [{ step: 1, tools: [{ name: 'list_dir', input: {} }] }, { text: 'done', delayMs: 1500 }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const run = await h.run('go', { wait: false })
    const entry = await (async () => {
      const end = Date.now() + 15_000
      for (;;) {
        const { tasks } = await h!.host.api.calls['tasks.list']({ rootSessionId: run.sessionId })
        const t = tasks.find((x) => x.budget?.spent.steps === 1)
        if (t) return t
        if (Date.now() > end) throw new Error('no running task with its budget was listed')
        await new Promise((r) => setTimeout(r, 20))
      }
    })()
    expect(entry.budget).toMatchObject({ limit: { tokens: 10_000 }, spent: { tokens: 150, steps: 1 }, warning: false })
    await h.host.runner.idle()
    await h.host.runs.settleAll()
  })
})

describe('background respawn loop', () => {
  it('the same background task started again and again is refused after runaway.backgroundRespawns', async () => {
    const again = task('watch', { background: true })
    h = await createHarness({
      agents: WORKER,
      config: { runaway: { backgroundRespawns: 2 } },
      script: { usage: USAGE, agents: { build: [{ step: 1, tools: [again, again, again] }, { text: 'ok', repeat: true }], worker: [{ text: 'nothing new', repeat: true }], title: [{ text: 't', repeat: true }] } },
    })
    const run = await h.run('keep watching')
    const outputs = toolParts(run.messages).filter((p) => p.type === 'tool-task').map((p) => String(p.data.error ?? p.data.output))
    expect(outputs.filter((o) => o.startsWith('Started in the background'))).toHaveLength(2)
    expect(outputs[2]).toBe(
      'Refused: this background task (worker, the same prompt) was already started 2 times in the last 10 minutes of this conversation (runaway.backgroundRespawns in config.yaml). Starting it again would repeat a loop: use the results you have, change the task, or ask the person.',
    )
  })
})
