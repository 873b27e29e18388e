import { describe, expect, it } from 'vitest'
import type { AgentEvent, MessageWithParts } from '../../src-shared'
import { lastUserText, TranscriptDraft, type Transcripts } from './transcript-model'

const at = 1_700_000_000_000
const msg = (sessionId: string, id: string, role: 'user' | 'assistant' = 'assistant') => ({ id, sessionId, role, metadata: {}, createdAt: at, updatedAt: at })
const delta = (sessionId: string, messageId: string, partId: string, d: string): AgentEvent => ({
  type: 'content_delta',
  sessionId,
  at,
  messageId,
  partId,
  partType: 'text',
  delta: d,
})
const text = (t: Transcripts, s: string, m: string) => t[s].messages.get(m)!.parts.map((p) => p.data.text).join('')

function run(base: Transcripts, events: [number, AgentEvent][]): Transcripts {
  const d = new TranscriptDraft(base)
  for (const [seq, e] of events) d.apply(seq, e)
  return d.result()
}

describe('TranscriptDraft', () => {
  it('streams deltas into one text part in order', () => {
    const t = run({}, [
      [1, { type: 'message_created', sessionId: 's', at, message: msg('s', 'm1') }],
      [2, delta('s', 'm1', 'p1', 'Hello ')],
      [3, delta('s', 'm1', 'p1', 'world')],
    ])
    expect(t.s.messageIds).toEqual(['m1'])
    expect(text(t, 's', 'm1')).toBe('Hello world')
  })

  it('skips events already contained in a seeded transcript, so a reload never doubles text', () => {
    const seeded: MessageWithParts[] = [
      { ...msg('s', 'm1'), parts: [{ id: 'p1', messageId: 'm1', sessionId: 's', index: 0, type: 'text', data: { text: 'Hello ' }, toolCallId: null, toolState: null }] },
    ]
    const d = new TranscriptDraft({})
    d.seed('s', seeded, 2)
    d.apply(2, delta('s', 'm1', 'p1', 'Hello ')) // replayed, already in the seed
    d.apply(3, delta('s', 'm1', 'p1', 'world'))
    expect(text(d.result(), 's', 'm1')).toBe('Hello world')
  })

  it('routes subagent events to the child transcript, recursively for grandchildren', () => {
    const inner: AgentEvent = { type: 'message_created', sessionId: 'grand', at, message: msg('grand', 'g1') }
    const wrapped: AgentEvent = {
      type: 'subagent_event',
      sessionId: 'child',
      at,
      agentType: 'explore',
      event: { type: 'subagent_event', sessionId: 'grand', at, agentType: 'general', event: inner },
    }
    const t = run({}, [
      [1, wrapped],
      [2, { type: 'subagent_event', sessionId: 'grand', at, agentType: 'general', event: delta('grand', 'g1', 'gp', 'deep') }],
    ])
    expect(text(t, 'grand', 'g1')).toBe('deep')
    expect(t.child).toBeUndefined()
  })

  it('tracks a tool call from start to end with its output and state', () => {
    const t = run({}, [
      [1, { type: 'message_created', sessionId: 's', at, message: msg('s', 'm1') }],
      [2, { type: 'tool_call_start', sessionId: 's', at, messageId: 'm1', partId: 'p2', toolCallId: 'c1', toolName: 'bash', input: { command: 'ls' } }],
      [3, { type: 'tool_call_end', sessionId: 's', at, messageId: 'm1', partId: 'p2', toolCallId: 'c1', toolName: 'bash', ok: false, output: 'denied', durationMs: 5 }],
    ])
    const p = t.s.messages.get('m1')!.parts[0]
    expect(p.type).toBe('tool-bash')
    expect(p.toolState).toBe('output-error')
    expect(p.data).toMatchObject({ input: { command: 'ls' }, output: 'denied', durationMs: 5 })
  })

  it('keeps the nested transcript of a task part when the card updates, and seeds the opaque child from it', () => {
    const nested: MessageWithParts[] = [{ ...msg('kid', 'k1'), parts: [] }]
    const task = {
      taskId: 'kid', agentType: 'explore', description: 'Survey', background: false, inspectable: false, depth: 1,
      status: 'running' as const, steps: 1, tokensIn: 1, tokensOut: 1, costUsd: null, startedAt: at, endedAt: null, error: null,
    }
    const d = new TranscriptDraft({})
    d.seed('s', [{ ...msg('s', 'm1'), parts: [{ id: 'p1', messageId: 'm1', sessionId: 's', index: 0, type: 'tool-task', data: { subagent: { ...task, transcript: nested } }, toolCallId: 'c', toolState: 'input-available' }] }], 5)
    expect(d.result().kid.messageIds).toEqual(['k1'])
    d.apply(6, { type: 'task_update', sessionId: 's', at, messageId: 'm1', partId: 'p1', toolCallId: 'c', task: { ...task, status: 'completed', steps: 3 } })
    const data = d.result().s.messages.get('m1')!.parts[0].data.subagent as { status: string; steps: number; transcript: unknown[] }
    expect(data.status).toBe('completed')
    expect(data.steps).toBe(3)
    expect(data.transcript).toHaveLength(1)
  })

  it('does not mutate the state it started from (rendered objects stay stable)', () => {
    const base = run({}, [[1, { type: 'message_created', sessionId: 's', at, message: msg('s', 'm1') }], [2, delta('s', 'm1', 'p', 'a')]])
    const before = base.s.messages.get('m1')!
    const next = run(base, [[3, delta('s', 'm1', 'p', 'b')]])
    expect(before.parts[0].data.text).toBe('a')
    expect(next.s.messages.get('m1')).not.toBe(before)
    expect(text(next, 's', 'm1')).toBe('ab')
  })

  it('drops hidden messages (retry, regenerate, edit) and keeps the rest in order', () => {
    const base = run({}, [
      [1, { type: 'message_created', sessionId: 's', at, message: msg('s', 'm1') }],
      [2, { type: 'message_created', sessionId: 's', at, message: msg('s', 'm2') }],
      [3, { type: 'message_created', sessionId: 's', at, message: msg('s', 'm3') }],
    ])
    const t = run(base, [[4, { type: 'messages_hidden', sessionId: 's', at, messageIds: ['m2', 'm3'], reason: 'retried' }]])
    expect(t.s.messageIds).toEqual(['m1'])
    expect(t.s.messages.has('m2')).toBe(false)
    expect(base.s.messageIds).toEqual(['m1', 'm2', 'm3'])
  })

  it('an error event adds no row of its own: the stored error message is the row, in place', () => {
    const t = run({}, [[1, { type: 'error', sessionId: 's', at, code: 'auth', message: 'missing key for anthropic' }]])
    expect(t.s?.messageIds ?? []).toEqual([])
  })
})

describe('lastUserText (↑ in an empty message box)', () => {
  it('gives a command back as it was typed, not as the prompt it became', () => {
    const t = run({}, [
      [1, { type: 'message_created', sessionId: 's', at, message: { ...msg('s', 'm1', 'user'), metadata: { command: { name: 'review', args: 'main' } } } }],
      [2, { type: 'part_updated', sessionId: 's', at, part: { id: 'p1', messageId: 'm1', sessionId: 's', index: 0, type: 'text', data: { text: 'Review the branch main' }, toolCallId: null, toolState: null } }],
    ])
    expect(lastUserText(t.s)).toBe('/review main')
  })
})
