import { afterEach, describe, expect, it } from 'vitest'
import type { MessageWithParts, TaskCard } from '../../src-shared'
import { createHarness, toolParts, waitFor, type Harness } from '../testing/harness'

/**
 * Budget rows of the subagent matrix (issue 25), generated: whose limit (the child's own, its subtree's — a grandchild
 * spends it —, the session's) × how the child runs (blocking, background, fork) × when the limit is reached (by the
 * child's first step, after its tool calls ran, or by the request it would make next). Every model step reports 100 input + 50 output tokens, so a
 * limit of 150 is reached by one step and 300 by two. In every row the child stops at the safe point between steps
 * (no tool call left half done), its card says which limit it reached, and its parent reads `reason="budget"`.
 */
type Limit = 'child' | 'subtree' | 'session'
type Mode = 'blocking' | 'background' | 'fork'
type When = 'first-step' | 'after-tools' | 'next-would-pass'

const LIMITS: Limit[] = ['child', 'subtree', 'session']
const MODES: Mode[] = ['blocking', 'background', 'fork']
const WHENS: When[] = ['first-step', 'after-tools', 'next-would-pass']
const STEP = 150

const rows = LIMITS.flatMap((limit) => MODES.flatMap((mode) => WHENS.map((when) => ({ limit, mode, when }))))

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

/** The tokens the limit allows: a child's own steps (1 or 2), plus the root's first step when the session's budget counts it. */
function tokensFor(limit: Limit, when: When): number {
  // next-would-pass: one and a half steps — after the first, the next request (as costly) would go past it.
  const childSteps = when === 'first-step' ? 1 : when === 'after-tools' ? 2 : 1.5
  return (limit === 'session' ? STEP : 0) + childSteps * STEP
}

/** A fork has no agent file: its budget is the call's (`budget` of the task call). */
function scriptOf(mode: Mode, limit: Limit, forkBudget: number | undefined) {
  const work = {
    subagent_type: mode === 'fork' ? 'fork' : 'worker',
    description: 'Do the work',
    prompt: 'WORK-NOW on it',
    ...(mode === 'background' ? { background: true } : {}),
    ...(forkBudget !== undefined ? { budget: { tokens: forkBudget } } : {}),
  }
  // The working child (or, for the subtree row, the grandchild) calls a tool at every step, forever: only a limit stops it.
  const busy = { tools: [{ name: 'list_dir', input: {} }], repeat: true }
  const worker = limit === 'subtree' ? [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'leaf', description: 'Deeper', prompt: 'LEAF-NOW' } }] }, { text: 'worker done', repeat: true }] : [busy]
  return {
    usage: { input: 100, output: 50 },
    agents: {
      // A fork runs as `build`: its replies are told apart by the directive it got.
      build: [
        ...(mode === 'fork' ? (limit === 'subtree' ? worker.map((w) => ({ match: 'WORK-NOW', ...w })) : [{ match: 'WORK-NOW', ...busy }]) : []),
        { step: 1, match: 'GO-NOW', tools: [{ name: 'task', input: work }] },
        { text: 'root done', repeat: true },
      ],
      worker,
      leaf: [busy],
      title: [{ text: 't', repeat: true }],
    },
  }
}

/** The card of the agent that spends the limit: the child, or in the subtree rows its own child. */
function spenderCard(messages: MessageWithParts[], limit: Limit): TaskCard | undefined {
  const child = toolParts(messages).find((p) => p.type === 'tool-task')?.data.subagent as TaskCard | undefined
  if (limit !== 'subtree') return child
  return toolParts(child?.transcript ?? []).find((p) => p.type === 'tool-task')?.data.subagent as TaskCard | undefined
}

describe('budget matrix: limit × mode × when', () => {
  it.each(rows.map((r) => [`${r.limit} limit, ${r.mode}, reached ${r.when}`, r] as const))('%s', async (_name, r) => {
    const tokens = tokensFor(r.limit, r.when)
    // The subtree row: the worker's budget is spent by its own first step and its grandchild's.
    const workerBudget = r.limit === 'child' ? { tokens } : r.limit === 'subtree' ? { tokens: tokens + STEP } : undefined
    h = await createHarness({
      agents: {
        worker: { mode: 'subagent', permission: { '*': 'allow' }, ...(workerBudget ? { budget: workerBudget } : {}) },
        leaf: { mode: 'subagent', permission: { '*': 'allow' } },
      },
      config: r.limit === 'session' ? { budgets: { session: { tokens } } } : {},
      // The session row runs headless: a root at its limit stops instead of asking.
      ...(r.limit === 'session' ? { headlessRun: { yes: true, allow: [] } } : {}),
      script: scriptOf(r.mode, r.limit, r.mode === 'fork' && r.limit !== 'session' ? workerBudget?.tokens : undefined),
    })
    const run = await h.run('GO-NOW please')
    const messages = await waitFor(() => {
      const all = h!.host.store.transcript.listMessages(run.sessionId)
      const card = spenderCard(all, r.limit)
      return card && card.endedAt !== null && (r.mode === 'blocking' || all.some((m) => m.metadata.task !== undefined)) ? all : undefined
    })
    const card = spenderCard(messages, r.limit)!
    expect(card.status).toBe('failed')
    expect(card.budget?.reached).toBe('tokens')
    expect(card.error).toMatch(r.limit === 'session' ? /the session budget/ : r.limit === 'child' && r.mode !== 'fork' ? /the budget of task "Do the work"/ : /budget/)
    // Its calls all ended: the limit stopped it between steps, never inside a call.
    const own = card.transcript ?? []
    const calls = toolParts(own)
    expect(calls.length).toBeGreaterThan(0)
    for (const p of calls) expect(['output-available', 'output-error']).toContain(p.toolState)
    // What the parent read: a task_error with reason="budget", what it did and that only the person gives more.
    const parentRead =
      r.mode === 'blocking' || r.limit === 'subtree'
        ? toolParts(r.limit === 'subtree' ? (spenderParentTranscript(messages) ?? []) : messages).filter((p) => p.type === 'tool-task').map((p) => String(p.data.error ?? p.data.output))
        : messages.filter((m) => m.metadata.task !== undefined).flatMap((m) => m.parts.map((p) => String(p.data.text ?? '')))
    expect(parentRead.join('\n')).toMatch(/<task_error agent="\w+" task_id="[^"]+" reason="budget">\nIt stopped at its budget, before its next model request: .* (is used up|would be used up by the next request) \(tokens: .*\)\.\nIt had made \d+ tool calls?/)
    expect(parentRead.join('\n')).toMatch(/tell the person the task needs a bigger budget/)
    // Never past the limit: it stops before a request that would go past it.
    expect(card.budget?.spent.tokens ?? 0).toBeLessThanOrEqual(card.budget?.limit.tokens ?? 0)
    if (r.limit === 'session') {
      const final = run.final ?? (await waitFor(() => h!.events.map((e) => e.event).find((e) => e.type === 'turn_complete' && e.sessionId === run.sessionId && e.finishReason === 'budget')))
      expect(['budget', 'stop']).toContain(final?.type === 'turn_complete' ? final.finishReason : undefined)
    }
  }, 30_000)
})

/** In the subtree rows, the transcript of the worker (whose task call the grandchild answered). */
function spenderParentTranscript(messages: MessageWithParts[]): MessageWithParts[] | undefined {
  const child = toolParts(messages).find((p) => p.type === 'tool-task')!.data.subagent as TaskCard
  return child.transcript
}
