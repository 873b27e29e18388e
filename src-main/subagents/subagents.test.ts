import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, TaskCard } from '../../src-shared'
import { createHarness, flatten, textOf, toolParts, type Harness, waitFor } from '../testing/harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const task = (subagent_type: string, description: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'task',
  input: { subagent_type, description, prompt, ...extra },
})

function cards(messages: Parameters<typeof toolParts>[0]): TaskCard[] {
  return toolParts(messages)
    .filter((p) => p.type === 'tool-task')
    .map((p) => p.data.subagent as TaskCard)
}

describe('task: blocking children on the same loop', () => {
  it('runs an opaque child nested in the task part and an inspectable child as its own session', async () => {
    h = await createHarness({
      files: { 'a.txt': 'alpha' },
      script: {
        agents: {
          build: [
            { step: 1, tools: [task('explore', 'Look around', 'list files'), task('general', 'Check build', 'find the build')] },
            { step: 2, text: 'Both done.' },
          ],
          explore: [{ step: 1, tools: [{ name: 'list_dir', input: {} }] }, { step: 2, text: 'Found a.txt' }],
          general: [{ text: 'No build files.' }],
          title: [{ text: 'Fan out', repeat: true }],
        },
      },
    })
    const r = await h.run('survey')
    expect(r.final?.text).toBe('Both done.')
    const [explore, general] = toolParts(r.messages).filter((p) => p.type === 'tool-task')
    // opaque: no session row, transcript nested in the part
    const exploreCard = explore.data.subagent as TaskCard
    expect(h.host.store.sessions.getSession(exploreCard.taskId)).toBeUndefined()
    expect(exploreCard.status).toBe('completed')
    expect(exploreCard.transcript?.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant'])
    expect(toolParts(exploreCard.transcript!)[0].type).toBe('tool-list_dir')
    expect(String(explore.data.output)).toMatch(new RegExp(`^<task_result agent="explore" task_id="${exploreCard.taskId}">\\nFound a.txt\\n</task_result>\\nruntime \\d+\\.\\ds · tokens \\d+ in / \\d+ out`))
    // inspectable: a row with parent links and metadata.subagent
    const generalCard = general.data.subagent as TaskCard
    const child = h.host.store.sessions.getSession(generalCard.taskId)!
    const userMessage = r.messages.find((m) => m.role === 'user')!
    expect(child.parentId).toBe(r.sessionId)
    expect(child.parentMessageId).toBe(userMessage.id)
    expect(child.metadata.subagent).toEqual({ agentType: 'general', parentSessionId: r.sessionId, depth: 1, background: false, inspectable: true, agentPath: ['build', 'general'] })
    expect(textOf(h.host.store.transcript.listMessages(child.id))).toEqual(['No build files.'])
    expect(generalCard.transcript).toBeUndefined()
    // child events reach the root's subscribers wrapped in subagent_event
    const fromChildren = flatten(r.events).filter((f) => f.path.length === 1)
    expect(fromChildren.some((f) => f.path[0] === exploreCard.taskId && f.event.type === 'tool_call_start')).toBe(true)
    expect(fromChildren.some((f) => f.path[0] === generalCard.taskId && f.event.type === 'content_delta')).toBe(true)
  })

  it('rejects unknown, primary-only and denied agent types with the valid names', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [{ step: 1, tools: [task('nope', 'x', 'y'), task('build', 'x', 'y'), task('secret', 'x', 'y')] }, { step: 2, text: 'ok' }],
          title: [{ text: 't', repeat: true }],
        },
      },
      permissions: '{ "*": "ask", "task": { "*": "allow", "secret": "deny" } }',
    })
    h.writeAgent('secret', { mode: 'subagent' })
    const r = await h.run('go')
    const errors = toolParts(r.messages).map((p) => String(p.data.error))
    for (const e of errors) {
      expect(e).toMatch(/subagent_type: not an agent you can start here; use general, explore, or "fork" for a copy of yourself \(got "(nope|build|secret)"\)/)
      // The denied agent is named only where the call itself named it.
      expect(e.replace('"secret")', '')).not.toMatch(/secret/)
    }
    expect(r.final?.text).toBe('ok')
  })

  it('enforces the depth limit with a tool error', async () => {
    h = await createHarness({
      config: { subagents: { maxDepth: 2 } },
      script: {
        agents: {
          build: [{ step: 1, tools: [task('deep', 'level 1', 'go deeper')] }, { step: 2, text: 'root done' }],
          deep: [{ step: 1, tools: [task('deep', 'next', 'go deeper')], repeat: true }, { step: 2, text: 'deep done', repeat: true }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    h.writeAgent('deep', { mode: 'subagent', inspectable: true })
    const r = await h.run('recurse')
    expect(r.final?.text).toBe('root done')
    const level1 = cards(r.messages)[0]
    const level2Session = h.host.store.sessions.listSessions({ parentId: level1.taskId })[0]
    expect(level2Session.metadata.subagent).toMatchObject({ depth: 2 })
    const level2Parts = toolParts(h.host.store.transcript.listMessages(level2Session.id))
    expect(String(level2Parts[0].data.error)).toMatch(/depth limit reached \(maxDepth 2\)/)
  })

  it('runs parallel calls up to maxConcurrent and queues the rest', async () => {
    h = await createHarness({
      config: { subagents: { maxConcurrent: 2 } },
      script: {
        agents: {
          build: [{ step: 1, tools: [1, 2, 3, 4, 5].map((i) => task('explore', `job ${i}`, `job ${i}`)) }, { step: 2, text: 'all done' }],
          explore: [{ text: 'done', delayMs: 60, repeat: true }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const r = await h.run('fan out')
    let running = 0
    let peak = 0
    const statuses = new Map<string, string>()
    let sawQueued = false
    for (const { event } of flatten(r.events)) {
      if (event.type !== 'task_update') continue
      const prev = statuses.get(event.task.taskId)
      if (event.task.status === 'queued') sawQueued = true
      if (event.task.status === 'running' && prev !== 'running') running++
      if (prev === 'running' && event.task.status !== 'running') running--
      statuses.set(event.task.taskId, event.task.status)
      peak = Math.max(peak, running)
    }
    expect(sawQueued).toBe(true)
    expect(peak).toBe(2)
    expect(cards(r.messages).map((c) => c.status)).toEqual(Array(5).fill('completed'))
  })

  it('times out a child and tells the parent the real reason, with the task_id', async () => {
    h = await createHarness({
      config: { subagents: { timeoutSeconds: 0.2 } },
      script: {
        agents: {
          build: [{ step: 1, tools: [task('explore', 'slow', 'slow')] }, { step: 2, text: 'parent saw it' }],
          explore: [{ text: 'too late', delayMs: 5000 }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const r = await h.run('go')
    const [part] = toolParts(r.messages)
    const card = part.data.subagent as TaskCard
    // Its own clock ran out: an incomplete result that says why, what it did and how to continue it (issue 22).
    expect(part.toolState).toBe('output-available')
    expect(String(part.data.output)).toMatch(
      new RegExp(
        `^<task_result agent="explore" task_id="${card.taskId}" status="incomplete">\\n\\[Incomplete: it ran out of time \\(0\\.2 s of its own work\\)\\. It had made no tool calls\\. To continue it, call task with task_id "${card.taskId}" and what to do next\\.\\]\\n</task_result>\\nruntime `,
      ),
    )
    expect(card).toMatchObject({ status: 'aborted', error: 'timed out after 0.2s', incomplete: 'it ran out of time (0.2 s of its own work)' })
    expect(r.final?.text).toBe('parent saw it')
  })

  it('resumes an opaque child with task_id, rebuilding its transcript; a foreign task_id is refused', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [{ step: 1, tools: [task('explore', 'first look', 'remember 42')] }, { step: 2, text: 'noted' }],
          explore: [{ text: 'I will remember 42.' }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const first = await h.run('start')
    const taskId = cards(first.messages)[0].taskId
    h.setScript({
      agents: {
        build: [
          { step: 1, tools: [task('explore', 'ask again', 'what number?', { task_id: taskId }), task('explore', 'bogus', 'x', { task_id: 'ses_000000000000notachild0000' })] },
          { step: 2, text: 'resumed' },
        ],
        explore: [{ match: 'what number', text: 'it was 42' }],
        title: [{ text: 't', repeat: true }],
      },
    })
    const second = await h.run('ask the same explorer', { sessionId: first.sessionId })
    expect(second.final?.text).toBe('resumed')
    const [resumedPart, bogusPart] = toolParts(second.messages).filter((p) => p.type === 'tool-task').slice(-2)
    const resumed = resumedPart.data.subagent as TaskCard
    expect(resumed.taskId).toBe(taskId)
    expect(resumed.transcript?.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(textOf(resumed.transcript!)).toEqual(['I will remember 42.', 'it was 42'])
    expect(String(bogusPart.data.error)).toMatch(/is not a subagent of this session/)
  })
})

describe('task: background children', () => {
  it('returns a handle at once, then appends a synthetic result and starts a parent turn', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [
            { step: 1, tools: [task('explore', 'in background', 'slow work', { background: true })] },
            { step: 2, text: 'Started it; carrying on.' },
            { match: 'Automated notice', text: 'The background result arrived.' },
          ],
          explore: [{ text: 'background answer', delayMs: 100 }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const r = await h.run('go')
    const [part] = toolParts(r.messages)
    const handle = { task_id: (part.data.subagent as TaskCard).taskId }
    expect(String(part.data.output)).toBe(
      `Started in the background: task_id ${handle.task_id} (explore, "in background").\nIts result will arrive by itself as a notice in this conversation when it ends. Do not poll for it or guess what it will say: go on with work that does not depend on it, or end your turn.`,
    )
    const synthetic = r.messages.find((m) => m.metadata.synthetic)!
    expect(synthetic.role).toBe('assistant')
    expect(synthetic.metadata.task).toEqual({ taskId: handle.task_id, agentType: 'explore', description: 'in background', outcome: 'completed' })
    expect(String(synthetic.parts[0].data.text)).toContain(`<task_result agent="explore" task_id="${handle.task_id}">\nbackground answer\n</task_result>`)
    expect(textOf(r.messages).at(-1)).toBe('The background result arrived.')
    expect(h.host.store.queue.listJobs({ rootSessionId: r.sessionId })[0].status).toBe('completed')
  })
})

describe('task: abort propagation', () => {
  it('aborting the parent aborts blocking and background descendants with "aborted by parent"', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [{ step: 1, tools: [task('explore', 'blocking', 'wait'), task('general', 'bg', 'wait', { background: true })] }, { step: 2, text: 'never' }],
          explore: [{ text: 'late', delayMs: 10_000 }],
          general: [{ text: 'late', delayMs: 10_000 }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const { sessionId } = await h.run('go', { wait: false })
    const events = () => flatten(h!.events.map((e) => e.event))
    await waitFor(() => events().filter((f) => f.event.type === 'task_update' && (f.event as Extract<AgentEvent, { type: 'task_update' }>).task.status === 'running').length >= 2)
    await h.host.api.calls['messages.abort']({ sessionId })
    await h.host.runner.idle()
    await h.host.runs.settleAll()
    h.host.store.flush()
    const all = cards(h.host.store.transcript.listMessages(sessionId))
    expect(all.map((c) => [c.agentType, c.status, c.error])).toEqual([
      ['explore', 'aborted', 'aborted by parent'],
      ['general', 'aborted', 'aborted by parent'],
    ])
  })
})
