import { afterEach, describe, expect, it } from 'vitest'
import { foldEvent, foldRunEvent, runMapOrder, type RunMap, type RunNode, type TaskCard } from '../../src-shared'
import { loadShellGrammar } from '../permissions'
import { createHarness, toolParts, waitFor, type Harness } from '../testing/harness'

/**
 * The run map's snapshot and the steering calls over the bridge (issue 26): `runs.map` of a nested fan-out while it
 * runs and once it is over, the same map kept live from the events, a person's message that never got delivered (its
 * child stopped first) coming back whole, and sessions_send delivering to a running child.
 */
let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const task = (agent: string, description: string, o: object = {}) => ({ name: 'task', input: { subagent_type: agent, description, prompt: `${description.toUpperCase()} go`, ...o } })
const subagent = { mode: 'subagent', permission: { '*': 'allow' } }

describe('runs.map', () => {
  it('lists every agent of a nested fan-out with its parent, depth, status and current tool; the events keep a copy equal to it', async () => {
    await loadShellGrammar()
    h = await createHarness({
      agents: { lead: subagent, worker: { ...subagent, inspectable: true }, slow: subagent },
      permissions: '{ "bash": "allow" }',
      script: {
        agents: {
          build: [{ step: 1, tools: [task('lead', 'Lead A'), task('lead', 'Lead B'), task('slow', 'Slow one', { background: true })] }, { text: 'root done', repeat: true }],
          lead: [{ step: 1, tools: [task('worker', 'Work 1'), task('worker', 'Work 2')], repeat: true }, { text: 'lead done', repeat: true }],
          worker: [{ text: 'worked', repeat: true }],
          slow: [{ step: 1, tools: [{ name: 'bash', input: { command: 'sleep 2' } }] }, { text: 'slow done', repeat: true }],
          title: [{ text: 'Fan-out', repeat: true }],
        },
      },
    })
    const run = await h.run('fan out please', { wait: false })
    const slow = await waitFor(() => h!.host.runs.list('task').find((r) => r.label === 'Slow one'))
    // While the slow child runs its command: it is running, and its current tool is bash.
    // (waitFor polls a synchronous check: the map call is asked again until its answer shows the command running.)
    let during: RunNode[] = []
    const map = () => h!.host.api.calls['runs.map']({ rootSessionId: run.sessionId }).then((r) => (during = r.nodes))
    await map()
    await waitFor(() => {
      void map()
      return during.find((n) => n.id === slow.sessionId)?.currentTool === 'bash'
    })
    expect(during.find((n) => n.id === slow.sessionId)?.status).toBe('running')
    await h.host.runs.settleAll()
    await waitFor(() => !h!.host.runner.isRunning(run.sessionId))
    const { nodes } = await h.host.api.calls['runs.map']({ rootSessionId: run.sessionId })
    // root + 2 leads + 4 workers + the slow one
    expect(nodes).toHaveLength(8)
    const byLabel = Object.fromEntries(nodes.map((n) => [n.label, n]))
    expect(byLabel['Fan-out']).toMatchObject({ parentId: null, depth: 0, agentType: 'build', status: 'idle' })
    expect(byLabel['Lead A']).toMatchObject({ parentId: run.sessionId, depth: 1, status: 'completed', inspectable: false })
    const workers = nodes.filter((n) => n.agentType === 'worker')
    expect(workers).toHaveLength(4)
    for (const w of workers) expect(w).toMatchObject({ depth: 2, status: 'completed', inspectable: true, currentTool: null })
    expect(new Set(workers.map((w) => w.parentId))).toEqual(new Set([byLabel['Lead A'].id, byLabel['Lead B'].id]))
    expect(byLabel['Slow one']).toMatchObject({ background: true, status: 'completed', currentTool: null })
    // Tree order: each lead followed by its workers.
    const order = runMapOrder(Object.fromEntries(nodes.map((n) => [n.id, n])))
    expect(order.map((n) => n.depth)).toEqual([0, 1, 2, 2, 1, 2, 2, 1])
    // The client's copy: the root from the snapshot, everything else folded from the root stream's events.
    let live: RunMap = { [run.sessionId]: byLabel['Fan-out'] }
    for (const e of h.events.filter((x) => x.stream === run.sessionId)) live = foldRunEvent(live, foldEvent(e.event).leaf)
    for (const n of nodes) expect(live[n.id], n.label).toMatchObject({ parentId: n.parentId, depth: n.depth, status: n.status, steps: n.steps, currentTool: null })
  })

  it('refuses a child session (the map belongs to its root) and an unknown one, saying what to do', async () => {
    h = await createHarness({ agents: { worker: { ...subagent, inspectable: true } }, script: { agents: { build: [{ step: 1, tools: [task('worker', 'Work')] }, { text: 'done', repeat: true }], worker: [{ text: 'ok', repeat: true }] } } })
    const run = await h.run('go')
    const child = (toolParts(run.messages)[0].data.subagent as TaskCard).taskId
    await expect(h.host.api.calls['runs.map']({ rootSessionId: child })).rejects.toThrow(new RegExp(`is a subagent's; the run map belongs to its conversation's root \\(${run.sessionId}\\)`))
    await expect(h.host.api.calls['runs.map']({ rootSessionId: 'ses_nope' })).rejects.toThrow(/No session ses_nope/)
  })
})

describe('sessions.steer', () => {
  it("gives the person's message back whole when the child stops before its next step", async () => {
    await loadShellGrammar()
    h = await createHarness({
      agents: { slow: subagent },
      permissions: '{ "bash": "allow" }',
      script: { agents: { build: [{ step: 1, tools: [task('slow', 'Slow one')] }, { text: 'root done', repeat: true }], slow: [{ step: 1, tools: [{ name: 'bash', input: { command: 'sleep 20' } }] }, { text: 'never', repeat: true }] } },
    })
    const run = await h.run('go', { wait: false })
    const slow = await waitFor(() => h!.host.runs.list('task')[0])
    await waitFor(() => h!.events.some((e) => JSON.stringify(e.event).includes('"tool_call_start"') && JSON.stringify(e.event).includes(slow.sessionId)))
    await h.host.api.calls['sessions.steer']({ sessionId: slow.sessionId, text: 'Stop after the first file, please.' })
    await h.host.api.calls['tasks.abort']({ taskId: slow.sessionId })
    await h.host.runs.settleAll()
    const returned = await waitFor(() => h!.events.find((e) => e.event.type === 'message_returned'))
    expect(returned.stream).toBe(run.sessionId)
    expect(returned.event).toMatchObject({ sessionId: slow.sessionId, text: 'Stop after the first file, please.', reason: 'Slow one was stopped before its next step, so it never read this message.' })
  })

  it("an agent's message to a child that is then stopped comes back too, rather than starting a turn nobody asked for", async () => {
    await loadShellGrammar()
    h = await createHarness({
      agents: { keeper: { ...subagent, inspectable: true } },
      permissions: '{ "bash": "allow" }',
      script: { agents: { build: [{ step: 1, tools: [task('keeper', 'Keeper')] }, { text: 'root done', repeat: true }], keeper: [{ step: 1, tools: [{ name: 'bash', input: { command: 'sleep 20' } }] }, { text: 'kept', repeat: true }] } },
    })
    const run = await h.run('go', { wait: false })
    const keeper = await waitFor(() => h!.host.runs.list('task')[0])
    await waitFor(() => h!.events.some((e) => JSON.stringify(e.event).includes('"tool_call_start"') && JSON.stringify(e.event).includes(keeper.sessionId)))
    expect(h.host.runs.steer(keeper.sessionId, 'Use tabs.', 'agent')).toBe(true)
    await h.host.api.calls['tasks.abort']({ taskId: keeper.sessionId })
    await h.host.runs.settleAll()
    await waitFor(() => !h!.host.runner.isRunning(run.sessionId))
    expect(h.events.find((e) => e.event.type === 'message_returned')?.event).toMatchObject({ sessionId: keeper.sessionId, text: 'Use tabs.' })
    // No turn was started on the stopped child with it.
    expect(h.host.store.transcript.listMessages(keeper.sessionId).some((m) => m.parts.some((p) => p.data.text === 'Use tabs.'))).toBe(false)
  })

  it('sessions_send reaches a running child at its next step, marked as sent by its caller, and its result says so', async () => {
    await loadShellGrammar()
    const keeperLines = [
      { match: 'KEEPER', step: 1, tools: [{ name: 'bash', input: { command: 'sleep 2' } }] },
      { match: 'Use tabs', text: 'Switched to tabs.', repeat: true },
      { text: 'kept spaces', repeat: true },
    ]
    h = await createHarness({
      agents: { keeper: { ...subagent, inspectable: true } },
      permissions: '{ "bash": "allow" }',
      script: { agents: { build: [{ step: 1, tools: [task('keeper', 'Keeper', { background: true })] }, { text: 'root done', repeat: true }], keeper: keeperLines } },
    })
    const run = await h.run('start the keeper', { wait: false })
    const keeper = await waitFor(() => h!.host.runs.list('task')[0])
    await waitFor(() => !h!.host.runner.isRunning(run.sessionId) && h!.events.some((e) => JSON.stringify(e.event).includes('"tool_call_start"') && JSON.stringify(e.event).includes(keeper.sessionId)))
    // The root, in its next turn, messages the keeper while its command still runs.
    h.setScript({
      agents: {
        build: [{ match: 'nudge', step: 1, tools: [{ name: 'sessions_send', input: { session_id: keeper.sessionId, message: 'Use tabs, not spaces.' } }] }, { text: 'nudged', repeat: true }],
        keeper: keeperLines.slice(1),
      },
    })
    const nudge = await h.run('nudge it', { sessionId: run.sessionId })
    const result = toolParts(nudge.messages).find((p) => p.type === 'tool-sessions_send')
    expect(String(result?.data.output)).toMatch(new RegExp(`^Delivered to ${keeper.sessionId} while it runs: it reads your message before its next model call`))
    await h.host.runs.settleAll()
    const own = h.host.store.transcript.listMessages(keeper.sessionId)
    const steered = own.find((m) => m.metadata.steered === 'agent')
    expect(steered?.parts[0].data.text).toBe('Use tabs, not spaces.')
    expect(own.at(-1)?.parts.map((p) => p.data.text).join('')).toBe('Switched to tabs.')
  })
})
