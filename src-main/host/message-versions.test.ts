import { afterEach, describe, expect, it } from 'vitest'
import { HostError, type MessageWithParts } from '../../src-shared'
import { startScriptedChatServer, type ScriptedChatServer } from '../models/testing'
import { createHarness, textOf, type Harness } from '../testing/harness'

/**
 * Edit with versions (issue 28) on a real host: a loopback OpenAI-compatible model answers "answer to <last user
 * text>", so the transcript and the model's prompt show which branch is live.
 */
let h: Harness | undefined
let s: ScriptedChatServer | undefined
afterEach(async () => {
  await h?.close()
  await s?.close()
  h = s = undefined
})

async function start(): Promise<Harness> {
  s = await startScriptedChatServer({
    respond: (body) => {
      const messages = (body as { messages: { role: string; content: unknown }[] }).messages
      const last = [...messages].reverse().find((m) => m.role === 'user')
      return { text: `answer to ${typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content)}` }
    },
  })
  h = await createHarness({
    config: { model: 's/m', providers: { s: { type: 'openai-compatible', baseURL: s.url } } },
    script: { agents: { title: [{ text: 'Title', repeat: true }] } },
  })
  return h
}

const calls = () => h!.host.api.calls
const settle = async () => {
  await h!.host.runner.idle()
  h!.host.store.flush()
}
const visible = (sessionId: string) => h!.host.store.transcript.listMessages(sessionId)
/** The visible conversation as "user text → answer" lines (one per user message). */
const shown = (sessionId: string) => textOf(visible(sessionId), 'user')
const userNamed = (sessionId: string, text: string) => visible(sessionId).find((m) => m.role === 'user' && textOf([m], 'user')[0] === text)!
const versionsOf = (m: MessageWithParts) => m.metadata.versions
const lastPrompt = () => JSON.stringify((s!.requests.at(-1) as { messages: unknown[] }).messages)

async function edit(sessionId: string, text: string, to: string) {
  await calls()['messages.edit']({ sessionId, requestId: `edit-${to}`, messageId: userNamed(sessionId, text).id, text: to })
  await settle()
}
async function version(sessionId: string, text: string, index: number) {
  const r = await calls()['messages.version']({ sessionId, messageId: userNamed(sessionId, text).id, index })
  await settle()
  return r
}

describe('editing a message keeps the old version and its answers, to switch back to', () => {
  it('two edits make three versions; switching to the first shows its branch, and the next prompt holds only that branch', async () => {
    await start()
    const { sessionId } = await h!.run('hello')
    await h!.run('q v1', { sessionId })
    await edit(sessionId, 'q v1', 'q v2')
    await edit(sessionId, 'q v2', 'q v3')
    expect(shown(sessionId)).toEqual(['hello', 'q v3'])
    expect(textOf(visible(sessionId))).toEqual(['answer to hello', 'answer to q v3'])
    const snapshot = await calls()['sessions.get']({ sessionId })
    expect(snapshot.messages.filter((m) => m.role === 'user').map(versionsOf)).toEqual([undefined, { index: 3, count: 3 }])
    // The created event of an edit already carries its place, for the clients that see it live.
    const created = h!.events.filter((e) => e.event.type === 'message_created' && e.event.message.role === 'user').map((e) => e.event.type === 'message_created' && e.event.message.metadata.versions)
    expect(created.slice(-2)).toEqual([{ index: 2, count: 2 }, { index: 3, count: 3 }])

    expect(await version(sessionId, 'q v3', 1)).toEqual({ messageId: expect.any(String), versions: { index: 1, count: 3 } })
    expect(shown(sessionId)).toEqual(['hello', 'q v1'])
    expect(textOf(visible(sessionId))).toEqual(['answer to hello', 'answer to q v1'])
    expect(versionsOf(userNamed(sessionId, 'q v1'))).toEqual({ index: 1, count: 3 })
    expect(h!.events.some((e) => e.event.type === 'messages_hidden' && e.event.reason === 'edited')).toBe(true)

    await h!.run('and then?', { sessionId })
    const prompt = lastPrompt()
    expect(prompt).toContain('q v1')
    expect(prompt).toContain('answer to q v1')
    expect(prompt).not.toMatch(/q v2|q v3/)
    expect(shown(sessionId)).toEqual(['hello', 'q v1', 'and then?'])

    // Back to the third: its branch, exactly; the first keeps what was added to it.
    await version(sessionId, 'q v1', 3)
    expect(textOf(visible(sessionId))).toEqual(['answer to hello', 'answer to q v3'])
    await version(sessionId, 'q v3', 1)
    expect(shown(sessionId)).toEqual(['hello', 'q v1', 'and then?'])
    // Choosing the version on screen changes nothing.
    expect((await version(sessionId, 'q v1', 1)).versions).toEqual({ index: 1, count: 3 })
    expect(shown(sessionId)).toEqual(['hello', 'q v1', 'and then?'])
  })

  it('nested edits: editing inside an older branch, and a later message of the current branch, keep every branch exact', async () => {
    await start()
    const { sessionId } = await h!.run('A')
    await h!.run('B1', { sessionId })
    await h!.run('C1', { sessionId })
    await edit(sessionId, 'B1', 'B2')
    await h!.run('D1', { sessionId })
    await edit(sessionId, 'D1', 'D2') // a later message of the current branch
    expect(shown(sessionId)).toEqual(['A', 'B2', 'D2'])

    await version(sessionId, 'B2', 1)
    expect(shown(sessionId)).toEqual(['A', 'B1', 'C1'])
    await edit(sessionId, 'C1', 'C2') // inside the older branch
    expect(shown(sessionId)).toEqual(['A', 'B1', 'C2'])
    expect(versionsOf(userNamed(sessionId, 'B1'))).toEqual({ index: 1, count: 2 })
    expect(versionsOf(userNamed(sessionId, 'C2'))).toEqual({ index: 2, count: 2 })

    await version(sessionId, 'B1', 2)
    expect(shown(sessionId)).toEqual(['A', 'B2', 'D2'])
    expect(versionsOf(userNamed(sessionId, 'D2'))).toEqual({ index: 2, count: 2 })
    await version(sessionId, 'D2', 1)
    expect(shown(sessionId)).toEqual(['A', 'B2', 'D1'])
    expect(textOf(visible(sessionId))).toEqual(['answer to A', 'answer to B2', 'answer to D1'])

    // The first branch comes back as it was left: with C2, not C1.
    await version(sessionId, 'B2', 1)
    expect(shown(sessionId)).toEqual(['A', 'B1', 'C2'])
    await version(sessionId, 'C2', 1)
    expect(shown(sessionId)).toEqual(['A', 'B1', 'C1'])
    expect(textOf(visible(sessionId))).toEqual(['answer to A', 'answer to B1', 'answer to C1'])

    // Each message is in at most one place: whatever is hidden belongs to one branch, and nothing visible is tagged.
    const all = h!.host.store.transcript.listMessages(sessionId, { includeHidden: true })
    expect(all.filter((m) => !m.metadata.hiddenAt && m.metadata.hiddenBranch)).toEqual([])
    expect(all.filter((m) => m.metadata.hiddenAt).every((m) => m.metadata.hiddenReason === 'edited' && typeof m.metadata.hiddenBranch === 'string')).toBe(true)
    expect(all.filter((m) => m.role === 'user').length).toBe(7)
  })

  it('messages taken back by Undo stay taken back when versions are switched; a switch ends the Redo offer', async () => {
    await start()
    const { sessionId } = await h!.run('A')
    await h!.run('B1', { sessionId })
    await h!.run('C', { sessionId })
    await edit(sessionId, 'B1', 'B2')
    await h!.run('D', { sessionId })
    const undone = await calls()['changes.undo']({ sessionId, toMessageId: userNamed(sessionId, 'D').id })
    expect(undone.applied).toBe(true)
    expect(shown(sessionId)).toEqual(['A', 'B2'])
    expect((await calls()['changes.list']({ sessionId })).redo).not.toBeNull()

    await version(sessionId, 'B2', 1)
    expect(shown(sessionId)).toEqual(['A', 'B1', 'C'])
    expect((await calls()['changes.list']({ sessionId })).redo).toBeNull()
    await version(sessionId, 'B1', 2)
    expect(shown(sessionId)).toEqual(['A', 'B2'])
    const d = h!.host.store.transcript.listMessages(sessionId, { includeHidden: true }).filter((m) => textOf([m], 'user')[0] === 'D' || textOf([m])[0] === 'answer to D')
    expect(d.map((m) => m.metadata.hiddenReason)).toEqual(['undone', 'undone'])

    // A version taken back by Undo leaves no version on screen: nothing to switch from.
    await calls()['changes.undo']({ sessionId, toMessageId: userNamed(sessionId, 'B2').id })
    const b1 = h!.host.store.transcript.listMessages(sessionId, { includeHidden: true }).find((m) => textOf([m], 'user')[0] === 'B1')!
    await expect(calls()['messages.version']({ sessionId, messageId: b1.id, index: 1 })).rejects.toSatisfy((e) => HostError.isInstance(e) && e.code === 'conflict' && /undone/.test(e.message))
    expect(shown(sessionId)).toEqual(['A'])
  })

  it('is refused, in one line, while the session runs or has prompts queued; an unedited message has one version', async () => {
    await start()
    const { sessionId } = await h!.run('hello')
    await edit(sessionId, 'hello', 'hello again')
    const id = userNamed(sessionId, 'hello again').id
    await calls()['messages.prompt']({ sessionId, requestId: 'busy', text: 'keep going' })
    await calls()['messages.prompt']({ sessionId, requestId: 'queued', text: 'and more' })
    const refused = calls()['messages.version']({ sessionId, messageId: id, index: 1 })
    await expect(refused).rejects.toSatisfy((e) => HostError.isInstance(e) && e.code === 'conflict' && /still working/.test(e.message) && !e.message.includes('\n'))
    await settle()
    expect(shown(sessionId)).toEqual(['hello again', 'keep going', 'and more'])
    await expect(calls()['messages.version']({ sessionId, messageId: userNamed(sessionId, 'keep going').id, index: 1 })).rejects.toSatisfy(
      (e) => HostError.isInstance(e) && e.code === 'invalid_request',
    )
  })
})
