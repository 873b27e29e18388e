import { describe, expect, it } from 'vitest'
import type { ApprovalRecord } from './approval'
import { LONG_RUN_MS, NotifyPolicy, approvalNotice } from './notify-policy'

function approval(id: string, o: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    id,
    sessionId: 'ses_a',
    rootSessionId: 'ses_a',
    messageId: null,
    toolCallId: `call_${id}`,
    toolName: 'bash',
    kind: 'tool',
    agentPath: ['build', 'worker'],
    arguments: { input: { command: 'npm test' } },
    patterns: [],
    alwaysSuggestions: [],
    status: 'pending',
    answer: null,
    createdAt: 1000,
    resolvedAt: null,
    ...o,
  }
}

const unfocused = { focused: false }
const ids = (list: { tag: string }[]) => list.map((n) => n.tag)

describe('notifications for pending decisions', () => {
  it('once per item while unfocused, also when a resync snapshot delivers the same approvals again', () => {
    const p = new NotifyPolicy()
    p.approvals([], { focused: true, snapshot: true })
    expect(ids(p.approvals([approval('ap_1')], unfocused))).toEqual(['ap_1'])
    expect(ids(p.approvals([approval('ap_1')], unfocused))).toEqual([])
    // reconnect: the snapshot holds the old one and one that arrived while we were away
    expect(ids(p.approvals([approval('ap_1'), approval('ap_2')], { focused: false, snapshot: true }))).toEqual(['ap_2'])
    expect(ids(p.approvals([approval('ap_1'), approval('ap_2')], { focused: false, snapshot: true }))).toEqual([])
  })

  it('the first snapshot after loading the page only remembers what waits (the person is looking at it)', () => {
    const p = new NotifyPolicy()
    expect(p.approvals([approval('ap_1')], { focused: false, snapshot: true })).toEqual([])
    expect(p.approvals([approval('ap_1')], unfocused)).toEqual([])
  })

  it('one that arrived while the window had focus is never announced later', () => {
    const p = new NotifyPolicy()
    expect(p.approvals([approval('ap_1')], { focused: true })).toEqual([])
    expect(p.approvals([approval('ap_1')], unfocused)).toEqual([])
  })

  it('answered ones are forgotten; records that are not pending are no news', () => {
    const p = new NotifyPolicy()
    expect(p.approvals([approval('ap_1', { status: 'approved' })], unfocused)).toEqual([])
    p.approvals([approval('ap_2')], unfocused)
    p.resolved('ap_2')
    expect(p.approvals([approval('ap_3')], unfocused).length).toBe(1)
  })

  it('says who asks, what, and where; clicking opens the conversation in its workspace', () => {
    const n = approvalNotice(approval('ap_1', { conversationTitle: 'Fix the tests', workspaceRoot: '/w/alpha' }))
    expect(n).toMatchObject({ title: 'Agentry: approval needed', rootSessionId: 'ses_a', workspaceRoot: '/w/alpha' })
    expect(n.body).toBe('build › worker wants to run bash: npm test\nFix the tests')
    const q = approvalNotice(approval('ap_2', { kind: 'question', toolName: 'question', arguments: { question: 'Which database?' }, agentPath: ['build'] }))
    expect([q.title, q.body]).toEqual(['Agentry: a question for you', 'build asks: Which database?'])
  })
})

describe('notifications for long runs', () => {
  const done = (at: number) => ({ at, finishReason: 'stop' as const, text: 'All tests pass.', title: 'Fix the tests' })

  it('a root turn of 30 s or more that ends while unfocused, timed from busy to turn_complete', () => {
    const p = new NotifyPolicy()
    p.rootStatus('ses_a', 'busy', 10_000)
    p.rootStatus('ses_a', 'waiting_on_approval', 12_000)
    p.rootStatus('ses_a', 'busy', 20_000)
    p.rootStatus('ses_a', 'idle', 10_000 + LONG_RUN_MS)
    const n = p.turnComplete('ses_a', done(10_000 + LONG_RUN_MS), false)
    expect(n).toMatchObject({ title: 'Run finished', body: 'Fix the tests: All tests pass.', rootSessionId: 'ses_a' })
  })

  it('not for a short run, not while focused, and not for a run whose start was not seen', () => {
    const p = new NotifyPolicy()
    p.rootStatus('ses_a', 'busy', 0)
    expect(p.turnComplete('ses_a', done(LONG_RUN_MS - 1), false)).toBeNull()
    p.rootStatus('ses_a', 'busy', 0)
    expect(p.turnComplete('ses_a', done(LONG_RUN_MS * 2), true)).toBeNull()
    expect(p.turnComplete('ses_b', done(LONG_RUN_MS * 2), false)).toBeNull()
  })

  it('each turn is timed from its own start (an idle gap between turns does not count)', () => {
    const p = new NotifyPolicy()
    p.rootStatus('ses_a', 'busy', 0)
    p.rootStatus('ses_a', 'idle', 1000)
    // turn_complete lost (the page was reloading); the next turn starts long after
    p.rootStatus('ses_a', 'busy', 100_000)
    expect(p.turnComplete('ses_a', done(105_000), false)).toBeNull()
  })
})
