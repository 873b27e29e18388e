import { afterEach, describe, expect, it } from 'vitest'
import { HostError, type MessageWithParts } from '../../src-shared'
import { startScriptedChatServer, type ScriptedChatResponse, type ScriptedChatServer } from '../models/testing'
import { createHarness, textOf, waitFor, type Harness } from '../testing/harness'

let h: Harness | undefined
const servers: ScriptedChatServer[] = []
afterEach(async () => {
  await h?.close()
  h = undefined
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

/** A loopback OpenAI-compatible server answering from `answer(lastUserText)`; `state.fail` makes it answer 500. */
async function server(answer: (text: string) => ScriptedChatResponse): Promise<ScriptedChatServer & { state: { fail: boolean } }> {
  const state = { fail: false }
  const s = await startScriptedChatServer({
    respond: (body) => {
      if (state.fail) return { status: 500 }
      const messages = (body as { messages: { role: string; content: unknown }[] }).messages
      const last = [...messages].reverse().find((m) => m.role === 'user')
      return answer(typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content))
    },
  })
  servers.push(s)
  return Object.assign(s, { state })
}

const prompts = (s: ScriptedChatServer) => s.requests.map((r) => JSON.stringify((r as { messages: unknown[] }).messages))
const visible = (h: Harness, sessionId: string) => h.host.store.transcript.listMessages(sessionId)
const roles = (messages: MessageWithParts[]) => messages.map((m) => (m.metadata.error ? 'error' : m.role))
const settle = async (h: Harness) => {
  await h.host.runner.idle()
  h.host.store.flush()
}

async function hostWith(providers: Record<string, ScriptedChatServer>, model: string): Promise<Harness> {
  return createHarness({
    config: {
      model,
      providers: Object.fromEntries(Object.entries(providers).map(([name, s]) => [name, { type: 'openai-compatible', baseURL: s.url }])),
    },
    script: { agents: { title: [{ text: 'Title', repeat: true }] } },
  })
}

describe('switching the model changes the next turn of the open session', () => {
  it('the next turn goes to the new provider; each answer records the model it came from; the header model is the new one', async () => {
    const one = await server(() => ({ text: 'from one' }))
    const two = await server(() => ({ text: 'from two' }))
    h = await hostWith({ one, two }, 'one/small')
    const first = await h.run('hello')
    const { session } = await h.host.api.calls['sessions.setModel']({ sessionId: first.sessionId, model: 'two/large' })
    expect(session.model).toEqual({ provider: 'two', model: 'large' })
    const second = await h.run('again', { sessionId: first.sessionId })
    expect(textOf(second.messages)).toEqual(['from one', 'from two'])
    expect(second.messages.filter((m) => m.role === 'assistant').map((m) => m.metadata.model)).toEqual([
      { provider: 'one', model: 'small' },
      { provider: 'two', model: 'large' },
    ])
    expect((two.requests[0] as { model: string }).model).toBe('large')
    expect(h.events.some((e) => e.event.type === 'session_updated' && e.event.session.model?.provider === 'two')).toBe(true)
  })

  it.each([
    ['no such provider', 'nope/x', /no provider 'nope'/],
    ['not provider/model', 'just-a-name', /invalid model "just-a-name"/],
  ])('refuses %s, naming the field, and keeps the model', async (_name, model, message) => {
    h = await createHarness()
    const r = await h.run('hi')
    const call = h.host.api.calls['sessions.setModel']({ sessionId: r.sessionId, model })
    await expect(call).rejects.toMatchObject({ code: 'config_error', message: expect.stringMatching(message), data: { fields: { model: expect.any(String) } } })
    expect(h.host.store.sessions.getSession(r.sessionId)?.model).toEqual({ provider: 'script', model: 'test' })
  })
})

describe('errors are part of the transcript; retry, regenerate and edit hide what they replace', () => {
  it('a 500 is stored where the turn failed; Retry runs the same message again; the error stays hidden, never below later answers', async () => {
    const s = await server((text) => ({ text: `answer to ${text}` }))
    h = await hostWith({ s }, 's/m')
    s.state.fail = true
    const r = await h.run('first question')
    const failed = visible(h, r.sessionId)
    expect(roles(failed)).toEqual(['user', 'error'])
    expect(failed[1].metadata.error).toMatchObject({ code: 'model_unavailable', message: expect.stringMatching(/failed after 4 attempts/) })
    expect(h.host.store.sessions.getSession(r.sessionId)?.status).toBe('error')

    s.state.fail = false
    const retried = await h.host.api.calls['messages.retry']({ sessionId: r.sessionId, requestId: 'retry-1' })
    expect(retried.duplicate).toBe(false)
    await settle(h)
    // Idempotent: the same request id does not run it twice.
    expect((await h.host.api.calls['messages.retry']({ sessionId: r.sessionId, requestId: 'retry-1' })).duplicate).toBe(true)
    await settle(h)
    const after = visible(h, r.sessionId)
    expect(roles(after)).toEqual(['user', 'assistant'])
    expect(textOf(after)).toEqual(['answer to first question'])
    const all = h.host.store.transcript.listMessages(r.sessionId, { includeHidden: true })
    expect(all.filter((m) => m.metadata.hiddenReason === 'retried').map((m) => roles([m])[0])).toEqual(['error'])
    expect(h.events.some((e) => e.event.type === 'messages_hidden' && e.event.messageIds.includes(failed[1].id))).toBe(true)
    // The model saw the question once, not the error.
    expect(prompts(s).at(-1)).not.toContain('failed after')
    expect(prompts(s).at(-1)?.match(/first question/g)).toHaveLength(1)
  })

  it('an error followed by a new message stays in place (before the later answer), also after a reload', async () => {
    const s = await server((text) => ({ text: `answer to ${text}` }))
    h = await hostWith({ s }, 's/m')
    s.state.fail = true
    const r = await h.run('one')
    s.state.fail = false
    await h.run('two', { sessionId: r.sessionId })
    const reloaded = await h.host.api.calls['sessions.get']({ sessionId: r.sessionId })
    expect(roles(reloaded.messages)).toEqual(['user', 'error', 'user', 'assistant'])
    expect(textOf(reloaded.messages).at(-1)).toBe('answer to two')
  })

  it('Regenerate replaces the last answer', async () => {
    let n = 0
    const s = await server(() => ({ text: `take ${++n}` }))
    h = await hostWith({ s }, 's/m')
    const r = await h.run('write a haiku')
    const [before] = textOf(visible(h, r.sessionId))
    await h.host.api.calls['messages.retry']({ sessionId: r.sessionId, requestId: 'regen' })
    await settle(h)
    const after = textOf(visible(h, r.sessionId))
    expect(after).toHaveLength(1)
    expect(after[0]).toMatch(/^take \d+$/)
    expect(after[0]).not.toBe(before)
    expect(textOf(visible(h, r.sessionId), 'user')).toEqual(['write a haiku'])
  })

  it('Edit hides the edited message and everything after it, sends the new text, and the model never sees the old one', async () => {
    const s = await server((text) => ({ text: `answer to ${text}` }))
    h = await hostWith({ s }, 's/m')
    const r = await h.run('first')
    await h.run('second with a typo', { sessionId: r.sessionId })
    const second = visible(h, r.sessionId).filter((m) => m.role === 'user')[1]
    await h.host.api.calls['messages.edit']({ sessionId: r.sessionId, requestId: 'edit-1', messageId: second.id, text: 'second, fixed' })
    await settle(h)
    expect(textOf(visible(h, r.sessionId), 'user')).toEqual(['first', 'second, fixed'])
    expect(textOf(visible(h, r.sessionId))).toEqual(['answer to first', 'answer to second, fixed'])
    expect(prompts(s).at(-1)).not.toContain('typo')
    // Nothing is deleted: the old turn is still stored, marked.
    const hidden = h.host.store.transcript.listMessages(r.sessionId, { includeHidden: true }).filter((m) => m.metadata.hiddenReason === 'edited')
    expect(hidden.map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it.each([
    ['retry while the session runs', (h: Harness, id: string) => h.host.api.calls['messages.retry']({ sessionId: id, requestId: 'x' }), 'conflict'],
    ['edit a message that is not the person’s', (h: Harness, id: string, assistantId: string) => h.host.api.calls['messages.edit']({ sessionId: id, requestId: 'y', messageId: assistantId, text: 'z' }), 'invalid_request'],
    ['edit a message that does not exist', (h: Harness, id: string) => h.host.api.calls['messages.edit']({ sessionId: id, requestId: 'z', messageId: 'msg_nope', text: 'z' }), 'not_found'],
  ] as const)('refuses to %s', async (name, call, code) => {
    h = await createHarness({ script: { agents: { build: [{ text: 'done' }, { text: 'slow', delayMs: 400 }], title: [{ text: 't', repeat: true }] } } })
    const r = await h.run('go')
    const assistantId = visible(h, r.sessionId).find((m) => m.role === 'assistant')!.id
    if (name.includes('runs')) await h.host.api.calls['messages.prompt']({ sessionId: r.sessionId, requestId: 'slow', text: 'slow one' })
    await expect(call(h, r.sessionId, assistantId)).rejects.toSatisfy((e) => HostError.isInstance(e) && e.code === code)
    await settle(h)
  })
})

describe('tokens and cost of a conversation include its subagents', () => {
  it('the root counts its inspectable and opaque children (at any depth) apart from its own; cost is known when every model is priced', async () => {
    h = await createHarness({
      config: { providers: { script: { models: { test: { pricing: { input: 1, output: 2 } } } } } },
      script: {
        usage: { input: 100, output: 10 },
        agents: {
          build: [
            { step: 1, tools: [{ name: 'task', input: { subagent_type: 'general', description: 'inspectable', prompt: 'x' } }, { name: 'task', input: { subagent_type: 'explore', description: 'opaque', prompt: 'y' } }] },
            { step: 2, text: 'both done' },
          ],
          general: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'explore', description: 'grandchild', prompt: 'z' } }] }, { step: 2, text: 'child done' }],
          explore: [{ text: 'looked', repeat: true }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const r = await h.run('go')
    const root = h.host.store.sessions.getSession(r.sessionId)!
    // own: 2 steps; subagents: general (2 steps) + its explore (1) + the root's explore (1)
    expect(root.usage).toMatchObject({ prompt: 200, completion: 20, total: 220 })
    expect(root.subagentUsage).toMatchObject({ prompt: 400, completion: 40, total: 440 })
    expect(root.costUsd).toBeCloseTo((200 * 1 + 20 * 2) / 1e6, 9)
    expect(root.subagentCostUsd).toBeCloseTo((400 * 1 + 40 * 2) / 1e6, 9)
    expect(root.unpricedTokens).toBe(0)
    const child = h.host.store.sessions.listSessions({ parentId: r.sessionId })[0]
    expect(child.usage.total).toBe(220)
    expect(child.subagentUsage?.total).toBe(110)
  })

  it('tokens of a model without a price are counted as unpriced (the cost shown is then a lower bound)', async () => {
    const s = await server(() => ({ text: 'hi', usage: { prompt: 30, completion: 5 } }))
    h = await hostWith({ s }, 's/m')
    const r = await h.run('hello')
    expect(h.host.store.sessions.getSession(r.sessionId)).toMatchObject({ costUsd: 0, unpricedTokens: 35 })
  })
})

describe('search covers message text', () => {
  it('finds a session by a word from an answer, with a snippet', async () => {
    h = await createHarness({ script: { agents: { build: [{ text: 'The flux capacitor needs 1.21 gigawatts.' }, { text: 'Something else.' }], title: [{ text: 't', repeat: true }] } } })
    const a = await h.run('how much power?')
    await h.run('another', {})
    const { hits } = await h.host.api.calls['sessions.search']({ workspaceRoot: h.workdir, query: 'gigawatt' })
    expect(hits.map((x) => x.sessionId)).toEqual([a.sessionId])
    expect(hits[0].snippet).toContain('\u0002gigawatts\u0003')
  })
})

describe('plan → build in the client', () => {
  it('an approved plan_exit announces the new active agent to viewers (session_updated with activeAgent build)', async () => {
    h = await createHarness({
      script: { agents: { plan: [{ step: 1, tools: [{ name: 'plan_exit', input: { plan: 'do it' } }] }, { step: 2, text: 'ok' }], title: [{ text: 't', repeat: true }] } },
    })
    const { sessionId } = await h.run('plan', { agent: 'plan', wait: false })
    const approval = await waitFor(() => h!.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })[0])
    await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
    await settle(h)
    const update = h.events.find((e) => e.event.type === 'session_updated' && e.event.session.metadata.activeAgent === 'build')
    expect(update?.event).toMatchObject({ session: { metadata: { activeAgent: 'build', activeAgentSince: expect.any(Number) } } })
  })
})

describe('a host that stops starts nothing new', () => {
  it('the run cut short by stop() does not drain the next queued prompt: it stays queued for the next host', async () => {
    h = await createHarness({ script: { agents: { build: [{ text: 'slow', delayMs: 2000 }, { text: 'second' }], title: [{ text: 't', repeat: true }] } } })
    const { session } = await h.host.api.calls['sessions.create']({ workspaceRoot: h.workdir })
    await h.host.api.calls['messages.prompt']({ sessionId: session.id, requestId: 'a', text: 'first' })
    const queued = await h.host.api.calls['messages.prompt']({ sessionId: session.id, requestId: 'b', text: 'second' })
    expect(queued.queued).toBe(true)
    await h.host.runner.stop('host stopping')
    await new Promise((r) => setTimeout(r, 300))
    expect(h.host.store.queue.listQueue(session.id, 'queued').map((e) => e.id)).toEqual([queued.queueId])
    await h.host.runner.idle()
  })
})
