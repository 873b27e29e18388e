import fs from 'node:fs'
import path from 'node:path'
import { methods, type SessionNotification } from '@agentclientprotocol/sdk/unstable'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCli } from '../cli/testing/cli-process'
import { acpScene, say } from './testing/acp-client'
import { childrenOf, contentText, fold, onSession } from './testing/fold'

/**
 * Subagents as ACP child sessions (the Subagent Sessions RFD), through the SDK's client and a real `agentry acp`: a
 * client that advertises `subagents` sees each child announced on its immediate parent before anything of its own,
 * its work, its states and its permission requests in its own session, and may cancel one child; a client that
 * does not sees exactly the nested tool-call view.
 */
beforeAll(() => buildCli(), 60_000)

const scenes: { remove(): Promise<void> }[] = []
afterAll(async () => Promise.all(scenes.map((s) => s.remove())))
function scene(...a: Parameters<typeof acpScene>) {
  const s = acpScene(...a)
  scenes.push(s)
  return s
}

const TITLE = { '*': [{ text: 'Title', repeat: true }] }
/** A child that writes (asked: the workspace's rules make that write ask), then starts an opaque grandchild that lists. */
const DELEGATE = {
  agents: {
    build: [
      { match: 'delegate', step: 1, text: 'Delegating.', tools: [{ name: 'task', input: { subagent_type: 'general', description: 'Write the note', prompt: 'parent-task: write the note, then look deeper' } }] },
      { match: 'delegate', step: 2, text: 'The child reported back.' },
    ],
    general: [
      { match: 'parent-task', step: 1, tools: [{ name: 'write_file', input: { path: 'note.txt', content: 'hello\n' } }] },
      { match: 'parent-task', step: 2, tools: [{ name: 'task', input: { subagent_type: 'explore', description: 'Look deeper', label: 'Deep look', prompt: 'deeper-task: list the folder' } }] },
      { match: 'parent-task', step: 3, text: 'Wrote the note and looked deeper.' },
    ],
    // opaque (no session row of its own): a child session all the same
    explore: [
      { match: 'deeper-task', step: 1, tools: [{ name: 'list_dir', input: { path: '.' } }] },
      { match: 'deeper-task', step: 2, text: 'Listed the folder.' },
    ],
    ...TITLE,
  },
}
const FILES = { '.agents/permissions.jsonc': '{ "write_file": { "note.txt": "ask" } }\n', 'README.md': '# demo\n' }

/** Every notification on a child's session comes after the `subagent_update` that announced it (on its parent). */
function announcedFirst(updates: SessionNotification[], rootId: string): void {
  const announced = new Set([rootId])
  for (const [i, n] of updates.entries()) {
    expect(announced.has(n.sessionId), `update #${i} on ${n.sessionId} before it was announced`).toBe(true)
    if (n.update.sessionUpdate === 'subagent_update') announced.add(n.update.sessionId)
  }
}

describe('a client that advertises subagents', () => {
  it('sees a child and a grandchild as child sessions: announced first, on their parent, with their states and permission requests', async () => {
    const s = scene(DELEGATE, FILES, 'acp-sub')
    const { p, sessionId: root } = await s.open({ subagents: true })
    // A request carries the child's id too: it must come after the child's announcement (the client reads in order).
    let askedAfterAnnounce = false
    p.onPermission = async (r) => {
      askedAfterAnnounce = p.updates.some((n) => n.update.sessionUpdate === 'subagent_update' && n.update.sessionId === r.sessionId)
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } }
    }
    expect((await say(p, root, 'delegate the note')).stopReason).toBe('end_turn')
    announcedFirst(p.updates, root)
    expect(askedAfterAnnounce).toBe(true)

    // The child, announced on the root: title, description, cancel; running → asks → running → done.
    const onRoot = childrenOf(p.updates, root)
    expect(onRoot.size).toBe(1)
    const [childId, child] = [...onRoot.entries()][0]
    expect(child).toMatchObject({ title: 'Write the note · general', description: 'Write the note', capabilities: { cancel: {} } })
    expect(child.states).toEqual([{ state: 'running' }, { state: 'requires_action' }, { state: 'running' }, { state: 'idle', stopReason: 'end_turn' }])

    // The grandchild, announced on the child's session (its immediate parent), never on the root.
    const onChild = childrenOf(p.updates, childId)
    expect(onChild.size).toBe(1)
    const [grandId, grand] = [...onChild.entries()][0]
    expect(grand).toMatchObject({ title: 'Deep look · explore', description: 'Look deeper', capabilities: { cancel: {} } })
    expect(grand.states).toEqual([{ state: 'running' }, { state: 'idle', stopReason: 'end_turn' }])

    // The child's permission request is on the child's session, about the child's own call; answering it resumed it.
    expect(p.permissions).toHaveLength(1)
    const asked = p.permissions[0].request
    expect(asked.sessionId).toBe(childId)
    expect(asked.toolCall.title).toBe('Write note.txt')
    const childView = fold(onSession(p.updates, childId))
    expect(childView.calls.get(asked.toolCall.toolCallId)).toMatchObject({ title: 'Write note.txt', status: 'completed' })
    // Issue 30: the request shows the new file as a diff block (no oldText), with kind and locations; the call waited
    // as pending, ran once allowed, and completed with the same diff.
    const note = path.join(s.work, 'note.txt')
    expect(asked.toolCall).toMatchObject({ kind: 'edit', status: 'pending', locations: [{ path: note }] })
    expect(asked.toolCall.content?.[0]).toEqual({ type: 'diff', path: note, newText: 'hello\n' })
    expect(childView.calls.get(asked.toolCall.toolCallId)?.statuses).toEqual(['pending', 'in_progress', 'completed'])
    expect(childView.calls.get(asked.toolCall.toolCallId)?.content).toEqual([{ type: 'diff', path: note, newText: 'hello\n' }])
    expect(fs.readFileSync(path.join(s.work, 'note.txt'), 'utf8')).toBe('hello\n')

    // Each session holds its own work: the task prompt arrives as a message from the parent, then its calls and answer.
    const prompts = (id: string) => onSession(p.updates, id).filter((u) => u.sessionUpdate === 'session_message')
    expect(prompts(childId)).toEqual([expect.objectContaining({ senderSessionId: root, recipientSessionId: childId, content: [{ type: 'text', text: 'parent-task: write the note, then look deeper' }] })])
    expect(prompts(grandId)).toEqual([expect.objectContaining({ senderSessionId: childId, recipientSessionId: grandId })])
    expect([...childView.calls.values()].map((c) => [c.title, c.status])).toEqual([
      ['Write note.txt', 'completed'],
      ['Look deeper · explore', 'completed'],
    ])
    expect(childView.messages.map((m) => m.text)).toEqual(['Wrote the note and looked deeper.'])
    const grandView = fold(onSession(p.updates, grandId))
    expect([...grandView.calls.values()].map((c) => [c.title, c.status])).toEqual([['List .', 'completed']])
    expect(grandView.messages.map((m) => m.text)).toEqual(['Listed the folder.'])

    // The root keeps its task call (card and answer, linked to the child) and its own text only.
    const rootView = fold(onSession(p.updates, root))
    const task = [...rootView.calls.values()].find((c) => c.kind === 'think')!
    expect(task).toMatchObject({ title: 'Write the note · general', status: 'completed', meta: { agentry: { childSessionId: childId } } })
    expect(contentText(task.content)).toContain('Wrote the note and looked deeper.')
    expect(contentText(task.content)).not.toContain('▸') // what the child does is in its own session
    expect(rootView.messages.map((m) => m.text)).toEqual(['Delegating.', 'The child reported back.'])
  }, 120_000)

  it('session/cancel on a child stops that child only: the root turn goes on and ends normally; a prompt to a child is refused', async () => {
    const s = scene({
      agents: {
        build: [
          { match: 'slow', step: 1, text: 'Starting a slow child.', tools: [{ name: 'task', input: { subagent_type: 'general', description: 'Slow child', prompt: 'slow-task: take your time' } }] },
          { match: 'slow', step: 2, text: 'Went on without it.' },
        ],
        general: [{ match: 'slow-task', text: 'too late', delayMs: 120_000 }],
        ...TITLE,
      },
    })
    const { p, sessionId: root } = await s.open({ subagents: true })
    const running = say(p, root, 'slow work please')
    const childId = await p.waitFor(() => [...childrenOf(p.updates, root).entries()].find(([, c]) => c.states.some((x) => x.state === 'running'))?.[0], 'the child running')

    // The child takes no prompt or settings of the client's: a clear error naming the conversation.
    const refused = { code: -32602, message: expect.stringMatching(new RegExp(`${childId} is a subagent's session: .*session/prompt.*${root}`)) }
    await expect(say(p, childId, 'hello child')).rejects.toMatchObject(refused)
    await expect(p.agent.request(methods.agent.session.setMode, { sessionId: childId, modeId: 'build' })).rejects.toMatchObject({ code: -32602 })
    await expect(p.agent.request(methods.agent.session.load, { sessionId: childId, cwd: s.work, mcpServers: [] })).rejects.toMatchObject({ code: -32602 })

    await p.agent.notify(methods.agent.session.cancel, { sessionId: childId })
    expect((await running).stopReason).toBe('end_turn')
    expect(childrenOf(p.updates, root).get(childId)?.states.at(-1)).toEqual({ state: 'idle', stopReason: 'cancelled' })
    const rootView = fold(onSession(p.updates, root))
    expect([...rootView.calls.values()].map((c) => [c.title, c.status])).toEqual([['Slow child · general', 'failed']])
    expect(rootView.messages.map((m) => m.text)).toEqual(['Starting a slow child.', 'Went on without it.'])
  }, 120_000)
})

describe('a client that does not advertise subagents', () => {
  it('gets the nested tool-call view only: nothing on another session, no child-session updates', async () => {
    const s = scene(DELEGATE, FILES, 'acp-nosub')
    const { p, sessionId: root } = await s.open()
    p.onPermission = async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } })
    expect((await say(p, root, 'delegate the note')).stopReason).toBe('end_turn')
    expect(p.updates.filter((n) => n.sessionId !== root)).toEqual([])
    expect(p.updates.filter((n) => ['subagent_update', 'session_message', 'session_message_chunk'].includes(n.update.sessionUpdate))).toEqual([])
    expect(p.permissions.map((x) => [x.request.sessionId, x.request.toolCall.title])).toEqual([[root, 'build › general: Write note.txt']])
    // Issue 30: the subagent's write, shown as a call of its own: diff block, kind, locations; pending → in_progress → completed.
    const asked = p.permissions[0].request.toolCall
    const note = path.join(s.work, 'note.txt')
    expect(asked).toMatchObject({ kind: 'edit', status: 'pending', locations: [{ path: note }] })
    expect(asked.content?.[0]).toEqual({ type: 'diff', path: note, newText: 'hello\n' })
    const own = fold(p.updates).calls.get(asked.toolCallId)
    expect(own?.statuses).toEqual(['pending', 'in_progress', 'completed'])
    expect(own?.content).toEqual([{ type: 'diff', path: note, newText: 'hello\n' }])
    const calls = [...fold(p.updates).calls.values()]
    const task = calls.find((c) => c.kind === 'think')!
    expect(task.meta).toBeUndefined()
    expect(contentText(task.content)).toContain('Wrote the note and looked deeper.')
    expect(calls.map((c) => c.status)).toEqual(calls.map(() => 'completed'))
  }, 120_000)
})
