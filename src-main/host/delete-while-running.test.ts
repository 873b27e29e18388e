import { afterEach, describe, expect, it } from 'vitest'
import type { SessionRecord } from '../../src-shared'
import { createHarness, waitFor, type Harness } from '../testing/harness'
import { healthProblems, settleHost } from './testing/settled-state'

/**
 * Issue 10, item 1: the daemon died on a valid `sessions.delete` of a running inspectable child, or of an idle parent
 * whose background child was running (`StoreError: flush: 1 row(s) could not be written`). Deleting or archiving
 * now stops every run in the session's tree and lets its writes settle first; these cases run on a real host.
 */
const SLOW = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ')

const task = (subagent_type: string, prompt: string, background = false) => ({ name: 'task', input: { subagent_type, description: prompt, prompt, background } })

const script = {
  agents: {
    build: [
      { match: 'blocking', step: 1, tools: [task('worker', 'slow work')] },
      { match: 'background', step: 1, tools: [task('worker', 'slow work', true)] },
      { match: 'opaque', step: 1, tools: [task('helper', 'slow opaque work')] },
      { match: 'nested', step: 1, tools: [task('lead', 'lead the work')] },
      { text: 'parent done', repeat: true },
    ],
    worker: [{ text: SLOW, chunkDelayMs: 40, repeat: true }],
    helper: [{ text: SLOW, chunkDelayMs: 40, repeat: true }],
    lead: [
      { step: 1, tools: [task('worker', 'grandchild work', true)] },
      { text: 'lead done', repeat: true },
    ],
    '*': [{ text: 'title', repeat: true }],
  },
}

const agents = {
  worker: { mode: 'subagent', inspectable: true },
  helper: { mode: 'subagent' },
  lead: { mode: 'subagent', inspectable: true },
}

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

type Target = 'root' | 'child' | 'grandchild'
interface Case {
  name: string
  prompt: string
  /** what is running when the call is made */
  ready(h: Harness, root: string): Promise<void>
  call: 'delete' | 'archive'
  target: Target
}

const children = (h: Harness, parentId: string): SessionRecord[] => h.host.store.sessions.listSessions({ parentId, includeArchived: true })
const busyChild = (h: Harness, parentId: string) => waitFor(() => children(h, parentId).find((s) => s.status === 'busy'))
const rootIdle = (h: Harness, root: string) => waitFor(() => h.host.store.sessions.getSession(root)?.status === 'idle' && !h.host.runner.isRunning(root))
const taskRunning = (h: Harness) => waitFor(() => h.events.some((e) => e.event.type === 'task_update' && e.event.task.status === 'running'))
/** The root has finished its turn while its background child still runs. */
const idleWithChildRunning = async (h: Harness, r: string): Promise<void> => {
  await busyChild(h, r)
  await rootIdle(h, r)
}

const CASES: Case[] = [
  { name: 'delete a running inspectable child (blocking)', prompt: 'blocking', call: 'delete', target: 'child', ready: async (h, r) => void (await busyChild(h, r)) },
  { name: 'archive a running inspectable child (blocking)', prompt: 'blocking', call: 'archive', target: 'child', ready: async (h, r) => void (await busyChild(h, r)) },
  { name: 'delete an idle parent whose background child runs', prompt: 'background', call: 'delete', target: 'root', ready: idleWithChildRunning },
  { name: 'archive an idle parent whose background child runs', prompt: 'background', call: 'archive', target: 'root', ready: idleWithChildRunning },
  { name: 'delete a running background child', prompt: 'background', call: 'delete', target: 'child', ready: async (h, r) => void (await busyChild(h, r)) },
  { name: 'delete a root while its opaque child runs', prompt: 'opaque', call: 'delete', target: 'root', ready: async (h) => void (await taskRunning(h)) },
  {
    name: 'delete an idle child whose background grandchild runs',
    prompt: 'nested',
    call: 'delete',
    target: 'child',
    ready: async (h, r) => {
      const lead = await waitFor(() => children(h, r)[0])
      await busyChild(h, lead.id)
    },
  },
  {
    name: 'delete a root whose grandchild runs in the background',
    prompt: 'nested',
    call: 'delete',
    target: 'root',
    ready: async (h, r) => {
      const lead = await waitFor(() => children(h, r)[0])
      await busyChild(h, lead.id)
    },
  },
]

describe('deleting or archiving a session with runs in its tree', () => {
  it.each(CASES)('$name: the call answers, runs stop, nothing is left busy, the store stays whole', async (c) => {
    h = await createHarness({ script, agents })
    const { sessionId: root } = await h.run(c.prompt, { wait: false })
    await c.ready(h, root)
    const target = c.target === 'root' ? root : c.target === 'child' ? children(h, root)[0].id : children(h, children(h, root)[0].id)[0].id
    const tree = h.host.store.sessions.subtreeIds(target)
    if (c.call === 'delete') {
      await expect(h.host.api.calls['sessions.delete']({ sessionId: target })).resolves.toEqual({ ok: true })
      for (const id of tree) expect(h.host.store.sessions.getSession(id)).toBeUndefined()
    } else {
      const { session } = await h.host.api.calls['sessions.archive']({ sessionId: target, archived: true })
      expect(session.archivedAt).not.toBeNull()
      expect(session.status).not.toBe('busy')
    }
    // Nothing in the deleted/archived tree may still run; whatever is outside it finishes normally.
    for (const id of tree) expect(h.host.runs.isRunning(id)).toBe(false)
    await settleHost(h.host)
    // Writes still in flight when the rows went have had their flush: the host is still here and healthy.
    await new Promise((r) => setTimeout(r, 50))
    expect(healthProblems(h.host)).toEqual([])
    expect(h.host.log.faults).toBe(0)
    if (c.target !== 'root' && h.host.store.sessions.getSession(root)) expect(h.host.store.sessions.getSession(root)!.status).toBe('idle')
    // The host still serves: a new prompt in a new session runs to the end.
    const after = await h.run('after')
    expect(after.final?.finishReason).toBe('stop')
  })

  it('a prompt for a session being deleted is refused; one for a deleted session is not_found', async () => {
    h = await createHarness({ script, agents })
    const { sessionId: root } = await h.run('blocking', { wait: false })
    await busyChild(h, root)
    const deleting = h.host.api.calls['sessions.delete']({ sessionId: root })
    await expect(h.host.api.calls['messages.prompt']({ sessionId: root, requestId: `more-${Math.random()}`, text: 'more' })).rejects.toMatchObject({ code: 'conflict' })
    await deleting
    await expect(h.host.api.calls['messages.prompt']({ sessionId: root, requestId: `more-${Math.random()}`, text: 'more' })).rejects.toMatchObject({ code: 'not_found' })
    await settleHost(h.host)
    expect(healthProblems(h.host)).toEqual([])
  })
})
