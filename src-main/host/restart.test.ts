import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type AgentEvent, type MessageWithParts, type PartRecord, type SequencedEvent, type TaskCard, HostError } from '../../src-shared'
import { startScriptedChatServer, type ScriptedChatServer } from '../models/testing'
import { flatten, textOf, toolParts } from '../testing/harness'
import { createHost, HostLockError, RESTART_REASON, type Host } from './index'
import { processesWith, waitUntil } from '../tools/testing/processes'
import { bundleHostProcess, createFixture, startChildHost, type ChildHost, type Fixture } from './testing/child-host'

/**
 * kill -9 of a host at each stage of a run, then a new host on the same data dir: nothing committed before the kill is
 * lost, nothing is left running or waiting, nothing is replayed, and the session takes the next prompt.
 */

const OPEN_STATES = ['input-streaming', 'input-available', 'approval-requested']
const TITLE = { title: [{ text: 'Restart test', repeat: true }] }
const INTERRUPTED = 'interrupted by host restart'

let bundle: { file: string; dispose(): void }
beforeAll(async () => {
  bundle = await bundleHostProcess()
})
afterAll(() => bundle.dispose())

let fixture: Fixture | undefined
let child: ChildHost | undefined
let host: Host | undefined
let server: ScriptedChatServer | undefined
afterEach(async () => {
  await child?.kill()
  await host?.stop()
  await server?.close()
  // Commands the killed host started die with it (tested below); nothing to clean up by pid.
  if (fixture) fs.rmSync(fixture.root, { recursive: true, force: true })
  fixture = child = host = server = undefined
})

/** Kill the child host and open a new one, in this process, on the same data dir. */
async function restart(o: { headless?: boolean } = {}): Promise<Host> {
  await child!.kill()
  host = await createHost({ dataDir: fixture!.dataDir, defaultWorkspace: fixture!.workdir, retryDelayMs: 1, headless: o.headless })
  return host
}

async function settle(h: Host): Promise<void> {
  do {
    await h.runner.idle()
    await h.runs.settleAll()
  } while (h.runner.runs().length > 0)
  h.store.flush()
}

/** Send a prompt on the restarted host and wait for the run to finish. */
async function promptAgain(h: Host, sessionId: string, text: string): Promise<MessageWithParts[]> {
  await h.api.calls['messages.prompt']({ sessionId, requestId: `again-${Math.random()}`, text })
  await settle(h)
  return h.store.transcript.listMessages(sessionId)
}

function leaves(events: SequencedEvent[]): { path: string[]; event: AgentEvent; seq: number }[] {
  return events.flatMap((e) => flatten([e.event]).map((f) => ({ ...f, seq: e.seq })))
}

/** What a viewer that saw everything up to the kill receives when it resumes from its last seq on the new host. */
function resumeFrom(h: Host, sessionId: string, seen: SequencedEvent[]): { path: string[]; event: AgentEvent }[] {
  const afterSeq = Math.max(0, ...seen.filter((e) => e.stream === sessionId).map((e) => e.seq))
  const got: SequencedEvent[] = []
  h.api.subscribe({ sessionId, afterSeq }, (m) => m.kind === 'event' && got.push(m.event))()
  return flatten(got.map((e) => e.event))
}

function allParts(h: Host): PartRecord[] {
  return h.store.sessions
    .listSessions({ includeArchived: true, limit: 10_000 })
    .flatMap((s) => h.store.transcript.listMessages(s.id, { includeHidden: true }))
    .flatMap((m) => m.parts)
}

function expectRestartNotice(h: Host, sessionId: string): void {
  const session = h.store.sessions.getSession(sessionId)!
  expect(session.status).toBe('idle')
  const notices = h.store.transcript.listMessages(sessionId).filter((m) => m.metadata.notice === 'host_restart')
  expect(notices).toHaveLength(1)
  expect(String(notices[0].parts[0].data.text)).toMatch(/interrupted because Agentry stopped/)
}

const words = (n: number, word = 'chunk') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ')
const task = (subagent_type: string, description: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'task',
  input: { subagent_type, description, prompt, ...extra },
})

describe('host restart after kill -9', () => {
  it('model streaming: every delta a viewer saw is in the store; the session is idle with a notice; events replay', async () => {
    const reply = words(80)
    fixture = createFixture({ script: { agents: { build: [{ text: reply, chunkDelayMs: 15 }], ...TITLE } } })
    child = await startChildHost(bundle.file, fixture, { prompt: 'tell me a long story' })
    const deltas = () => child!.events.filter((e) => e.stream === child!.sessionId && e.event.type === 'content_delta')
    await child.until(() => deltas().length >= 12, '12 streamed deltas')
    const seen = deltas()
    const seenText = seen.map((e) => (e.event.type === 'content_delta' ? e.event.delta : '')).join('')
    const seenEvents = [...child.events]

    const h = await restart()
    const sessionId = child.sessionId!
    const assistant = h.store.transcript.listMessages(sessionId).find((m) => m.role === 'assistant' && !m.metadata.notice)!
    const stored = String(assistant.parts.find((p) => p.type === 'text')!.data.text)
    expect(stored.startsWith(seenText)).toBe(true)
    // The kill really cut the stream short (otherwise this test would prove nothing about a mid-stream crash).
    expect(stored.length).toBeLessThan(reply.length)
    expectRestartNotice(h, sessionId)
    expect(h.reconcileReport).toMatchObject({ sessions: 1, toolParts: 0 })
    expect(allParts(h).filter((p) => p.toolState && OPEN_STATES.includes(p.toolState))).toEqual([])

    // A viewer reconnecting with cursor 0 gets every event it saw before the kill, unchanged.
    const replayed: SequencedEvent[] = []
    const stop = h.api.subscribe({ sessionId, afterSeq: 0 }, (m) => m.kind === 'event' && replayed.push(m.event))
    stop()
    const bySeq = new Map(replayed.map((e) => [e.seq, e]))
    for (const e of seenEvents.filter((x) => x.stream === sessionId)) expect(bySeq.get(e.seq)).toEqual(e)
    // ...followed by what reconciliation changed, so a viewer does not keep showing the run as busy.
    const resumed = resumeFrom(h, sessionId, seenEvents).map((f) => f.event)
    expect(resumed.find((e) => e.type === 'status_change')).toMatchObject({ status: 'idle', reason: RESTART_REASON })
    expect(resumed.find((e) => e.type === 'message_created')).toMatchObject({ message: { metadata: { notice: 'host_restart' } } })

    fixture.setScript({ agents: { build: [{ text: 'Picking up again.' }], ...TITLE } })
    const after = await promptAgain(h, sessionId, 'continue')
    expect(textOf(after).at(-1)).toBe('Picking up again.')
    expect(h.store.sessions.getSession(sessionId)!.status).toBe('idle')
  })

  it('tool executing: the call is closed as failed, never re-run, and the next prompt gives the provider a result for every call', async () => {
    let mainCalls = 0
    server = await startScriptedChatServer({
      respond(body) {
        if (JSON.stringify(body).includes('Write a title for the conversation')) return { text: 'Restart test' }
        mainCalls++
        if (mainCalls === 1) {
          return { text: 'Running it. ', toolCalls: [{ name: 'bash', arguments: { command: 'echo ran >> ran.txt; echo $$ > tool.pid; exec sleep 30' } }] }
        }
        return { text: 'The command was interrupted.' }
      },
    })
    fixture = createFixture({
      config: { model: 'mock/m', providers: { mock: { type: 'openai-compatible', baseURL: server.url, apiKey: 'sk-test' } } },
      permissions: '{ "*": "allow" }',
    })
    child = await startChildHost(bundle.file, fixture, { prompt: 'run the slow command' })
    const pidFile = path.join(fixture.workdir, 'tool.pid')
    await child.until(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', 'the command to start')
    await child.until(() => child!.events.some((e) => e.event.type === 'tool_call_start'), 'the tool_call_start event')

    const h = await restart()
    const sessionId = child.sessionId!
    const [tool] = toolParts(h.store.transcript.listMessages(sessionId))
    expect(tool.type).toBe('tool-bash')
    expect(tool.toolState).toBe('output-error')
    expect(tool.data.error).toBe(RESTART_REASON)
    expectRestartNotice(h, sessionId)
    expect(h.reconcileReport).toMatchObject({ toolParts: 1, sessions: 1 })

    const after = await promptAgain(h, sessionId, 'what happened?')
    expect(textOf(after).at(-1)).toBe('The command was interrupted.')
    expect(fs.readFileSync(path.join(fixture.workdir, 'ran.txt'), 'utf8')).toBe('ran\n')
    expect(toolParts(after)).toHaveLength(1)

    // The request after the restart: every tool call has its result (else real providers answer 400), and the
    // result tells the model the real reason.
    type Msg = { role: string; content?: unknown; tool_call_id?: string; tool_calls?: { id: string }[] }
    const last = server.requests.at(-1) as { messages: Msg[] }
    const callIds = last.messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? [])
    const results = last.messages.filter((m) => m.role === 'tool')
    expect(callIds).toHaveLength(1)
    expect(results.map((m) => m.tool_call_id)).toEqual(callIds)
    expect(JSON.stringify(results[0].content)).toContain(RESTART_REASON)
    expect(last.messages.at(-1)).toMatchObject({ role: 'user', content: 'what happened?' })
  })

  it('background child running: the job is interrupted, the parent is told, the card is closed', async () => {
    fixture = createFixture({
      script: {
        agents: {
          build: [
            { step: 1, tools: [task('explore', 'Slow survey', 'survey everything', { background: true })] },
            { step: 2, text: words(80, 'parent'), chunkDelayMs: 15 },
          ],
          explore: [{ text: 'too late', delayMs: 30_000 }],
          ...TITLE,
        },
      },
    })
    child = await startChildHost(bundle.file, fixture, { prompt: 'start a background survey' })
    const running = () => leaves(child!.events).some((l) => l.event.type === 'task_update' && l.event.task.status === 'running')
    const parentDeltas = () => child!.events.filter((e) => e.event.type === 'content_delta').length
    await child.until(() => running() && parentDeltas() >= 3, 'the background child to run while the parent streams')

    const h = await restart()
    const sessionId = child.sessionId!
    const [job] = h.store.queue.listJobs({ rootSessionId: sessionId })
    expect(job.status).toBe('interrupted')
    expect(h.reconcileReport.backgroundJobs).toBe(1)
    const messages = h.store.transcript.listMessages(sessionId)
    const synthetic = messages.filter((m) => m.metadata.synthetic)
    expect(synthetic).toHaveLength(1)
    expect(textOf(synthetic)).toEqual([`<task_error agent="explore" task_id="${job.id}">aborted: ${INTERRUPTED}</task_error>`])
    const [part] = toolParts(messages)
    expect(part.toolState).toBe('output-available')
    expect(String(part.data.output)).toMatch(new RegExp(`^Started in the background: task_id ${job.id} \\(explore, `))
    // The card in the parent's task part must not keep showing "running" for a child that no longer exists.
    expect(part.data.subagent).toMatchObject({ taskId: job.id, status: 'aborted', error: INTERRUPTED })
    const resumed = resumeFrom(h, sessionId, child.events).map((f) => f.event)
    const cardUpdate = resumed.find((e) => e.type === 'part_updated' && e.part.id === part.id)
    expect(cardUpdate?.type === 'part_updated' && cardUpdate.part.data.subagent).toMatchObject({ status: 'aborted' })
    expectRestartNotice(h, sessionId)
    expect(h.store.queue.listJobs({ rootSessionId: sessionId, status: 'running' })).toEqual([])

    fixture.setScript({ agents: { build: [{ text: 'I will run it again later.' }], ...TITLE } })
    const after = await promptAgain(h, sessionId, 'what about the survey?')
    expect(textOf(after).at(-1)).toBe('I will run it again later.')
  })

  async function rootApprovalLeftWaiting(): Promise<{ h: Host; sessionId: string; approvalId: string; toolId: string }> {
    fixture = createFixture({
      script: { agents: { build: [{ step: 1, tools: [{ name: 'bash', input: { command: 'echo yes > approved.txt' } }] }, { step: 2, text: 'never' }], ...TITLE } },
    })
    child = await startChildHost(bundle.file, fixture, { prompt: 'write the file', headless: false })
    const asked = () => child!.events.find((e) => e.event.type === 'tool_approval_required')
    await child.until(() => asked() !== undefined, 'the approval request')
    const approvalId = (asked()!.event as Extract<AgentEvent, { type: 'tool_approval_required' }>).approval.id
    const h = await restart({ headless: false })
    const sessionId = child.sessionId!
    // the call was only waiting for the person: its approval survives, its part stays open, nothing ran
    expect(h.store.approvals.getApproval(approvalId)!.status).toBe('pending')
    expect(h.reconcileReport.approvals).toBe(0)
    expect((await h.api.calls['approvals.list']({ rootSessionId: sessionId })).approvals.map((a) => a.id)).toEqual([approvalId])
    const [tool] = toolParts(h.store.transcript.listMessages(sessionId))
    expect(tool.toolState).toBe('approval-requested')
    expect(h.store.sessions.getSession(sessionId)!.status).toBe('idle')
    const notice = h.store.transcript.listMessages(sessionId).find((m) => m.metadata.notice)!
    expect(String(notice.parts[0].data.text)).toMatch(/still waiting for your approval/)
    expect(fs.existsSync(path.join(fixture.workdir, 'approved.txt'))).toBe(false)
    fixture.setScript({ agents: { build: [{ text: 'Done after the restart.' }], ...TITLE } })
    return { h, sessionId, approvalId, toolId: tool.id }
  }

  it('approval pending at the root: it survives the restart; allowing it runs the call once and the run goes on', async () => {
    const { h, sessionId, approvalId, toolId } = await rootApprovalLeftWaiting()
    await h.api.calls['approvals.answer']({ approvalId, decision: 'allow_once' })
    await settle(h)
    expect(fs.readFileSync(path.join(fixture!.workdir, 'approved.txt'), 'utf8')).toBe('yes\n')
    expect(h.store.approvals.getApproval(approvalId)!.status).toBe('approved')
    const messages = h.store.transcript.listMessages(sessionId)
    expect(toolParts(messages).find((p) => p.id === toolId)!.toolState).toBe('output-available')
    expect(textOf(messages).at(-1)).toBe('Done after the restart.')
    expect(h.store.sessions.getSession(sessionId)!.status).toBe('idle')
  })

  it('approval pending at the root: denying it after the restart gives the model the feedback', async () => {
    const { h, sessionId, approvalId, toolId } = await rootApprovalLeftWaiting()
    await h.api.calls['approvals.answer']({ approvalId, decision: 'deny', feedback: 'not that file' })
    await settle(h)
    const denied = toolParts(h.store.transcript.listMessages(sessionId)).find((p) => p.id === toolId)!
    expect(denied.toolState).toBe('output-error')
    expect(String(denied.data.error)).toContain('not that file')
    expect(fs.existsSync(path.join(fixture!.workdir, 'approved.txt'))).toBe(false)
    expect(textOf(h.store.transcript.listMessages(sessionId)).at(-1)).toBe('Done after the restart.')
  })

  it('approval pending at the root: a new message instead of an answer closes the waiting call', async () => {
    const { h, sessionId, approvalId, toolId } = await rootApprovalLeftWaiting()
    const after = await promptAgain(h, sessionId, 'forget that, just say hi')
    expect(h.store.approvals.getApproval(approvalId)!.status).toBe('cancelled')
    const closed = toolParts(after).find((p) => p.id === toolId)!
    expect(closed.toolState).toBe('output-error')
    expect(String(closed.data.error)).toMatch(/sent a new message instead/)
    expect(fs.existsSync(path.join(fixture!.workdir, 'approved.txt'))).toBe(false)
    expect(textOf(after).at(-1)).toBe('Done after the restart.')
  })

  it('approval pending in a subagent: it expires, the nested call fails, and answering it later is a clear error', async () => {
    fixture = createFixture({
      agents: { worker: { mode: 'subagent' } },
      script: {
        agents: {
          build: [{ step: 1, tools: [task('worker', 'Write the file', 'write it')] }, { step: 2, text: 'never' }],
          worker: [{ step: 1, tools: [{ name: 'bash', input: { command: 'echo yes > approved.txt' } }] }, { step: 2, text: 'never' }],
          ...TITLE,
        },
      },
    })
    child = await startChildHost(bundle.file, fixture, { prompt: 'delegate', headless: false })
    const asked = () => leaves(child!.events).find((e) => e.event.type === 'tool_approval_required')
    await child.until(() => asked() !== undefined, 'the approval request')
    const approvalId = (asked()!.event as Extract<AgentEvent, { type: 'tool_approval_required' }>).approval.id

    const h = await restart({ headless: false })
    const sessionId = child.sessionId!
    expect(h.store.approvals.getApproval(approvalId)!.status).toBe('expired')
    expect(h.reconcileReport.approvals).toBe(1)
    expect((await h.api.calls['approvals.list']({ rootSessionId: sessionId })).approvals).toEqual([])
    const [taskPart] = toolParts(h.store.transcript.listMessages(sessionId))
    const card = taskPart.data.subagent as TaskCard
    expect(card.status).toBe('aborted')
    expect(taskPart.data.error).toBe(`<task_error agent="worker" task_id="${card.taskId}">aborted: ${INTERRUPTED}</task_error>`)
    expect(toolParts(card.transcript!)[0].toolState).toBe('output-error')
    expectRestartNotice(h, sessionId)
    const resumed = resumeFrom(h, sessionId, child.events).map((f) => f.event)
    expect(resumed).toContainEqual(expect.objectContaining({ type: 'tool_approval_resolved', approvalId }))

    const answer = h.api.calls['approvals.answer']({ approvalId, decision: 'allow_once' })
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('approvals.answer hung')), 1000))
    const error = await Promise.race([answer, timeout]).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(HostError.isInstance(error)).toBe(true)
    expect((error as HostError).code).toBe('conflict')
    expect((error as HostError).message).toMatch(/already expired/)
    expect(fs.existsSync(path.join(fixture.workdir, 'approved.txt'))).toBe(false)

    fixture.setScript({ agents: { build: [{ text: 'Ask me again when you are ready.' }], ...TITLE } })
    const after = await promptAgain(h, sessionId, 'ok')
    expect(textOf(after).at(-1)).toBe('Ask me again when you are ready.')
  })

  it('opaque children mid-run: their cards fail with the restart reason and nested tool calls are closed', async () => {
    const exploreReply = words(80, 'found')
    fixture = createFixture({
      permissions: '{ "*": "allow" }',
      agents: { worker: { mode: 'subagent' } },
      script: {
        agents: {
          build: [{ step: 1, tools: [task('explore', 'Survey slowly', 'survey'), task('worker', 'Run the slow command', 'run it')] }, { step: 2, text: 'never' }],
          explore: [{ text: exploreReply, chunkDelayMs: 15 }],
          worker: [{ step: 1, tools: [{ name: 'bash', input: { command: 'echo $$ > worker.pid; exec sleep 30' } }] }, { step: 2, text: 'never' }],
          ...TITLE,
        },
      },
    })
    child = await startChildHost(bundle.file, fixture, { prompt: 'survey and run' })
    const nested = () => leaves(child!.events).filter((l) => l.path.length === 1)
    const bashStart = () => nested().find((l) => l.event.type === 'tool_call_start' && l.event.toolName === 'bash')
    const exploreDeltas = () => nested().filter((l) => l.event.type === 'content_delta')
    // Explore deltas after the nested bash call started: the nested transcripts are mirrored one tick behind.
    await child.until(() => bashStart() !== undefined && exploreDeltas().filter((d) => d.seq > bashStart()!.seq).length >= 2, 'the nested bash call and a later explore delta')
    await child.until(() => fs.existsSync(path.join(fixture!.workdir, 'worker.pid')), 'the worker command to start')
    // Every delta but the last one seen is certainly mirrored into the parent's part by now.
    const committedText = exploreDeltas()
      .slice(0, -1)
      .map((d) => (d.event.type === 'content_delta' ? d.event.delta : ''))
      .join('')

    const h = await restart()
    const sessionId = child.sessionId!
    const parts = toolParts(h.store.transcript.listMessages(sessionId))
    const [explore, worker] = parts.map((p) => p.data.subagent as TaskCard)
    // The parent's model reads which child it was and why, with the id to resume the partial work.
    expect(parts.map((p) => [p.type, p.toolState, p.data.error])).toEqual([
      ['tool-task', 'output-error', `<task_error agent="explore" task_id="${explore.taskId}">aborted: ${INTERRUPTED}</task_error>`],
      ['tool-task', 'output-error', `<task_error agent="worker" task_id="${worker.taskId}">aborted: ${INTERRUPTED}</task_error>`],
    ])
    for (const card of [explore, worker]) expect(card).toMatchObject({ status: 'aborted', error: INTERRUPTED })
    expect(h.store.sessions.getSession(explore.taskId)).toBeUndefined()
    const exploreText = textOf(explore.transcript!).join('')
    expect(exploreText.startsWith(committedText)).toBe(true)
    expect(committedText.length).toBeGreaterThan(0)
    const [nestedBash] = toolParts(worker.transcript!)
    expect(nestedBash.type).toBe('tool-bash')
    expect(nestedBash.toolState).toBe('output-error')
    expect(nestedBash.data.error).toBe(RESTART_REASON)
    expectRestartNotice(h, sessionId)
    // A viewer showing the worker's nested transcript gets the closed call in the worker's own session.
    const resumed = resumeFrom(h, sessionId, child.events)
    expect(resumed).toContainEqual({
      path: [worker.taskId],
      event: expect.objectContaining({ type: 'part_updated', sessionId: worker.taskId, part: expect.objectContaining({ id: nestedBash.id, toolState: 'output-error' }) }),
    })

    fixture.setScript({ agents: { build: [{ text: 'Both were interrupted.' }], ...TITLE } })
    const after = await promptAgain(h, sessionId, 'status?')
    expect(textOf(after).at(-1)).toBe('Both were interrupted.')
  })
})

describe('single-writer lock on the data dir', () => {
  it('refuses a second host while the first is alive, and takes over the lock of a killed one', async () => {
    fixture = createFixture({})
    child = await startChildHost(bundle.file, fixture)
    const error = await createHost({ dataDir: fixture.dataDir, defaultWorkspace: fixture.workdir }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(HostLockError)
    expect((error as Error).message).toContain(`Another Agentry host (pid ${child.pid}) is already using ${fixture.dataDir}`)

    await child.kill()
    host = await createHost({ dataDir: fixture.dataDir, defaultWorkspace: fixture.workdir })
    expect(fs.readFileSync(path.join(fixture.dataDir, 'agentry.lock'), 'utf8')).toBe(String(process.pid))
    const { session } = await host.api.calls['sessions.create']({ workspaceRoot: fixture.workdir })
    expect(host.store.sessions.getSession(session.id)).toBeDefined()
  })
})

/**
 * Issue 10: bash commands must not outlive their host. The child host runs `touch started; sleep 3.x; touch marker`
 * and is killed with SIGKILL mid-sleep: the sleep must be gone at once, the marker must never appear, and the
 * restarted host's "aborted by host restart" must be true — with the sandbox (bubblewrap --die-with-parent) and
 * without it (the watchdog).
 */
describe.each([
  ['sandboxed', true],
  ['unconfined', false],
])('bash dies with its host (%s)', (_mode, enabled) => {
  it('kill -9 of the host mid-command: no marker, no process left, and the call is recorded as aborted by the restart', async () => {
    const sleep = `sleep 3.${process.pid % 1000}${enabled ? 1 : 2}`
    fixture = createFixture({
      config: { sandbox: { enabled } },
      permissions: '{ "*": "allow" }',
      script: {
        agents: {
          build: [{ step: 1, tools: [{ name: 'bash', input: { command: `touch started; ${sleep}; touch marker` } }] }, { step: 2, text: 'never' }],
          title: [{ text: 'Lifetime test', repeat: true }],
        },
      },
    })
    const started = path.join(fixture.workdir, 'started')
    child = await startChildHost(bundle.file, fixture, { prompt: 'run it' })
    await child.until(() => fs.existsSync(started), 'the command to start', 10_000)
    expect(await waitUntil(() => processesWith(sleep).length === 1, 5_000)).toBe(true)
    // Delivered events are committed: the restarted host will find the call.
    await child.until(() => child!.events.some((e) => e.event.type === 'tool_call_start'), 'the tool_call_start event')

    await child!.kill()
    expect(await waitUntil(() => processesWith(sleep).length === 0, 2_000)).toBe(true)
    // Longer than the sleep: had anything survived, the marker would be there by now.
    await new Promise((resolve) => setTimeout(resolve, 4_000))
    expect(fs.existsSync(path.join(fixture.workdir, 'marker'))).toBe(false)
    expect(processesWith(sleep)).toEqual([])

    const h = await restart()
    const [tool] = toolParts(h.store.transcript.listMessages(child.sessionId!))
    expect(tool).toMatchObject({ type: 'tool-bash', toolState: 'output-error', data: { error: RESTART_REASON } })
  })
})

describe('spend survives a killed host (issue 25)', () => {
  it('kill -9 mid-run: every step already taken is in the session totals and the day\'s spend, so budgets still count it', async () => {
    fixture = createFixture({
      permissions: '{ "*": "allow" }',
      agents: { worker: { mode: 'subagent', permission: { '*': 'allow' } } },
      script: {
        usage: { input: 100, output: 50 },
        agents: {
          build: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'worker', description: 'Loop', prompt: 'keep listing' } }] }, { text: 'never', repeat: true }],
          // A different call each step (the repeat guard stays out of it), slowly enough to be killed mid-run.
          worker: Array.from({ length: 40 }, (_, i) => ({ tools: [{ name: 'glob', input: { pattern: `*.x${i}` } }], delayMs: 100 })),
          title: [{ text: 'Spend test', repeat: true }],
        },
      },
    })
    child = await startChildHost(bundle.file, fixture, { prompt: 'loop' })
    const childSteps = () => flatten(child!.events.map((e) => e.event)).filter((f) => f.path.length === 1 && f.event.type === 'tool_call_end').length
    await child.until(() => childSteps() >= 3, 'three of the child\'s steps')
    const h = await restart()
    const root = h.store.sessions.getSession(child.sessionId!)!
    // The root's own step and at least three of its child's: 150 tokens each, none lost with the host.
    expect(root.usage.total).toBe(150)
    expect(root.subagentUsage?.total ?? 0).toBeGreaterThanOrEqual(3 * 150)
    const { localDay } = await import('../store')
    expect(h.store.spend.dailySpend(fixture.workdir, localDay()).tokens).toBeGreaterThanOrEqual(4 * 150)
  }, 40_000)
})
