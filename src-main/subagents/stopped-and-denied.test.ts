import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { countToolCalls, newTaskCard, type AgentEvent, type MessageWithParts, type PartRecord, type TaskCard } from '../../src-shared'
import { cardLine } from '../acp/task-view'
import { printMessages } from '../cli/show'
import { createHarness, flatten, toolParts, type Harness, waitFor } from '../testing/harness'

/**
 * Issue 28: a person's Stop is told apart from a failure on every record a client reads (the task card, the run map
 * node, the tasks list, the cut answer), and a child's denied and failed tool calls are counted on its card.
 */
let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const task = (subagent_type: string, description: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'task',
  input: { subagent_type, description, prompt, ...extra },
})

const cards = (messages: MessageWithParts[]): TaskCard[] =>
  toolParts(messages)
    .filter((p) => p.type === 'tool-task')
    .map((p) => p.data.subagent as TaskCard)

const running = (n: number) => () =>
  flatten(h!.events.map((e) => e.event)).filter((f) => f.event.type === 'task_update' && (f.event as Extract<AgentEvent, { type: 'task_update' }>).task.status === 'running').length >= n

async function settle(): Promise<void> {
  await h!.host.runner.idle()
  await h!.host.runs.settleAll()
  h!.host.store.flush()
}

describe("the person's Stop is not a failure", () => {
  it('a fan-out stopped by the person: every card, map node and background task says stoppedByUser; the cut answer is marked stopped', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [
            { step: 1, text: 'Fanning out.', tools: [task('explore', 'Look', 'wait'), task('general', 'Check', 'wait'), task('general', 'Watch', 'watch', { background: true })] },
            { step: 2, text: 'never' },
          ],
          explore: [{ text: 'late', delayMs: 10_000 }],
          general: [{ text: 'late', delayMs: 10_000, repeat: true }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const { sessionId } = await h.run('go', { wait: false })
    await waitFor(running(3))
    await h.host.api.calls['messages.abort']({ sessionId })
    await settle()
    const messages = h.host.store.transcript.listMessages(sessionId)
    const all = cards(messages)
    expect(all.map((c) => [c.agentType, c.status, c.stoppedByUser])).toEqual([
      ['explore', 'aborted', true],
      ['general', 'aborted', true],
      ['general', 'aborted', true],
    ])
    const { nodes } = await h.host.api.calls['runs.map']({ rootSessionId: sessionId })
    expect(nodes.filter((n) => n.parentId !== null).map((n) => n.stoppedByUser)).toEqual([true, true, true])
    const { tasks } = await h.host.api.calls['tasks.list']({ rootSessionId: sessionId })
    expect(tasks.map((t) => [t.status, t.stoppedByUser])).toEqual([['aborted', true]])
    // The answer the Stop cut (its text and its task calls) carries the mark; nothing else does.
    const marked = messages.filter((m) => m.metadata.stopped === true)
    expect(marked.map((m) => m.parts.find((p) => p.type === 'text')?.data.text)).toEqual(['Fanning out.'])
    // The background child's notice says the person stopped it.
    const notice = messages.find((m) => m.metadata.synthetic === true)
    expect(notice?.metadata.task).toMatchObject({ outcome: 'stopped', stoppedByUser: true })
  })

  it('a child that timed out is not stopped by the person', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [{ step: 1, tools: [task('explore', 'Slow', 'wait', { timeout_seconds: 0.3 })] }, { step: 2, text: 'It timed out.' }],
          explore: [{ text: 'late', delayMs: 10_000 }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const r = await h.run('go')
    const [card] = cards(r.messages)
    expect(card.status).toBe('aborted')
    expect(card.error).toMatch(/timed out/)
    expect(card.stoppedByUser).toBeUndefined()
    const { nodes } = await h.host.api.calls['runs.map']({ rootSessionId: r.sessionId })
    expect(nodes.find((n) => n.id === card.taskId)?.stoppedByUser).toBeUndefined()
    expect(r.messages.some((m) => m.metadata.stopped === true)).toBe(false)
  })
})

describe("a child's denied and failed tool calls are on its card", () => {
  it('rm -rf denied by a rule and a read of a missing file: 1 denied, 1 failed (card, map node)', async () => {
    h = await createHarness({
      files: { 'x/a.txt': 'keep me' },
      permissions: '{ "*": "allow", "bash": { "*": "allow", "rm *": "deny" } }',
      script: {
        agents: {
          build: [{ step: 1, tools: [task('general', 'Clean up', 'clean')] }, { step: 2, text: 'Done.' }],
          general: [
            { step: 1, tools: [{ name: 'bash', input: { command: 'rm -rf x' } }, { name: 'read_file', input: { path: 'missing.txt' } }, { name: 'list_dir', input: {} }] },
            { step: 2, text: 'Could not remove x.' },
          ],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const r = await h.run('clean up')
    const [card] = cards(r.messages)
    expect(card.status).toBe('completed')
    expect(card.toolCalls).toEqual({ denied: 1, failed: 1 })
    const { nodes } = await h.host.api.calls['runs.map']({ rootSessionId: r.sessionId })
    expect(nodes.find((n) => n.id === card.taskId)?.toolCalls).toEqual({ denied: 1, failed: 1 })
  })

  it('headless ask means deny: counted as denied (a background task in tasks.list too)', async () => {
    h = await createHarness({
      permissions: '{ "*": "allow", "bash": "ask" }',
      headlessRun: { yes: false, allow: [] },
      script: {
        agents: {
          build: [{ step: 1, tools: [task('general', 'Try', 'try', { background: true })] }, { step: 2, text: 'Started.' }, { text: 'Noted.', repeat: true }],
          general: [{ step: 1, tools: [{ name: 'bash', input: { command: 'touch made.txt' } }] }, { step: 2, text: 'Could not run it.' }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const r = await h.run('try')
    await settle()
    const [card] = cards(h.host.store.transcript.listMessages(r.sessionId))
    expect(card.toolCalls).toEqual({ denied: 1, failed: 0 })
    const { tasks } = await h.host.api.calls['tasks.list']({ rootSessionId: r.sessionId })
    expect(tasks[0].toolCalls).toEqual({ denied: 1, failed: 0 })
  })
})

describe('countToolCalls', () => {
  const part = (type: string, state: PartRecord['toolState'], data: Record<string, unknown> = {}): PartRecord => ({ id: type + Math.random(), messageId: 'm', sessionId: 's', index: 0, type, data, toolCallId: 'c', toolState: state })
  const message = (parts: PartRecord[]): MessageWithParts => ({ id: 'm', sessionId: 's', role: 'assistant', metadata: {}, createdAt: 0, updatedAt: 0, parts })
  it('denied (metadata, a hook, older text), failed, and neither for calls cut by a Stop or a child the person stopped', () => {
    const counts = countToolCalls([
      message([
        part('tool-bash', 'output-error', { error: 'Permission denied: rm', metadata: { denied: true } }),
        part('tool-bash', 'output-error', { error: 'blocked', metadata: { hookBlocked: true } }),
        part('tool-edit_file', 'output-error', { error: 'Permission denied: stored before metadata' }),
        part('tool-read_file', 'output-error', { error: 'ENOENT' }),
        part('tool-bash', 'output-error', { error: 'Aborted: bash was cancelled by the user.', metadata: { aborted: true } }),
        part('tool-task', 'output-error', { error: '<task_error>', subagent: { status: 'aborted', stoppedByUser: true } }),
        part('tool-task', 'output-error', { error: '<task_error>', subagent: { status: 'aborted', error: 'timed out after 3s' } }),
        part('tool-list_dir', 'output-available', { output: 'a' }),
        part('text', null, { text: 'hi' }),
      ]),
    ])
    expect(counts).toEqual({ denied: 3, failed: 2 })
  })
})

describe('text clients say the same (agentry show, an editor over ACP)', () => {
  const card = (extra: Partial<TaskCard>): TaskCard => ({ ...newTaskCard({ taskId: 'ses_c', agentType: 'general', description: 'Clean up', background: false, inspectable: false, depth: 1, status: 'completed' }), ...extra })
  const taskPart = (c: TaskCard, state: PartRecord['toolState']): MessageWithParts => ({
    id: 'm', sessionId: 's', role: 'assistant', metadata: {}, createdAt: 0, updatedAt: 0,
    parts: [{ id: 'p', messageId: 'm', sessionId: 's', index: 0, type: 'tool-task', data: { subagent: c, error: '<task_error>aborted: stopped by the user</task_error>' }, toolCallId: 'c', toolState: state }],
  })
  const show = (m: MessageWithParts): string => {
    const out = new PassThrough()
    let text = ''
    out.on('data', (b: Buffer) => (text += b.toString()))
    printMessages([m], 'build', 0, out)
    return text
  }
  it('a card the person stopped reads "stopped by you"; counts follow the status', () => {
    expect(cardLine(card({ status: 'aborted', stoppedByUser: true, error: 'aborted by parent' }))).toMatch(/^general · stopped by you · 0 steps/)
    expect(cardLine(card({ status: 'aborted', error: 'parent aborted (timed out after 3s)' }))).toMatch(/^general · aborted · 0 steps/)
    expect(cardLine(card({ toolCalls: { denied: 1, failed: 1 } }))).toMatch(/^general · completed · 1 denied · 1 failed · 0 steps/)
    expect(show(taskPart(card({ status: 'aborted', stoppedByUser: true }), 'output-error'))).toContain('task general "Clean up" → stopped by you')
    expect(show(taskPart(card({ toolCalls: { denied: 1, failed: 0 } }), 'output-available'))).toContain('task general "Clean up" → completed · 1 denied')
  })
})
