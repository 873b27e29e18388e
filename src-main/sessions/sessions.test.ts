import { afterEach, describe, expect, it } from 'vitest'
import { buildPrompt } from '../loop'
import { createHarness, textOf, toolParts, type Harness, waitFor } from '../testing/harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

describe('specialized subagents', () => {
  it('title names the session after the first message, once', async () => {
    h = await createHarness({ script: { agents: { build: [{ text: 'hi', repeat: true }], title: [{ text: '"Fix the login bug."' }, { text: 'Second title' }] } } })
    const r = await h.run('please fix the login bug')
    await new Promise((res) => setTimeout(res, 50))
    expect(h.host.store.sessions.getSession(r.sessionId)?.title).toBe('Fix the login bug')
    await h.run('and another thing', { sessionId: r.sessionId })
    await new Promise((res) => setTimeout(res, 50))
    expect(h.host.store.sessions.getSession(r.sessionId)?.title).toBe('Fix the login bug')
  })

  it('summary runs on request and is kept on the session', async () => {
    h = await createHarness({ script: { agents: { build: [{ text: 'did it', repeat: true }], summary: [{ match: 'did it', text: '- Goal: x\n- Done: y' }], title: [{ text: 't', repeat: true }] } } })
    const r = await h.run('do x')
    const { summary } = await h.host.api.calls['sessions.summarize']({ sessionId: r.sessionId })
    expect(summary).toBe('- Goal: x\n- Done: y')
    expect(h.host.store.sessions.getSession(r.sessionId)?.metadata.summary).toBe(summary)
  })

  it('compaction summarizes older history near the context limit; the model sees summary + tail; nothing is deleted', async () => {
    const long = 'x'.repeat(400)
    h = await createHarness({
      config: { providers: { script: { type: 'script', models: { test: { contextWindow: 600 } } } } },
      script: {
        agents: {
          build: [{ text: `answer ${long}`, repeat: true }],
          compaction: [{ text: 'SUMMARY OF EARLIER WORK' }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    // the harness wrote the script path into the provider; keep it when overriding models
    const r = await h.run(`turn 1 ${long}`)
    for (let i = 2; i <= 4; i++) await h.run(`turn ${i} ${long}`, { sessionId: r.sessionId })
    const messages = h.host.store.transcript.listMessages(r.sessionId)
    const marker = messages.find((m) => m.metadata.compaction)
    expect(marker).toBeDefined()
    expect(textOf(messages, 'user')).toEqual([1, 2, 3, 4].map((i) => `turn ${i} ${long}`))
    const prompt = buildPrompt('sys', messages)
    expect(JSON.stringify(prompt[1])).toContain('SUMMARY OF EARLIER WORK')
    expect(JSON.stringify(prompt)).not.toContain('turn 1 ')
    expect(JSON.stringify(prompt)).toContain('turn 4 ')
  })
})

describe('plan → build', () => {
  it('approving plan_exit switches the next turn to build; the session keeps its opened-with agent', async () => {
    h = await createHarness({
      script: {
        agents: {
          // No step 2: an approved plan ends the plan agent's turn without another request.
          plan: [{ step: 1, tools: [{ name: 'plan_exit', input: { plan: '1. Add a test\n2. Fix the bug' } }] }],
          build: [{ text: 'Building now.' }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const { sessionId } = await h.run('plan it', { agent: 'plan', wait: false })
    const approval = await waitFor(() => h!.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })[0])
    expect(approval.kind).toBe('plan')
    expect(approval.arguments).toEqual({ plan: '1. Add a test\n2. Fix the bug' })
    await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
    await h.host.runner.idle()
    const second = await h.run('go ahead', { sessionId })
    expect(second.final?.text).toBe('Building now.')
    const users = second.messages.filter((m) => m.role === 'user')
    expect(users[1].metadata.agent).toBe('build')
    expect(h.host.store.sessions.getSession(sessionId)?.agent).toBe('plan')
    expect(String(toolParts(second.messages)[0].data.output)).toMatch(/^The user approved the plan\. Your turn ends here/)
  })

  it('a rejected plan keeps the plan agent and the feedback reaches the model', async () => {
    h = await createHarness({
      script: {
        agents: {
          plan: [{ step: 1, tools: [{ name: 'plan_exit', input: { plan: 'rewrite everything' } }] }, { step: 2, text: 'ok, replanning' }, { text: 'still planning' }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const { sessionId } = await h.run('plan it', { agent: 'plan', wait: false })
    const approval = await waitFor(() => h!.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })[0])
    await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'deny', feedback: 'too risky' })
    await h.host.runner.idle()
    h.host.store.flush()
    const part = toolParts(h.host.store.transcript.listMessages(sessionId))[0]
    expect(String(part.data.error)).toContain('too risky')
    const next = await h.run('again', { sessionId })
    expect(next.final?.text).toBe('still planning')
  })
})

describe('sessions', () => {
  it('a per-message agent override applies to that message only', async () => {
    h = await createHarness({ script: { agents: { build: [{ text: 'from build', repeat: true }], plan: [{ text: 'from plan' }], title: [{ text: 't', repeat: true }] } } })
    const r = await h.run('one')
    await h.host.api.calls['messages.prompt']({ sessionId: r.sessionId, requestId: 'p', text: 'two', agent: 'plan' })
    await h.host.runner.idle()
    const third = await h.run('three', { sessionId: r.sessionId })
    expect(textOf(third.messages)).toEqual(['from build', 'from plan', 'from build'])
  })

  it('queued prompts can be cancelled before they start', async () => {
    h = await createHarness({ script: { agents: { build: [{ text: 'slow', delayMs: 200 }, { text: 'never' }], title: [{ text: 't', repeat: true }] } } })
    const { sessionId } = await h.run('one', { wait: false })
    const queued = await h.host.api.calls['messages.prompt']({ sessionId, requestId: 'q', text: 'two' })
    expect(queued.queued).toBe(true)
    expect((await h.host.api.calls['queue.list']({ sessionId })).entries.map((e) => e.text)).toEqual(['two'])
    expect((await h.host.api.calls['queue.cancel']({ queueId: queued.queueId })).cancelled).toBe(true)
    await h.host.runner.idle()
    h.host.store.flush()
    expect(textOf(h.host.store.transcript.listMessages(sessionId), 'user')).toEqual(['one'])
  })

  it('lists sessions by agent mode; inspectable children are not top-level', async () => {
    h = await createHarness({ script: { agents: { '*': [{ text: 'ok', repeat: true }] } } })
    h.writeAgent('helper', { mode: 'all' })
    const build = await h.run('a')
    const helper = await h.run('b', { agent: 'helper' })
    const list = async (mode?: 'primary' | 'all' | 'subagent') => (await h!.host.api.calls['sessions.list']({ workspaceRoot: h!.workdir, mode })).sessions.map((s) => s.id)
    expect(await list('primary')).toEqual([build.sessionId])
    expect(await list('all')).toEqual([helper.sessionId])
    expect(await list('subagent')).toEqual([])
    expect((await list()).sort()).toEqual([build.sessionId, helper.sessionId].sort())
  })

  it('lists inspectable children with their parents when asked for the whole tree', async () => {
    h = await createHarness({
      script: { agents: { build: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'general', description: 'child', prompt: 'x' } }] }, { step: 2, text: 'ok' }], general: [{ text: 'done' }], title: [{ text: 't', repeat: true }] } },
    })
    const r = await h.run('go')
    const list = async (includeChildren?: boolean) =>
      (await h!.host.api.calls['sessions.list']({ workspaceRoot: h!.workdir, includeChildren })).sessions.map((s) => s.parentId)
    expect(await list()).toEqual([null])
    expect((await list(true)).sort()).toEqual([r.sessionId, null].sort())
  })
})


describe('auto-archive', () => {
  it('archives finished subagent sessions after archiveAfterMinutes, keeping them listable', async () => {
    h = await createHarness({
      script: { agents: { build: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'general', description: 'child', prompt: 'x' } }] }, { step: 2, text: 'ok' }], general: [{ text: 'done' }], title: [{ text: 't', repeat: true }] } },
    })
    const r = await h.run('go')
    const child = h.host.store.sessions.listSessions({ parentId: r.sessionId })[0]
    expect(child).toBeDefined()
    expect(h.host.store.sessions.archiveFinishedChildren(Date.now() - 60_000)).toEqual([])
    expect(h.host.store.sessions.archiveFinishedChildren(Date.now() + 1)).toEqual([child.id])
    expect(h.host.store.sessions.listSessions({ parentId: r.sessionId })).toEqual([])
    expect(h.host.store.sessions.listSessions({ parentId: r.sessionId, includeArchived: true }).map((s) => s.id)).toEqual([child.id])
    expect(h.host.store.sessions.getSession(r.sessionId)?.archivedAt).toBeNull()
  })
})

describe('questions', () => {
  it('a question from a subagent (whose file names the question tool) waits on the user at the root, and the answer reaches the model', async () => {
    h = await createHarness({
      // Subagents get `question` only when their own file names it.
      agents: { asker: { mode: 'subagent', inspectable: true, permission: { '*': 'allow', question: 'allow' } } },
      script: {
        agents: {
          build: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'asker', description: 'ask', prompt: 'ask the user' } }] }, { step: 2, text: 'done' }],
          asker: [{ step: 1, tools: [{ name: 'question', input: { question: 'Tabs or spaces?', options: ['tabs', 'spaces'] } }] }, { step: 2, text: 'noted' }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const { sessionId } = await h.run('go', { wait: false })
    const q = await waitFor(() => h!.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })[0])
    expect(q).toMatchObject({ kind: 'question', toolName: 'question', agentPath: ['build', 'asker'], arguments: { question: 'Tabs or spaces?', options: ['tabs', 'spaces'] } })
    expect(h.host.store.sessions.getSession(sessionId)?.status).toBe('waiting_on_user')
    await h.host.api.calls['approvals.answer']({ approvalId: q.id, decision: 'allow_once', feedback: 'spaces' })
    await h.host.runner.idle()
    h.host.store.flush()
    const child = h.host.store.sessions.listSessions({ parentId: sessionId })[0]
    const [part] = toolParts(h.host.store.transcript.listMessages(child.id))
    expect(part.toolState).toBe('output-available')
    expect(String(part.data.output)).toContain('spaces')
    expect(h.host.store.sessions.getSession(sessionId)?.status).toBe('idle')
  })
})
