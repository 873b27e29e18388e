import { afterEach, describe, expect, it } from 'vitest'
import type { TaskCard } from '../../src-shared'
import { startScriptedChatServer, type ScriptedChatServer } from '../models/testing'
import { createHarness, textOf, toolParts, type Harness } from '../testing/harness'

let h: Harness | undefined
let server: ScriptedChatServer | undefined
afterEach(async () => {
  await h?.close()
  await server?.close()
  h = server = undefined
})

type ChatMessage = { role: string; content?: unknown; tool_calls?: unknown[] }
type ChatRequest = { messages: ChatMessage[]; tools?: unknown[] }
const text = (m: ChatMessage) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))
const isFork = (r: ChatRequest) => r.messages.some((m) => m.role === 'user' && text(m).includes('<fork_directive>'))
const assistants = (r: ChatRequest) => r.messages.filter((m) => m.role === 'assistant').length

function commonPrefix(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

describe('task with subagent_type "fork" forks the caller', () => {
  it('the fork\'s first request repeats the parent\'s last request byte for byte, then runs in the background and reports back', async () => {
    server = await startScriptedChatServer({
      respond: (body) => {
        const r = body as ChatRequest
        if (isFork(r)) return { text: 'fork found the answer' }
        if (text(r.messages.at(-1)!).includes('[Automated notice, not from the user]')) return { text: 'parent saw the fork' }
        if (assistants(r) === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }
        if (assistants(r) === 1) return { toolCalls: [{ name: 'task', arguments: { subagent_type: 'fork', description: 'Dig deeper', prompt: 'find the answer in a.txt' } }] }
        return { text: 'parent continues' }
      },
    })
    h = await createHarness({
      files: { 'a.txt': 'alpha' },
      // The subagent policy takes web_fetch from children: a fork still sends its parent's exact tool list (for the
      // cache), while the rules keep deciding its calls.
      config: { model: 'loop/m', smallModel: 'script/small', providers: { loop: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } }, subagents: { tools: { deny: ['web_fetch'] } } },
      script: { agents: { title: [{ text: 'Fork', repeat: true }] } },
    })
    const r = await h.run('start')
    const requests = server.requests as ChatRequest[]
    const parentLast = requests.findIndex((q) => !isFork(q) && assistants(q) === 1)
    const forkFirst = requests.findIndex(isFork)
    expect(parentLast).toBeGreaterThanOrEqual(0)
    expect(forkFirst).toBeGreaterThan(parentLast)
    const p = requests[parentLast]
    const f = requests[forkFirst]
    // System prompt and tools: the same; the parent's whole conversation: the same messages, first.
    expect(JSON.stringify(f.tools)).toBe(JSON.stringify(p.tools))
    expect(JSON.stringify(f.tools)).toContain('"web_fetch"')
    expect(f.messages.slice(0, p.messages.length)).toEqual(p.messages)
    // As bytes on the wire: the bodies agree up to the end of the parent's last message.
    const raw = server.bodies[parentLast]
    const messages = JSON.stringify(p.messages)
    const endOfMessages = raw.indexOf(messages) + messages.length - 1
    expect(raw.indexOf(messages)).toBeGreaterThan(0)
    expect(commonPrefix(raw, server.bodies[forkFirst])).toBeGreaterThanOrEqual(endOfMessages)
    // Then the step that forked (with a result for the call), then the directive.
    expect(f.messages.slice(p.messages.length).map((m) => m.role)).toEqual(['assistant', 'tool', 'user'])

    // The call returned at once; the fork ran in the background, nested in the card, and reported back.
    const part = toolParts(r.messages).find((x) => x.type === 'tool-task')!
    const card = part.data.subagent as TaskCard
    expect(String(part.data.output)).toMatch(new RegExp(`^Started in the background: task_id ${card.taskId} \\(build, "Dig deeper"\\)\\.`))
    expect(card).toMatchObject({ fork: true, background: true, inspectable: false, agentType: 'build', status: 'completed', depth: 1 })
    // Its card holds only its own messages (the directive and its answer), not the inherited conversation.
    expect(card.transcript!.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(textOf(card.transcript!)).toEqual(['fork found the answer'])
    const synthetic = r.messages.filter((m) => m.metadata.synthetic)
    expect(synthetic).toHaveLength(1)
    expect(String(synthetic[0].parts[0].data.text)).toMatch(new RegExp(`^<task_result agent="build" task_id="${card.taskId}">\\nfork found the answer\\n</task_result>`))
    expect(textOf(r.messages)).toContain('parent saw the fork')
    expect(h.host.store.sessions.getSession(card.taskId)).toBeUndefined()
  })

  it.each([
    ['a fork forking again', { subagent_type: 'fork' }, /^A fork cannot fork again/],
    // Leaving the type out is no way to fork any more: it is an invalid call, whoever makes it.
    ['a fork calling task without subagent_type', {}, /subagent_type: required/],
  ])('refuses %s with a tool error', async (_name, extra, error) => {
    h = await createHarness({
      script: {
        agents: {
          build: [
            { match: 'start', step: 1, tools: [{ name: 'task', input: { subagent_type: 'fork', description: 'Fork once', prompt: 'try to fork' } }] },
            { match: 'start', step: 2, text: 'forked' },
            { match: '<fork_directive>', step: 1, tools: [{ name: 'task', input: { description: 'Fork twice', prompt: 'again', ...extra } }] },
            { match: '<fork_directive>', step: 2, text: 'could not fork again' },
            { match: 'Automated notice', text: 'noted' },
          ],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const r = await h.run('start')
    const card = toolParts(r.messages).find((x) => x.type === 'tool-task')!.data.subagent as TaskCard
    expect(card.status).toBe('completed')
    const inner = toolParts(card.transcript!).find((x) => x.type === 'tool-task')!
    expect(inner.toolState).toBe('output-error')
    expect(String(inner.data.error)).toMatch(error)
    expect(textOf(card.transcript!)).toEqual(['could not fork again'])
  })

  it.each([
    ['a "fork" rule denies forking', '{ "*": "allow", "task": { "*": "allow", "fork": "deny" } }', { subagent_type: 'fork' }, /denied/],
    ['a task_id that is no child of the caller is refused', '{ "*": "allow" }', { subagent_type: 'fork', task_id: 'ses_x' }, /^task_id ses_x is not a subagent of this session/],
  ])('%s', async (_name, permissions, extra, error) => {
    h = await createHarness({
      permissions,
      script: {
        agents: {
          build: [{ step: 1, tools: [{ name: 'task', input: { description: 'Fork', prompt: 'x', ...extra } }] }, { step: 2, text: 'ok' }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const r = await h.run('go')
    const part = toolParts(r.messages).find((x) => x.type === 'tool-task')!
    expect(part.toolState).toBe('output-error')
    expect(String(part.data.error)).toMatch(error)
  })

  it('a fork is not continued by its task_id: the model is told to start a new fork', async () => {
    let forkId = ''
    server = await startScriptedChatServer({
      respond: (body) => {
        const r = body as ChatRequest
        if (isFork(r)) return { text: 'fork done' }
        const last = text(r.messages.at(-1)!)
        if (last.includes('[Automated notice, not from the user]')) return { text: 'seen' }
        if (last === 'start') return { toolCalls: [{ name: 'task', arguments: { subagent_type: 'fork', description: 'Fork', prompt: 'look' } }] }
        if (last === 'again') return { toolCalls: [{ name: 'task', arguments: { task_id: forkId, description: 'Fork again', prompt: 'more' } }] }
        return { text: 'ok' }
      },
    })
    h = await createHarness({ config: { model: 'loop/m', smallModel: 'script/small', providers: { loop: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } } }, script: { agents: { title: [{ text: 'T', repeat: true }] } } })
    const first = await h.run('start')
    forkId = (toolParts(first.messages).find((x) => x.type === 'tool-task')!.data.subagent as TaskCard).taskId
    const second = await h.run('again', { sessionId: first.sessionId })
    const part = toolParts(second.messages).filter((x) => x.type === 'tool-task').at(-1)!
    expect(part.toolState).toBe('output-error')
    expect(String(part.data.error)).toMatch(/^That task_id is a fork, and a fork cannot be continued: start a new one \(subagent_type "fork"\)/)
  })
})
