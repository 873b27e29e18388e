import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, flatten, textOf, toolParts, type Harness, waitFor } from '../testing/harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

describe('the loop (script model, real store, real files)', () => {
  it('runs a tool call, feeds the result back, and answers', async () => {
    h = await createHarness({
      files: { 'README.md': 'hello' },
      script: {
        agents: {
          build: [
            { text: 'Looking.', tools: [{ name: 'list_dir', input: { path: '.' } }] },
            { step: 2, text: 'There is a README.' },
          ],
          title: [{ text: 'List files', repeat: true }],
        },
      },
    })
    const r = await h.run('what is here?')
    expect(r.final?.finishReason).toBe('stop')
    expect(r.final?.text).toBe('There is a README.')
    const [tool] = toolParts(r.messages)
    expect(tool.type).toBe('tool-list_dir')
    expect(tool.toolState).toBe('output-available')
    expect(String(tool.data.output)).toContain('README.md')
    expect(textOf(r.messages, 'user')).toEqual(['what is here?'])
    const types = r.events.map((e) => e.type)
    expect(types).toContain('tool_call_start')
    expect(types).toContain('tool_call_end')
    expect(types.filter((t) => t === 'content_delta').length).toBeGreaterThan(1)
    expect(types.at(-1)).toBe('turn_complete')
  })

  it('turns a failing tool call into a tool error the model sees, leaving the file unchanged', async () => {
    h = await createHarness({
      files: { 'a.txt': 'one two' },
      script: {
        agents: {
          build: [
            { tools: [{ name: 'edit_file', input: { path: 'a.txt', old_string: 'three', new_string: 'x' } }] },
            { step: 2, text: 'The text was not there.' },
          ],
        },
      },
    })
    const r = await h.run('edit it')
    const [tool] = toolParts(r.messages)
    expect(tool.toolState).toBe('output-error')
    expect(String(tool.data.error)).toMatch(/not found/)
    expect(fs.readFileSync(path.join(h.workdir, 'a.txt'), 'utf8')).toBe('one two')
    expect(r.final?.text).toBe('The text was not there.')
  })

  it('reports invalid tool arguments and unknown tools as tool errors, not crashes', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [
            { tools: [{ name: 'read_file', input: { file: 'x' } }, { name: 'no_such_tool', input: {} }] },
            { text: 'ok then' },
          ],
        },
      },
    })
    const r = await h.run('go')
    const [bad, unknown] = toolParts(r.messages)
    expect(bad.toolState).toBe('output-error')
    expect(String(bad.data.error)).toMatch(/Invalid arguments for read_file: path/)
    expect(String(unknown.data.error)).toMatch(/Unknown tool "no_such_tool". Available tools: .*read_file/)
    expect(r.final?.text).toBe('ok then')
  })

  it('stops at maxSteps and asks for a final answer without tools', async () => {
    h = await createHarness({
      script: {
        agents: {
          looper: [
            { match: 'used all the tool steps', text: 'Final answer after the limit.' },
            { tools: [{ name: 'list_dir', input: {} }], repeat: true },
          ],
        },
      },
    })
    h.writeAgent('looper', { mode: 'primary', maxSteps: 2 })
    const r = await h.run('loop forever', { agent: 'looper' })
    expect(r.final?.finishReason).toBe('max_steps')
    expect(r.final?.text).toBe('Final answer after the limit.')
    expect(toolParts(r.messages)).toHaveLength(2)
  })

  it('aborts a running bash tool promptly and records the reason', async () => {
    h = await createHarness({
      permissions: '{ "*": "allow" }',
      script: { agents: { build: [{ tools: [{ name: 'bash', input: { command: 'sleep 30' } }] }, { text: 'never' }] } },
    })
    const { sessionId } = await h.run('sleep', { wait: false })
    await waitFor(() => h!.events.some((e) => flatten([e.event]).some((f) => f.event.type === 'tool_call_start')))
    const started = Date.now()
    await h.host.api.calls['messages.abort']({ sessionId })
    await h.host.runner.idle()
    expect(Date.now() - started).toBeLessThan(15_000) // not the 30 s of the sleep
    h.host.store.flush()
    const messages = h.host.store.transcript.listMessages(sessionId)
    const [tool] = toolParts(messages)
    expect(tool.toolState).toBe('output-error')
    expect(String(tool.data.error)).toMatch(/abort/i)
    expect(h.host.store.sessions.getSession(sessionId)?.status).toBe('aborted')
  })

  it('retries a rate-limited model call, showing retrying and then busy again', async () => {
    h = await createHarness({ script: { agents: { build: [{ error: { status: 429, message: 'slow down' } }, { text: 'ok after retry' }] } } })
    const r = await h.run('go')
    expect(r.final?.text).toBe('ok after retry')
    const statuses = r.events.filter((e) => e.type === 'status_change').map((e) => (e as { status: string }).status)
    expect(statuses).toEqual(['busy', 'retrying', 'busy', 'idle'])
    // What the app shows while it waits: "Retrying in 1 s — attempt 2 of 4" and why.
    const retrying = r.events.find((e) => e.type === 'status_change' && e.status === 'retrying') as { retry?: unknown }
    expect(retrying.retry).toEqual({ attempt: 2, of: 4, delayMs: expect.any(Number), error: expect.stringContaining('slow down') })
  })

  it('queues prompts that arrive while busy and runs them in order', async () => {
    h = await createHarness({
      script: { agents: { build: [{ text: 'first', delayMs: 150 }, { text: 'second' }] } },
    })
    const { sessionId } = await h.run('one', { wait: false })
    const second = await h.host.api.calls['messages.prompt']({ sessionId, requestId: 'r2', text: 'two' })
    expect(second.queued).toBe(true)
    const again = await h.host.api.calls['messages.prompt']({ sessionId, requestId: 'r2', text: 'two' })
    expect(again.duplicate).toBe(true)
    await h.host.runner.idle()
    h.host.store.flush()
    const messages = h.host.store.transcript.listMessages(sessionId)
    expect(textOf(messages, 'user')).toEqual(['one', 'two'])
    expect(textOf(messages)).toEqual(['first', 'second'])
  })

  it("the person's Stop does not send what was queued: it comes back whole and is never run (issue 28, bug 2)", async () => {
    h = await createHarness({
      permissions: '{ "*": "allow" }',
      script: { agents: { build: [{ tools: [{ name: 'bash', input: { command: 'sleep 30' } }] }, { text: 'never' }] } },
    })
    const { sessionId } = await h.run('one', { wait: false })
    await waitFor(() => h!.events.some((e) => flatten([e.event]).some((f) => f.event.type === 'tool_call_start')))
    const queued = await h.host.api.calls['messages.prompt']({ sessionId, requestId: 'r2', text: 'two, queued' })
    await h.host.api.calls['messages.prompt']({ sessionId, requestId: 'r3', text: 'three, queued' })
    const stopped = await h.host.api.calls['messages.abort']({ sessionId })
    expect(stopped).toEqual({ aborted: true, returned: [{ queueId: queued.queueId, text: 'two, queued' }, { queueId: expect.any(String), text: 'three, queued' }] })
    await h.host.runner.idle()
    h.host.store.flush()
    expect(textOf(h.host.store.transcript.listMessages(sessionId), 'user')).toEqual(['one'])
    expect(h.host.store.sessions.getSession(sessionId)?.status).toBe('aborted')
    expect((await h.host.api.calls['queue.list']({ sessionId })).entries.filter((e) => e.status === 'queued')).toEqual([])
  })
})
