/**
 * Steering the tree (issue 26), host side, in process with the harness and the `script` model:
 * (a) inbox answer → tool resumes: a turn whose write asks; from the `approvals.answer` call to the host publishing
 *     the write's `tool_call_end` (the tool ran and its result is stored), 20 turns of one conversation after a
 *     warm-up, with checkpoints off (the answer path itself; target < 50 ms) and on (the turn's first write then also
 *     waits for the workspace snapshot).
 * (b) `runs.map` of a 200-agent conversation (20 children × 9 grandchildren + the root), built from the stored
 *     transcripts: the snapshot the map asks for when it opens, median of 20.
 * (c) a steered message: from `sessions.steer` to the child's next model request carrying it, while the child's
 *     command runs (this is bounded by the command, so it is reported, not targeted: the delivery itself is the step gate).
 * Run: `npx tsx bench/steer.bench.ts` (prints JSON). The bench runner imports run().
 */
import type { AgentEvent } from '../src-shared'
import { loadShellGrammar } from '../src-main/permissions'
import { createHarness, flatten, waitFor } from '../src-main/testing/harness'
import { median, percentile, round, runIfMain } from './stats'

const ANSWERS = 20
const TARGET_ANSWER_MS = 50

async function answerToResume(checkpoints: boolean): Promise<number[]> {
  const h = await createHarness({
    permissions: '{ "write_file": "ask" }',
    config: { checkpoints: { enabled: checkpoints } },
    script: { agents: { build: [{ step: 1, tools: [{ name: 'write_file', input: { path: 'out.txt', content: 'x' } }], repeat: true }, { text: 'written', repeat: true }], title: [{ text: 't', repeat: true }] } },
  })
  // The moment the host publishes the write's tool_call_end, seen by a subscriber in the same process.
  let ended: ((at: number) => void) | undefined
  const unsubscribe = h.host.api.subscribe({ sessionId: 'all', afterSeq: 0 }, (m) => {
    if (m.kind === 'event' && m.event.event.type === 'tool_call_end') ended?.(performance.now())
  })
  const samples: number[] = []
  let sessionId: string | undefined
  try {
    // One conversation, turn after turn (its title is written once, by the first); the first answer warms up.
    for (let i = 0; i <= ANSWERS; i++) {
      const run = await h.run(`write ${i}`, { wait: false, ...(sessionId ? { sessionId } : {}) })
      sessionId = run.sessionId
      const approval = await waitFor(() => h.host.store.approvals.listApprovals({ rootSessionId: run.sessionId, status: 'pending' })[0], 10_000)
      // A person takes seconds to answer: by then the turn has stored its step and the host is idle.
      await new Promise((r) => setTimeout(r, 50))
      const end = new Promise<number>((resolve) => (ended = resolve))
      const t0 = performance.now()
      await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
      const ms = (await end) - t0
      if (i > 0) samples.push(ms)
      await h.host.runner.idle()
    }
  } finally {
    unsubscribe()
    await h.close()
  }
  return samples
}

async function mapOf200(): Promise<{ nodes: number; medianMs: number; p95Ms: number }> {
  const children = 20
  const grandchildren = 9
  const tasks = (agent: string, n: number, word: string) => Array.from({ length: n }, (_, i) => ({ name: 'task', input: { subagent_type: agent, description: `${word} ${i + 1}`, prompt: `${word.toUpperCase()} ${i + 1}` } }))
  const h = await createHarness({
    agents: { lead: { mode: 'subagent', permission: { '*': 'allow' } }, leaf: { mode: 'subagent', permission: { '*': 'allow' } } },
    config: { budgets: { fanOut: { askAboveChildren: 1000 } }, subagents: { maxConcurrent: 64 } },
    script: {
      agents: {
        build: [{ step: 1, tools: tasks('lead', children, 'Lead') }, { text: 'done', repeat: true }],
        lead: [{ step: 1, tools: tasks('leaf', grandchildren, 'Leaf'), repeat: true }, { text: 'lead done', repeat: true }],
        leaf: [{ text: 'leaf done', repeat: true }],
        title: [{ text: 't', repeat: true }],
      },
    },
  })
  try {
    const run = await h.run('fan out')
    const samples: number[] = []
    let nodes = 0
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now()
      nodes = (await h.host.api.calls['runs.map']({ rootSessionId: run.sessionId })).nodes.length
      samples.push(performance.now() - t0)
    }
    return { nodes, medianMs: round(median(samples), 2), p95Ms: round(percentile(samples, 95), 2) }
  } finally {
    await h.close()
  }
}

async function steerToRequest(): Promise<number> {
  await loadShellGrammar()
  const h = await createHarness({
    agents: { worker: { mode: 'subagent', permission: { '*': 'allow' } } },
    permissions: '{ "bash": "allow" }',
    script: {
      agents: {
        build: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'worker', description: 'Work', prompt: 'WORK' } }] }, { text: 'done', repeat: true }],
        worker: [{ match: 'WORK', step: 1, tools: [{ name: 'bash', input: { command: 'sleep 0.3' } }] }, { match: 'STEERED', text: 'heard', repeat: true }, { text: 'not heard', repeat: true }],
        title: [{ text: 't', repeat: true }],
      },
    },
  })
  try {
    await h.run('go', { wait: false })
    const worker = await waitFor(() => h.host.runs.list('task')[0])
    const started = (e: AgentEvent) => flatten([e]).some(({ event }) => event.type === 'tool_call_start' && event.sessionId === worker.sessionId)
    await waitFor(() => h.events.some((e) => started(e.event)))
    const t0 = performance.now()
    await h.host.api.calls['sessions.steer']({ sessionId: worker.sessionId, text: 'STEERED: stop early' })
    // The worker is opaque (no stored session): its steered message is seen in the events, as every client sees it.
    await waitFor(() => h.events.some((e) => flatten([e.event]).some(({ event }) => event.type === 'message_created' && event.sessionId === worker.sessionId && event.message.metadata.steered !== undefined)), 10_000)
    const ms = performance.now() - t0
    await h.host.runs.settleAll()
    return ms
  } finally {
    await h.close()
  }
}

export async function run(): Promise<Record<string, unknown>> {
  // Without checkpoints: the answer → resume path itself. With them (the default): the turn's first write also waits
  // for the workspace's snapshot before it runs — part of that tool's own work, not of the answer.
  const answers = await answerToResume(false)
  const withCheckpoints = await answerToResume(true)
  const map = await mapOf200()
  const steerMs = await steerToRequest()
  const figures = (xs: number[]) => ({ median: round(median(xs), 2), p95: round(percentile(xs, 95), 2), max: round(Math.max(...xs), 2) })
  return {
    answerToToolEndMs: { ...figures(answers), target: TARGET_ANSWER_MS, ok: percentile(answers, 95) < TARGET_ANSWER_MS },
    answerToToolEndWithCheckpointsMs: figures(withCheckpoints),
    runsMap200: map,
    steerToDeliveredMs: { value: round(steerMs, 1), note: 'bounded by the child command in flight (sleep 0.3): delivery happens at the next step' },
  }
}

runIfMain(import.meta.url, run)
