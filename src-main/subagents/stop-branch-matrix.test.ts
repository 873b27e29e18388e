import { afterEach, describe, expect, it } from 'vitest'
import type { MessageWithParts, TaskCard } from '../../src-shared'
import { loadShellGrammar } from '../permissions'
import { createHarness, flatten, toolParts, waitFor, type Harness } from '../testing/harness'

/**
 * "Stop this branch" rows of the subagent matrix (issue 26): how the stopped child runs (blocking, background, fork) ×
 * its depth (1–3). The child has a child of its own (running a slow command) and a sibling (running a shorter one).
 * Stopping the child (`tasks.abort`, what the run map's button calls) stops it and its descendant, never its sibling,
 * its parent or the root; the parent reads the usual error for a stopped task and goes on.
 */
type Mode = 'blocking' | 'background' | 'fork'
const MODES: Mode[] = ['blocking', 'background', 'fork']
const rows = MODES.flatMap((mode) => [1, 2, 3].map((depth) => ({ mode, depth })))

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

function scriptOf(mode: Mode, depth: number) {
  const target = {
    subagent_type: mode === 'fork' ? 'fork' : 'target',
    description: 'The target',
    prompt: 'TARGET-GO now',
    ...(mode === 'background' ? { background: true } : {}),
  }
  const sibling = { subagent_type: 'sibling', description: 'The sibling', prompt: 'SIBLING-GO now' }
  const hop = (n: number) => ({ subagent_type: 'hop', description: `Hop ${n}`, prompt: `HOP-${n} go` })
  const next = (level: number) => (level + 1 === depth ? [target, sibling] : [hop(level + 1)])
  const task = (input: object) => ({ name: 'task', input })
  const lines = [
    { match: 'TARGET-GO', step: 1, tools: [task({ subagent_type: 'below', description: 'Below the target', prompt: 'BELOW-GO now' })] },
    { match: 'TARGET-GO', text: 'target done', repeat: true },
    { match: 'BELOW-GO', step: 1, tools: [{ name: 'bash', input: { command: 'sleep 20' } }] },
    { match: 'BELOW-GO', text: 'below done', repeat: true },
    { match: 'SIBLING-GO', step: 1, tools: [{ name: 'bash', input: { command: 'sleep 1' } }] },
    { match: 'SIBLING-GO', text: 'Sibling finished its part.', repeat: true },
    ...[1, 2].map((n) => ({ match: `HOP-${n}`, step: 1, tools: next(n).map(task) })),
    { match: 'HOP-', text: 'hop done', repeat: true },
    { match: 'GO-ROOT', step: 1, tools: next(0).map(task) },
    { text: 'root done', repeat: true },
  ]
  const agents = Object.fromEntries(['build', 'hop', 'target', 'below', 'sibling'].map((a) => [a, lines]))
  return { agents: { ...agents, title: [{ text: 't', repeat: true }] } }
}

/** Every card below the root, at any depth, by description. */
function cards(messages: MessageWithParts[], h: Harness, out = new Map<string, { card: TaskCard; parent: MessageWithParts[] }>()) {
  for (const p of toolParts(messages)) {
    const card = p.data.subagent as TaskCard | undefined
    if (!card) continue
    out.set(card.description, { card, parent: messages })
    cards(card.inspectable ? h.host.store.transcript.listMessages(card.taskId) : (card.transcript ?? []), h, out)
  }
  return out
}

describe('stop-branch matrix: mode × depth', () => {
  it.each(rows.map((r) => [`${r.mode} child at depth ${r.depth}`, r] as const))('%s', async (_name, r) => {
    await loadShellGrammar()
    const subagent = { mode: 'subagent', permission: { '*': 'allow' } }
    h = await createHarness({
      agents: { hop: subagent, target: subagent, below: subagent, sibling: subagent },
      permissions: '{ "bash": "allow" }',
      script: scriptOf(r.mode, r.depth),
    })
    const run = await h.run('GO-ROOT please', { wait: false })
    // The target's own child is running its slow command: the branch is two deep.
    const below = await waitFor(() => h!.host.runs.list('task').find((x) => x.label === 'Below the target'))
    await waitFor(() => flatten(h!.events.map((e) => e.event)).some(({ event: e }) => e.type === 'tool_call_start' && e.sessionId === below.sessionId))
    const target = h.host.runs.list('task').find((x) => x.label === 'The target')!
    expect(below.path).toContain(target.sessionId)
    expect(await h.host.api.calls['tasks.abort']({ taskId: target.sessionId })).toEqual({ aborted: true })
    await h.host.runs.settleAll()
    await waitFor(() => !h!.host.runner.isRunning(run.sessionId))
    await h.host.runs.settleAll()

    const all = cards(h.host.store.transcript.listMessages(run.sessionId), h)
    expect(all.get('The target')?.card.status).toBe('aborted')
    expect(all.get('Below the target')?.card.status).toBe('aborted')
    // The sibling finished its work; the root finished its turn.
    expect(all.get('The sibling')?.card.status).toBe('completed')
    const root = h.host.store.transcript.listMessages(run.sessionId)
    expect(root.at(-1)?.parts.map((p) => p.data.text).join('')).toBe('root done')
    // The target's parent read that it was stopped (a blocking call's error, or a background notice), and went on.
    const parent = all.get('The target')!.parent
    const read = JSON.stringify(parent)
    expect(read).toMatch(/aborted|stopped/)
    if (r.depth > 1) expect(all.get(`Hop ${r.depth - 1}`)?.card.status).toBe('completed')
  }, 40_000)
})
