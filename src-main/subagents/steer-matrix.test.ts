import { afterEach, describe, expect, it } from 'vitest'
import { HostError, type MessageWithParts, type TaskCard } from '../../src-shared'
import { loadShellGrammar } from '../permissions'
import { createHarness, flatten, toolParts, waitFor, type Harness } from '../testing/harness'

/**
 * Steering rows of the subagent matrix (issue 26), generated: how the child runs (blocking, background, fork) × what
 * it is doing when the person's message comes (idle: it has finished; running: a tool call of its runs; waiting: a
 * tool call of its waits on the person's approval) × its depth (1–3). A running or waiting child takes the message at
 * its next step — after the step's tool calls are over, never inside one — as the person's, and its next answer is
 * the one that read it (the script answers "Heard you" only to a last user message holding the steered words). An
 * idle child is refused with a message that says what to do; nothing is taken silently.
 */
type Mode = 'blocking' | 'background' | 'fork'
type State = 'idle' | 'running' | 'waiting'
const MODES: Mode[] = ['blocking', 'background', 'fork']
const STATES: State[] = ['idle', 'running', 'waiting']
const DEPTHS = [1, 2, 3]
const rows = MODES.flatMap((mode) => STATES.flatMap((state) => DEPTHS.map((depth) => ({ mode, state, depth }))))

const STEER = 'STEER-WORDS change course'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

/**
 * Every agent knows every line (a fork answers as its caller's agent): `HOP-n` starts the next level, `TARGET-GO` is the
 * child under test. Its first step runs a slow command (running), one that asks (waiting), or is its answer (idle).
 */
function scriptOf(mode: Mode, state: State, depth: number) {
  const target = {
    subagent_type: mode === 'fork' ? 'fork' : 'target',
    description: 'The target',
    prompt: 'TARGET-GO now',
    ...(mode === 'background' ? { background: true } : {}),
  }
  const hop = (n: number) => ({ subagent_type: 'hop', description: `Hop ${n}`, prompt: `HOP-${n} go` })
  const startsNext = (level: number) => (level + 1 === depth ? target : hop(level + 1))
  const first =
    state === 'running'
      ? { match: 'TARGET-GO', step: 1, tools: [{ name: 'bash', input: { command: 'sleep 1' } }] }
      : state === 'waiting'
        ? { match: 'TARGET-GO', step: 1, tools: [{ name: 'bash', input: { command: 'echo asked-first' } }] }
        : { match: 'TARGET-GO', step: 1, text: 'Target finished.' }
  const lines = [
    { match: 'STEER-WORDS', text: 'Heard you: changing course.', repeat: true },
    first,
    { match: 'TARGET-GO', step: 2, text: 'Finished without reading anything new.', repeat: true },
    ...[1, 2].map((n) => ({ match: `HOP-${n}`, step: 1, tools: [{ name: 'task', input: startsNext(n) }] })),
    { match: 'HOP-', text: 'hop done', repeat: true },
    { match: 'GO-ROOT', step: 1, tools: [{ name: 'task', input: startsNext(0) }] },
    { text: 'root done', repeat: true },
  ]
  return { agents: { build: lines, hop: lines, target: lines, title: [{ text: 't', repeat: true }] } }
}

/** The target's run in the registry, once it is there (a fork runs under its caller's agent name). */
async function targetRun(h: Harness, mode: Mode, depth: number) {
  return waitFor(() => h.host.runs.list('task').find((r) => (mode === 'fork' ? r.label === 'The target' : r.agentType === 'target') && r.path.length === depth + 1))
}

/** The target's card, found below the root at any depth (opaque children nest their transcript in their card). */
function targetCard(messages: MessageWithParts[], h: Harness): TaskCard | undefined {
  for (const p of toolParts(messages)) {
    const card = p.data.subagent as TaskCard | undefined
    if (!card) continue
    if (card.description === 'The target') return card
    const below = card.inspectable ? h.host.store.transcript.listMessages(card.taskId) : (card.transcript ?? [])
    const deeper = targetCard(below, h)
    if (deeper) return deeper
  }
  return undefined
}

function transcriptOf(h: Harness, card: TaskCard): MessageWithParts[] {
  return card.inspectable ? h.host.store.transcript.listMessages(card.taskId) : (card.transcript ?? [])
}

describe('steering matrix: mode × state × depth', () => {
  it.each(rows.map((r) => [`${r.mode} child, ${r.state}, depth ${r.depth}`, r] as const))('%s', async (_name, r) => {
    await loadShellGrammar()
    h = await createHarness({
      agents: { hop: { mode: 'subagent', permission: { '*': 'allow' } }, target: { mode: 'subagent', permission: { '*': 'allow' } } },
      // The person's own rule: bash asks, whoever runs it.
      permissions: '{ "bash": { "*": "allow", "echo *": "ask" } }',
      script: scriptOf(r.mode, r.state, r.depth),
    })
    const run = await h.run('GO-ROOT please', { wait: false })
    const calls = h.host.api.calls
    if (r.state === 'idle') {
      const card = await waitFor(() => {
        const c = targetCard(h!.host.store.transcript.listMessages(run.sessionId), h!)
        return c?.endedAt ? c : undefined
      })
      await waitFor(() => !h!.host.runs.get(card.taskId))
      const refused = await calls['sessions.steer']({ sessionId: card.taskId, text: STEER }).catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(HostError)
      expect((refused as HostError).code).toBe('conflict')
      expect((refused as HostError).message).toMatch(/is not running, so there is no next step to give this to\. Send it as a new message/)
      await h.host.runs.settleAll()
      expect(transcriptOf(h, card).some((m) => m.metadata.steered)).toBe(false)
      return
    }
    const target = await targetRun(h, r.mode, r.depth)
    if (r.state === 'waiting') {
      const approval = await waitFor(() => h!.host.store.approvals.listApprovals({ rootSessionId: run.sessionId, status: 'pending' }).find((a) => a.sessionId === target.sessionId))
      expect(await calls['sessions.steer']({ sessionId: target.sessionId, text: STEER })).toEqual({ delivery: 'next_step' })
      // Nothing is delivered inside the call that waits: the message is still in the run's mailbox.
      expect(target.mailbox.map((m) => m.text)).toEqual([STEER])
      await calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
    } else {
      await waitFor(() => flatten(h!.events.map((e) => e.event)).some(({ event: e }) => e.type === 'tool_call_start' && e.sessionId === target.sessionId))
      expect(await calls['sessions.steer']({ sessionId: target.sessionId, text: STEER })).toEqual({ delivery: 'next_step' })
      expect(target.mailbox.map((m) => m.text)).toEqual([STEER])
    }
    await target.done
    const card = await waitFor(() => {
      const c = targetCard(h!.host.store.transcript.listMessages(run.sessionId), h!)
      return c?.endedAt ? c : undefined
    })
    expect(card.status).toBe('completed')
    const own = transcriptOf(h, card)
    const steeredAt = own.findIndex((m) => m.role === 'user' && m.metadata.steered === 'person')
    expect(steeredAt).toBeGreaterThan(0)
    expect(own[steeredAt].parts.map((p) => p.data.text).join('')).toBe(STEER)
    // Before it: the first step's tool call, finished (the message came between steps, never inside the call).
    const before = toolParts(own.slice(0, steeredAt))
    expect(before.length).toBe(1)
    expect(before[0].toolState).toBe('output-available')
    // After it: the answer that read it.
    const after = own.slice(steeredAt + 1).filter((m) => m.role === 'assistant')
    expect(after.map((m) => m.parts.map((p) => p.data.text).join(''))).toContain('Heard you: changing course.')
    expect(JSON.stringify(own)).not.toContain('Finished without reading anything new.')
  }, 30_000)
})
