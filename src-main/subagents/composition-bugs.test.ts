import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, TaskCard } from '../../src-shared'
import { BUILTIN_AGENTS } from '../agents'
import { buildPrompt, CALLER_AGENT_LINE } from '../loop'
import { startScriptedChatServer, type ScriptedChatServer } from '../models/testing'
import { createHarness, flatten, textOf, toolParts, waitFor, type Harness } from '../testing/harness'

/**
 * The eight composition bugs of issue 12, each reproduced the way a person hit it (real host, script model or a
 * loopback provider). Every test here failed on the code before the fix.
 */

let h: Harness | undefined
let server: ScriptedChatServer | undefined
afterEach(async () => {
  await h?.close()
  await server?.close()
  h = undefined
  server = undefined
})

const TITLE = { title: [{ text: 'T', repeat: true }] }
const task = (subagent_type: string, description: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'task',
  input: { subagent_type, description, prompt, ...extra },
})
const cards = (messages: Parameters<typeof toolParts>[0]): TaskCard[] =>
  toolParts(messages)
    .filter((p) => p.type === 'tool-task')
    .map((p) => p.data.subagent as TaskCard)
const taskUpdates = (events: AgentEvent[]) =>
  flatten(events)
    .map((f) => f.event)
    .filter((e): e is Extract<AgentEvent, { type: 'task_update' }> => e.type === 'task_update')

async function settle(harness: Harness): Promise<void> {
  do {
    await harness.host.runner.idle()
    await harness.host.runs.settleAll()
  } while (harness.host.runner.runs().length > 0)
  harness.host.store.flush()
}

describe('issue 12 bugs', () => {
  it('1. an opaque child can delegate to the inspectable general: it gets a session row and its card completes', async () => {
    h = await createHarness({
      agents: { scout: { mode: 'subagent' } },
      script: {
        agents: {
          build: [{ step: 1, tools: [task('scout', 'Scout it', 'scout the repo')] }, { step: 2, text: 'root done' }],
          scout: [{ step: 1, tools: [task('general', 'Deep dive', 'dig in')] }, { step: 2, text: 'scout done' }],
          general: [{ text: 'general found it' }],
          ...TITLE,
        },
      },
    })
    const r = await h.run('go')
    expect(r.final?.text).toBe('root done')
    const [scout] = cards(r.messages)
    expect(scout.status).toBe('completed')
    const [generalPart] = toolParts(scout.transcript!)
    const general = generalPart.data.subagent as TaskCard
    expect(generalPart.toolState).toBe('output-available')
    expect(general).toMatchObject({ status: 'completed', inspectable: true, depth: 2 })
    expect(String(generalPart.data.output)).toMatch(new RegExp(`^<task_result agent="general" task_id="${general.taskId}">\\ngeneral found it\\n</task_result>`))
    const row = h.host.store.sessions.getSession(general.taskId)!
    // Stored under the nearest stored ancestor (the root); its logical parent is the opaque scout.
    expect(row.parentId).toBe(r.sessionId)
    expect(row.metadata.subagent).toMatchObject({ agentType: 'general', parentSessionId: scout.taskId, depth: 2, inspectable: true })
    expect(row.status).toBe('idle')
    expect(textOf(h.host.store.transcript.listMessages(row.id))).toEqual(['general found it'])
  })

  it('2. Stop with a background child running: the child is aborted, its result is stored, and no new turn starts', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [
            { step: 1, tools: [task('explore', 'Slow survey', 'survey', { background: true })] },
            { step: 2, text: 'started it' },
            { match: 'Automated notice', text: 'REACTED TO THE ABORT', repeat: true },
          ],
          explore: [{ text: 'late', delayMs: 20_000 }],
          ...TITLE,
        },
      },
    })
    const r = await h.run('go', { wait: false })
    await waitFor(() => taskUpdates(h!.events.map((e) => e.event)).some((e) => e.task.status === 'running'))
    await waitFor(() => h!.host.store.sessions.getSession(r.sessionId)?.status === 'idle')
    await h.host.api.calls['messages.abort']({ sessionId: r.sessionId })
    await settle(h)
    const messages = h.host.store.transcript.listMessages(r.sessionId)
    const [card] = cards(messages)
    const synthetic = messages.filter((m) => m.metadata.synthetic)
    expect(textOf(messages)).not.toContain('REACTED TO THE ABORT')
    expect(messages.at(-1)!.id).toBe(synthetic[0].id)
    expect(textOf(synthetic)).toEqual([`<task_error agent="explore" task_id="${card.taskId}">aborted: stopped by the user</task_error>`])
    expect(h.host.store.sessions.getSession(r.sessionId)!.status).toBe('idle')
  })

  it('3. resuming a child that is still running is refused with a tool error naming it; one run per session', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [{ step: 1, tools: [task('general', 'Long job', 'work long', { background: true })] }, { step: 2, text: 'started' }],
          // Runs until it is stopped at the end of the test: the resume attempt certainly meets it running.
          general: [{ match: 'work long', text: 'long job done', delayMs: 60_000 }],
          ...TITLE,
        },
      },
    })
    const first = await h.run('start', { wait: false })
    const running = await waitFor(() => taskUpdates(h!.events.map((e) => e.event)).find((e) => e.task.status === 'running'))
    await waitFor(() => h!.host.store.sessions.getSession(first.sessionId)?.status === 'idle')
    const taskId = running.task.taskId
    h.setScript({
      agents: {
        build: [{ step: 1, tools: [task('general', 'Long job', 'and more', { task_id: taskId })] }, { step: 2, text: 'told to wait' }],
        general: [{ match: 'and more', text: 'SECOND RUN' }],
        ...TITLE,
      },
    })
    await h.run('resume it', { sessionId: first.sessionId, wait: false })
    // (the harness's run() would wait for every child, and this one runs until it is stopped)
    await waitFor(() => textOf(h!.host.store.transcript.listMessages(first.sessionId)).includes('told to wait'))
    const resumePart = toolParts(h.host.store.transcript.listMessages(first.sessionId)).at(-1)!
    expect(resumePart.toolState).toBe('output-error')
    expect(String(resumePart.data.error)).toMatch(new RegExp(`task_id ${taskId} \\(general: "Long job"\\) is still running`))
    expect(String(resumePart.data.error)).toMatch(/wait for its result/)
    expect((await h.host.api.calls['tasks.abort']({ taskId })).aborted).toBe(true)
    await settle(h)
    // Its one run, cut short by the stop; never a second prompt in it.
    expect(h.host.store.transcript.listMessages(taskId).map((m) => [m.role, m.parts.map((p) => p.data.text)])).toEqual([['user', ['work long']]])
  })

  it('3b. a prompt to an inspectable child that is running as a task waits for the task to end (one run per session)', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [{ step: 1, tools: [task('general', 'Long job', 'work long')] }, { step: 2, text: 'root done' }],
          general: [
            { match: 'work long', text: 'task answer', delayMs: 3000 },
            { match: 'person asks', text: 'answer to the person' },
          ],
          ...TITLE,
        },
      },
    })
    const r = await h.run('go', { wait: false })
    const running = await waitFor(() => taskUpdates(h!.events.map((e) => e.event)).find((e) => e.task.status === 'running'))
    const childId = running.task.taskId
    const sent = await h.host.api.calls['messages.prompt']({ sessionId: childId, requestId: 'person-1', text: 'person asks' })
    expect(sent.queued).toBe(true)
    await settle(h)
    const child = h.host.store.transcript.listMessages(childId)
    expect(child.map((m) => [m.role, m.parts.map((p) => String(p.data.text ?? '')).join('')])).toEqual([
      ['user', 'work long'],
      ['assistant', 'task answer'],
      ['user', 'person asks'],
      ['assistant', 'answer to the person'],
    ])
    expect(h.host.store.sessions.getSession(r.sessionId)!.status).toBe('idle')
    expect(h.host.store.sessions.getSession(childId)!.status).toBe('idle')
  })

  it('4. after a parent abort the model reads <task_error agent task_id>aborted: <real reason></task_error>', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [{ step: 1, tools: [task('explore', 'Slow look', 'look')] }, { step: 2, text: 'never' }],
          explore: [{ text: 'late', delayMs: 20_000 }],
          ...TITLE,
        },
      },
    })
    const r = await h.run('go', { wait: false })
    await waitFor(() => taskUpdates(h!.events.map((e) => e.event)).some((e) => e.task.status === 'running'))
    await h.host.api.calls['messages.abort']({ sessionId: r.sessionId })
    await settle(h)
    const messages = h.host.store.transcript.listMessages(r.sessionId)
    const [part] = toolParts(messages)
    const card = part.data.subagent as TaskCard
    expect(part.toolState).toBe('output-error')
    expect(part.data.error).toBe(`<task_error agent="explore" task_id="${card.taskId}">aborted: stopped by the user</task_error>`)
    // …which is exactly what the next turn's model reads as the tool result
    expect(JSON.stringify(buildPrompt('', messages))).toContain(JSON.stringify(String(part.data.error)).slice(1, -1))
  })

  it("5. time waiting for the person's approval does not count against the child's timeout", async () => {
    h = await createHarness({
      config: { subagents: { timeoutSeconds: 2 } },
      permissions: '{ "*": "allow", "bash": "ask" }',
      agents: { worker: { mode: 'subagent' } },
      script: {
        agents: {
          build: [{ step: 1, tools: [task('worker', 'Needs approval', 'run it')] }, { step: 2, text: 'root done' }],
          worker: [{ step: 1, tools: [{ name: 'bash', input: { command: 'echo approved' } }] }, { step: 2, text: 'worker done' }],
          ...TITLE,
        },
      },
    })
    const r = await h.run('go', { wait: false })
    const approval = await waitFor(() => h!.host.store.approvals.listApprovals({ status: 'pending' })[0])
    // The person takes longer than the whole timeout to decide.
    await new Promise((res) => setTimeout(res, 3000))
    expect(h.host.store.approvals.getApproval(approval.id)!.status).toBe('pending')
    await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
    await settle(h)
    const [card] = cards(h.host.store.transcript.listMessages(r.sessionId))
    expect(card.status).toBe('completed')
    expect(textOf(card.transcript!)).toEqual(['worker done'])
  })

  it('6. title, summary and compaction run on smallModel when it is set; explore stays on the session model', async () => {
    const long = 'x'.repeat(400)
    h = await createHarness({
      files: { 'a.txt': 'alpha' },
      script: {
        agents: {
          build: [{ step: 1, match: 'turn 1', tools: [task('explore', 'Look', 'look')] }, { text: `answer ${long}`, repeat: true }],
          explore: [{ text: 'looked (session model)' }],
          '*': [{ text: 'FROM THE SESSION MODEL', repeat: true }],
        },
      },
    })
    const small = path.join(h.dataDir, 'small.yaml')
    fs.writeFileSync(small, 'agents:\n  title: [ { text: "Small title", repeat: true } ]\n  summary: [ { text: "small summary", repeat: true } ]\n  compaction: [ { text: "SMALL COMPACTION", repeat: true } ]\n')
    const configFile = path.join(h.dataDir, 'config.yaml')
    const config = fs.readFileSync(configFile, 'utf8')
    fs.writeFileSync(
      configFile,
      `${config.replace('providers:\n', `providers:\n  small:\n    type: script\n    script: ${small}\n`).replace(/script:\n    type: script/, 'script:\n    type: script\n    models: { test: { contextWindow: 600 } }')}smallModel: small/mini\n`,
    )
    const r = await h.run(`turn 1 ${long}`)
    await waitFor(() => h!.host.store.sessions.getSession(r.sessionId)?.title === 'Small title')
    for (let i = 2; i <= 4; i++) await h.run(`turn ${i} ${long}`, { sessionId: r.sessionId })
    const messages = h.host.store.transcript.listMessages(r.sessionId)
    expect(messages.find((m) => m.metadata.compaction)?.metadata.compaction).toMatchObject({ summary: 'SMALL COMPACTION' })
    expect((await h.host.api.calls['sessions.summarize']({ sessionId: r.sessionId })).summary).toBe('small summary')
    const [explore] = cards(messages)
    expect(explore.transcript!.filter((m) => m.role === 'assistant').map((m) => m.metadata.model)).toEqual([{ provider: 'script', model: 'test' }])
  })

  it('7. explore never advertises web_search where the provider has no native one', async () => {
    type Req = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string; description: string } }[] }
    server = await startScriptedChatServer({
      respond: (body) => {
        const req = body as Req
        const system = JSON.stringify(req.messages[0]?.content ?? '')
        if (system.includes('Write a title')) return { text: 'T' }
        if (system.includes('exploration agent')) return { text: 'explored' }
        if (req.messages.some((m) => m.role === 'tool')) return { text: 'done' }
        return { toolCalls: [{ name: 'task', arguments: { subagent_type: 'explore', description: 'look', prompt: 'look' } }] }
      },
    })
    h = await createHarness({ config: { model: 'mock/m', providers: { mock: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } } } })
    await h.run('explore please')
    const requests = server.requests as Req[]
    const root = requests.find((r) => r.tools?.some((t) => t.function.name === 'task'))!
    const listing = root.tools!.find((t) => t.function.name === 'task')!.function.description
    expect(listing).toMatch(/- explore: .* Tools: read_file, list_dir, glob, grep, web_fetch\./)
    expect(listing).not.toContain('web_search')
    const explore = requests.find((r) => JSON.stringify(r.messages[0].content).includes('exploration agent'))!
    expect(JSON.stringify(explore.messages[0].content)).not.toContain('web_search')
    expect(explore.tools!.map((t) => t.function.name)).not.toContain('web_search')
  })

  // Issue 22 changed this: the built-ins' own prompts now carry the subagent's output contract (its final message is
  // all its caller receives), which the seed's single `caller: agent` line does not; that line stays for files that set it.
  it('8. the built-in general and explore prompts carry their own output contract, not the caller: agent line', () => {
    for (const name of ['general', 'explore']) {
      const agent = BUILTIN_AGENTS.find((a) => a.name === name)!
      expect(agent.caller).not.toBe('agent')
      expect(agent.prompt).not.toContain(CALLER_AGENT_LINE)
      expect(agent.prompt).toMatch(/final message is the only thing your caller receives/)
    }
  })
})

