import fs from 'node:fs'
import path from 'node:path'
import { methods, type ReadTextFileRequest, type RequestPermissionRequest, type WriteTextFileRequest } from '@agentclientprotocol/sdk/unstable'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SubscriptionMessage } from '../../src-shared'
import { createBridgeClient } from '../../src-shared/bridge-client'
import { buildCli } from '../cli/testing/cli-process'
import { connectLocalSocket } from '../local-socket'
import { acpScene, say } from './testing/acp-client'
import { contentText, fold } from './testing/fold'

/**
 * `agentry acp` features through the ACP SDK's client, each in a data dir of its own: approvals answered by the
 * editor or by another client of the same host, plan → build as modes, files through the editor's buffers, protected
 * writes, background children, questions.
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

describe.each([
  ['the editor', 'the app'],
  ['the app', 'the editor'],
])('an approval answered by %s', (answering, other) => {
  it(`is resolved for ${other} too (the same record)`, async () => {
    const s = scene({ agents: { build: [{ step: 1, tools: [{ name: 'bash', input: { command: 'echo once' } }] }, { step: 2, text: 'Ran it.' }], ...TITLE } })
    const { p, sessionId } = await s.open()
    // The app: another client of the same host, over its local socket, following the session as the UI does.
    const app = createBridgeClient((await connectLocalSocket(s.home))!)
    const seen: SubscriptionMessage[] = []
    const unsubscribe = app.subscribe({ sessionId, afterSeq: 0 }, (m) => seen.push(m))
    const editorAnswers = answering === 'the editor'
    p.onPermission = (_r, signal) =>
      editorAnswers ? Promise.resolve({ outcome: { outcome: 'selected', optionId: 'allow_once' } }) : new Promise((resolve) => signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } })))
    const done = say(p, sessionId, 'run it')
    await p.waitFor(() => p.permissions[0], 'the permission request')
    if (!editorAnswers) {
      const { approvals } = await app.calls['approvals.list']({ rootSessionId: sessionId })
      expect(approvals).toHaveLength(1)
      await app.calls['approvals.answer']({ approvalId: approvals[0].id, decision: 'allow_once' })
    }
    expect((await done).stopReason).toBe('end_turn')
    // The editor's request was withdrawn when the app answered first; the app saw the editor's answer.
    expect(p.permissions[0].cancelled).toBe(!editorAnswers)
    expect(seen.some((m) => m.kind === 'event' && m.event.event.type === 'tool_approval_resolved' && m.event.event.outcome === 'approved')).toBe(true)
    expect((await app.calls['approvals.list']({})).approvals).toEqual([])
    const call = [...fold(p.updates).calls.values()][0]
    expect(call).toMatchObject({ title: 'Run `echo once`', kind: 'execute', status: 'completed' })
    expect(contentText(call.content)).toContain('once')
    unsubscribe()
    app.close()
  }, 90_000)
})

describe('modes and models', () => {
  it('plan → build: the plan asks to switch, approving it moves the session (and the editor) to build', async () => {
    const s = scene({
      agents: {
        plan: [{ step: 1, text: 'Here is the plan.', tools: [{ name: 'plan_exit', input: { plan: '1. Change the greeting' } }] }, { step: 2, text: 'Plan approved.' }],
        build: [{ match: 'go ahead', text: 'Building now.' }],
        ...TITLE,
      },
    })
    const { p, sessionId, session } = await s.open()
    await expect(p.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'general' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('no agent "general" to switch to') })
    expect(session.configOptions?.[0]).toMatchObject({ type: 'select', options: [{ value: 'script/x' }] })
    await expect(p.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'other/model' })).rejects.toMatchObject({ code: -32602 })
    await p.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'plan' })
    let plan: RequestPermissionRequest | undefined
    p.onPermission = async (r) => {
      plan = r
      return { outcome: { outcome: 'selected', optionId: 'approve' } }
    }
    expect((await say(p, sessionId, 'make a plan')).stopReason).toBe('end_turn')
    expect(plan?.options.map((o) => [o.optionId, o.kind])).toEqual([
      ['approve', 'allow_once'],
      ['reject', 'reject_once'],
    ])
    expect(contentText(plan?.toolCall.content ?? [])).toBe('1. Change the greeting')
    expect(p.updates.some((u) => u.update.sessionUpdate === 'current_mode_update' && u.update.currentModeId === 'build')).toBe(true)
    const from = p.updates.length
    expect((await say(p, sessionId, 'go ahead')).stopReason).toBe('end_turn')
    expect(fold(p.updates.slice(from)).messages.map((m) => m.text)).toEqual(['Building now.'])
  }, 90_000)
})

describe('files through the editor', () => {
  it('read_file sees the unsaved buffer, edits go to the editor, new files to disk, confinement unchanged', async () => {
    // Outside = the shared temp folder: a name of this test's own, so no other test's file is seen (or removed).
    const outsideName = `outside-${process.pid}-${Date.now()}.txt`
    const s = scene(
      {
        agents: {
          build: [
            { step: 1, tools: [{ name: 'read_file', input: { path: 'notes.txt' } }] },
            { step: 2, tools: [{ name: 'edit_file', input: { path: 'notes.txt', old_string: 'unsaved', new_string: 'edited' } }] },
            { step: 3, tools: [{ name: 'write_file', input: { path: 'new.txt', content: 'brand new\n' } }] },
            { step: 4, tools: [{ name: 'read_file', input: { path: `../${outsideName}` } }] },
            { step: 5, text: 'Done with the files.' },
          ],
          ...TITLE,
        },
      },
      { 'notes.txt': 'on disk\n' },
    )
    fs.writeFileSync(path.join(path.dirname(s.work), outsideName), 'secret outside\n')
    const { p, sessionId } = await s.open({ fs: { readTextFile: true, writeTextFile: true } })
    const reads: ReadTextFileRequest[] = []
    const writes: WriteTextFileRequest[] = []
    p.onRead = async (r) => {
      reads.push(r)
      return 'unsaved buffer text\n'
    }
    p.onWrite = async (r) => void writes.push(r)
    p.onPermission = async () => ({ outcome: { outcome: 'selected', optionId: 'deny' } })
    expect((await say(p, sessionId, 'work on the files')).stopReason).toBe('end_turn')
    const calls = [...fold(p.updates).calls.values()]
    expect(calls.map((c) => [c.title, c.status]), JSON.stringify(calls)).toEqual([
      ['Read notes.txt', 'completed'],
      ['Edit notes.txt', 'completed'],
      ['Write new.txt', 'completed'],
      [`Read ../${outsideName}`, 'failed'],
    ])
    expect(contentText(calls[0].content)).toContain('unsaved buffer text')
    const notes = path.join(s.work, 'notes.txt')
    // read_file, then edit_file twice (the diff the approval would show, and the edit itself); never the outside file
    expect(reads.map((r) => [r.sessionId, r.path])).toEqual([
      [sessionId, notes],
      [sessionId, notes],
      [sessionId, notes],
    ])
    expect(writes).toEqual([{ sessionId, path: notes, content: 'edited buffer text\n' }])
    expect(calls[1].content).toEqual([{ type: 'diff', path: notes, oldText: 'unsaved', newText: 'edited' }])
    expect(fs.readFileSync(notes, 'utf8')).toBe('on disk\n') // the editor saves its buffer, not us
    expect(fs.readFileSync(path.join(s.work, 'new.txt'), 'utf8')).toBe('brand new\n')
    expect(contentText(calls[3].content)).toMatch(/outside the workspace/)
    fs.rmSync(path.join(path.dirname(s.work), outsideName))
  }, 90_000)

  it('a protected write asks with "Allow once" only, even when the editor writes files', async () => {
    const s = scene(
      { agents: { build: [{ step: 1, tools: [{ name: 'write_file', input: { path: '.agents/permissions.jsonc', content: '{ "*": "allow" }\n' } }] }, { step: 2, text: 'Tried.' }], ...TITLE } },
      { '.agents/permissions.jsonc': '{}\n' },
    )
    const { p, sessionId } = await s.open({ fs: { readTextFile: true, writeTextFile: true } })
    const writes: WriteTextFileRequest[] = []
    p.onRead = async () => '{}\n'
    p.onWrite = async (r) => void writes.push(r)
    p.onPermission = async () => ({ outcome: { outcome: 'selected', optionId: 'deny' } })
    expect((await say(p, sessionId, 'loosen the rules')).stopReason).toBe('end_turn')
    const asked = p.permissions[0].request
    expect(asked.options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once'])
    expect(asked.options[0].name).toMatch(/^Allow once \(protected: /)
    expect(contentText(asked.toolCall.content ?? [])).toContain('It can be allowed once, never always.')
    expect(writes).toEqual([])
    expect(fs.readFileSync(path.join(s.work, '.agents/permissions.jsonc'), 'utf8')).toBe('{}\n')
  }, 90_000)
})

describe('what the editor sees when it approves a change (issue 30)', () => {
  it('a write that asks carries the change as a diff block with kind and locations; an overwrite completes as one; statuses only move forward', async () => {
    const s = scene(
      {
        agents: {
          build: [
            { step: 1, tools: [{ name: 'write_file', input: { path: 'hello.txt', content: 'new line\nkeep\n' } }] },
            { step: 2, tools: [{ name: 'write_file', input: { path: 'denied.txt', content: 'never\n' } }] },
            { step: 3, text: 'Done.' },
          ],
          ...TITLE,
        },
      },
      { 'hello.txt': 'old line\nkeep\n', '.agents/permissions.jsonc': '{ "write_file": { "hello.txt": "ask", "denied.txt": "ask" } }\n' },
    )
    const { p, sessionId } = await s.open()
    p.onPermission = async (r) => ({ outcome: { outcome: 'selected', optionId: r.toolCall.title === 'Write hello.txt' ? 'allow_once' : 'deny' } })
    expect((await say(p, sessionId, 'write the files')).stopReason).toBe('end_turn')
    const hello = path.join(s.work, 'hello.txt')
    const denied = path.join(s.work, 'denied.txt')
    expect(fs.readFileSync(hello, 'utf8')).toBe('new line\nkeep\n')
    expect(fs.existsSync(denied)).toBe(false)

    // The requests: the structured diff first (the old text of an overwrite; no oldText for a new file), kind,
    // locations, the reason as text; the call waits as pending.
    expect(p.permissions.map((x) => x.request.toolCall.title)).toEqual(['Write hello.txt', 'Write denied.txt'])
    const [overwrite, create] = p.permissions.map((x) => x.request.toolCall)
    expect(overwrite).toMatchObject({ kind: 'edit', status: 'pending', locations: [{ path: hello }] })
    expect(overwrite.content?.[0]).toEqual({ type: 'diff', path: hello, oldText: 'old line\nkeep\n', newText: 'new line\nkeep\n' })
    expect(contentText(overwrite.content ?? [])).toMatch(/Asks because: /)
    expect(create).toMatchObject({ kind: 'edit', status: 'pending', locations: [{ path: denied }] })
    expect(create.content?.[0]).toEqual({ type: 'diff', path: denied, newText: 'never\n' })
    expect(p.permissions[0].request.options.filter((o) => o.kind === 'allow_always')[0].optionId).toBe('allow_always_session')

    // What the calls went through, and how the overwrite completed: a diff block, not a fenced text diff.
    const calls = fold(p.updates).calls
    const written = calls.get(overwrite.toolCallId)!
    expect(written.statuses).toEqual(['pending', 'in_progress', 'completed'])
    expect(written.content).toEqual([{ type: 'diff', path: hello, oldText: 'old line\nkeep\n', newText: 'new line\nkeep\n' }])
    expect(written.locations).toEqual([{ path: hello }])
    const refused = calls.get(create.toolCallId)!
    expect(refused.statuses).toEqual(['pending', 'failed'])
    expect(contentText(refused.content)).toMatch(/denied/)
  }, 90_000)
})

describe('subagents in the background and questions', () => {
  it('a background child reports completion in a later update, after the prompt ended', async () => {
    const s = scene({
      agents: {
        build: [
          { match: 'start', step: 1, text: 'Starting it.', tools: [{ name: 'task', input: { subagent_type: 'explore', description: 'Look around', prompt: 'look around', background: true } }] },
          { match: 'start', step: 2, text: 'It runs in the background.' },
          { match: 'Automated notice', text: 'The explorer reported back.' },
        ],
        explore: [{ text: 'Explored everything.', delayMs: 1500 }],
        ...TITLE,
      },
    })
    const { p, sessionId } = await s.open()
    expect((await say(p, sessionId, 'start a background task')).stopReason).toBe('end_turn')
    const atEnd = [...fold(p.updates).calls.values()][0]
    expect(atEnd).toMatchObject({ title: 'Look around · explore (background)', status: 'in_progress' })
    const done = await p.waitForUpdate((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed')
    expect(done.update.sessionUpdate === 'tool_call_update' && done.update.toolCallId).toBe(atEnd.toolCallId)
    await p.waitFor(() => fold(p.updates).calls.get(atEnd.toolCallId)?.content?.some((c) => contentText([c]).includes('Explored everything.')) || undefined, 'the result in the task call')
    await p.waitForUpdate((u) => u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text' && u.update.content.text.includes('reported'))
  }, 90_000)

  it('a question offers its answers; the picked one reaches the agent', async () => {
    const s = scene({
      agents: { build: [{ step: 1, tools: [{ name: 'question', input: { question: 'Which colour?', options: ['red', 'blue'] } }] }, { step: 2, text: 'Noted.' }], ...TITLE },
    })
    const { p, sessionId } = await s.open()
    p.onPermission = async (r) => ({ outcome: { outcome: 'selected', optionId: r.options.find((o) => o.name === 'blue')!.optionId } })
    expect((await say(p, sessionId, 'ask me')).stopReason).toBe('end_turn')
    expect(p.permissions[0].request.options.map((o) => o.name)).toEqual(['red', 'blue', 'Skip (answer in your next message)'])
    const call = [...fold(p.updates).calls.values()][0]
    expect(call).toMatchObject({ title: 'Question: Which colour?', status: 'completed' })
    expect(contentText(call.content)).toBe('The user answered: blue')
  }, 90_000)
})

describe('an image from the editor (issue 28)', () => {
  it('is offered in initialize, reaches the model as an image and stays on the message', async () => {
    const s = scene({ agents: { build: [{ match: '[Image shot.png:]', text: 'A red dot.' }], ...TITLE } })
    const { p, sessionId } = await s.open()
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
    const done = await p.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'what is this?' }, { type: 'image', data: png, mimeType: 'image/png', uri: 'file:///w/shot.png' }] })
    expect(done.stopReason).toBe('end_turn')
    const app = createBridgeClient((await connectLocalSocket(s.home))!)
    const { messages } = await app.calls['sessions.get']({ sessionId })
    const user = messages.find((m) => m.role === 'user')!
    expect(user.parts.map((part) => [part.type, part.data.name ?? part.data.text])).toEqual([
      ['text', 'what is this?'],
      ['file', 'shot.png'],
    ])
    expect(JSON.stringify(messages)).toContain('A red dot.')
    app.close()
  }, 90_000)
})
