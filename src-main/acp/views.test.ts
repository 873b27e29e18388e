import { describe, expect, it } from 'vitest'
import { answerFor, permissionOptions } from './approval-view'
import { approvalRecord } from '../testing/approval-record'
import { promptContent } from './prompt-text'
import { taskStatus, type TaskSource } from './task-view'
import { newTaskCard, type TaskStatus } from '../../src-shared'

const approval = approvalRecord

describe('permission options × what they answer', () => {
  const protectedArgs = { input: { path: '.agents/x.md' }, protected: { path: '.agents/x.md', reason: 'agent configuration' } }
  it.each([
    ['a tool call with a suggestion', approval({}), ['allow_once', 'allow_always_session', 'allow_always_workspace', 'deny']],
    ['a tool call without one (must ask every time)', approval({ alwaysSuggestions: [] }), ['allow_once', 'deny']],
    ['a protected write', approval({ arguments: protectedArgs }), ['allow_once', 'deny']],
    ['a plan', approval({ kind: 'plan', toolName: 'plan_exit', arguments: { plan: 'x' } }), ['approve', 'reject']],
    ['a question with answers', approval({ kind: 'question', toolName: 'question', arguments: { question: 'q', options: ['a', 'b'] } }), ['answer:0', 'answer:1', 'skip']],
    ['a free-text question', approval({ kind: 'question', toolName: 'question', arguments: { question: 'q' } }), ['skip']],
    // A budget is the person's limit, never a rule to widen: once or not at all, whatever suggestions a record holds.
    ['a run at its budget', approval({ kind: 'budget', toolName: 'budget', arguments: { summary: 'The session budget is used up.', budget: { extendBy: { costUsd: 1 } } } }), ['allow_once', 'deny']],
    ['a fan-out', approval({ kind: 'budget', toolName: 'task', arguments: { summary: 'build wants to start 12 subagents at once.', budget: { children: 12 } } }), ['allow_once', 'deny']],
  ])('%s', (_label, a, ids) => {
    const options = permissionOptions(a)
    expect(options.map((o) => o.optionId)).toEqual(ids)
    const answers = Object.fromEntries(ids.map((id) => [id, answerFor(a, id)]))
    for (const [id, answer] of Object.entries(answers)) {
      const kind = options.find((o) => o.optionId === id)!.kind
      // An allow option never denies, a reject option never allows; "always" only where offered.
      expect([id, answer?.decision === 'deny']).toEqual([id, kind.startsWith('reject')])
      if (answer?.decision === 'allow_always') expect(kind).toBe('allow_always')
    }
    // Options the request did not offer are refused, never guessed.
    expect(answerFor(a, 'allow_always_session') === undefined).toBe(!ids.includes('allow_always_session'))
    expect(answerFor(a, 'bogus')).toBeUndefined()
  })
  it('words the budget choices for what they do', () => {
    const extend = approval({ kind: 'budget', toolName: 'budget', arguments: { summary: 's', budget: {} } })
    expect(permissionOptions(extend).map((o) => o.name)).toEqual(['Extend the budget and go on', 'Stop here'])
    const fanOut = approval({ kind: 'budget', toolName: 'task', arguments: { summary: 's', budget: { children: 12 } } })
    expect(permissionOptions(fanOut).map((o) => o.name)).toEqual(['Start 12 subagents', "Don't start them"])
  })
  it('names risky patterns and the question answer', () => {
    const risky = approval({ alwaysSuggestions: [{ pattern: 'git push *', risky: true, reason: 'network' }] })
    expect(permissionOptions(risky)[1].name).toBe('Always allow `git push *` (⚠ network) in this conversation')
    const q = approval({ kind: 'question', toolName: 'question', arguments: { question: 'q', options: ['red', 'blue'] } })
    expect(answerFor(q, 'answer:1')).toEqual({ decision: 'allow_once', feedback: 'blue' })
  })
})

describe('a task call’s status', () => {
  const card = (status: TaskStatus, background: boolean) => newTaskCard({ taskId: 't', agentType: 'explore', description: 'd', background, inspectable: false, depth: 1, status })
  const CASES: [TaskSource['state'], boolean, TaskStatus, string][] = []
  for (const state of ['running', 'ok', 'error'] as const)
    for (const background of [false, true])
      for (const status of ['queued', 'running', 'completed', 'failed', 'aborted'] as const) {
        const expected = state === 'error' ? 'failed' : !background ? (state === 'ok' ? 'completed' : 'in_progress') : status === 'completed' ? 'completed' : status === 'failed' || status === 'aborted' ? 'failed' : 'in_progress'
        CASES.push([state, background, status, expected])
      }
  it.each(CASES)('tool call %s, background %s, card %s → %s', (state, background, status, expected) => {
    expect(taskStatus({ state, card: card(status, background) })).toBe(expected)
  })
})

describe('prompt content', () => {
  it('takes text, links and embedded files; images become attachments; refuses what was not offered', () => {
    expect(
      promptContent([
        { type: 'text', text: 'Look at' },
        { type: 'resource_link', uri: 'file:///w/src/a%20b.ts', name: 'a b.ts' },
        { type: 'resource', resource: { uri: 'file:///w/x.py', text: 'print(1)\n' } },
      ]),
    ).toEqual({ text: 'Look at\n\n@/w/src/a b.ts\n\nAttached /w/x.py:\n```py\nprint(1)\n```', attachments: [] })
    expect(
      promptContent([
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', uri: 'file:///w/shot.png' },
        { type: 'resource', resource: { uri: 'file:///w/b.jpg', blob: '/9j/', mimeType: 'image/jpeg' } },
        { type: 'image', data: 'R0lG', mimeType: 'image/gif' },
      ]),
    ).toEqual({
      text: '',
      attachments: [
        { name: 'shot.png', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        { name: 'b.jpg', mediaType: 'image/jpeg', data: '/9j/' },
        { name: 'image-3.gif', mediaType: 'image/gif', data: 'R0lG' },
      ],
    })
    expect(() => promptContent([{ type: 'image', data: '', mimeType: 'image/tiff' }])).toThrow(/prompt\[0\] is an image of type image\/tiff/)
    expect(() => promptContent([{ type: 'audio', data: '', mimeType: 'audio/wav' }])).toThrow(/prompt\[0\] is audio content/)
    expect(() => promptContent([{ type: 'text', text: '  ' }])).toThrow(/the prompt is empty/)
  })
})
