import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore } from './store'
import type { Store } from './store'

let store: Store
beforeEach(() => {
  store = openStore(':memory:')
})
afterEach(() => store.close())

describe('approvals', () => {
  const input = {
    sessionId: 'ses_child',
    rootSessionId: 'ses_root',
    messageId: 'msg_1',
    toolCallId: 'call_1',
    toolName: 'bash',
    agentPath: ['build', 'general'],
    arguments: { input: { command: 'rm -rf build' } },
    patterns: ['rm -rf build'],
    alwaysSuggestions: [{ pattern: 'rm *', risky: false }],
  }

  it('round-trips a pending approval, also for a child that has no session row', () => {
    const a = store.approvals.createApproval(input)
    expect(a).toMatchObject({ ...input, kind: 'tool', status: 'pending', answer: null, resolvedAt: null })
    expect(a.id).toMatch(/^apr_/)
    expect(store.approvals.getApproval(a.id)).toEqual(a)
  })

  it('filters by root, session and status', () => {
    const a = store.approvals.createApproval(input)
    const b = store.approvals.createApproval({ ...input, sessionId: 'ses_root', kind: 'question' })
    store.approvals.createApproval({ ...input, rootSessionId: 'ses_other' })
    store.approvals.resolveApproval(b.id, 'approved', { answer: 'yes' })
    expect(store.approvals.listApprovals({ rootSessionId: 'ses_root' }).map((x) => x.id)).toEqual([a.id, b.id])
    expect(store.approvals.listApprovals({ rootSessionId: 'ses_root', status: 'pending' }).map((x) => x.id)).toEqual([a.id])
    expect(store.approvals.listApprovals({ sessionId: 'ses_root' }).map((x) => x.id)).toEqual([b.id])
    expect(store.approvals.listApprovals()).toHaveLength(3)
  })

  it('resolves once: the first answer wins, a second returns undefined', () => {
    const a = store.approvals.createApproval(input)
    const resolved = store.approvals.resolveApproval(a.id, 'denied', { reason: 'too risky' })
    expect(resolved).toMatchObject({ status: 'denied', answer: { reason: 'too risky' } })
    expect(resolved?.resolvedAt).toEqual(expect.any(Number))
    expect(store.approvals.resolveApproval(a.id, 'approved')).toBeUndefined()
    expect(store.approvals.getApproval(a.id)?.status).toBe('denied')
    expect(() => store.approvals.resolveApproval('apr_nope', 'approved')).toThrow(/no approval with id "apr_nope"/)
    expect(() => store.approvals.resolveApproval(a.id, 'maybe' as never)).toThrow(/resolveApproval status/)
  })
})

describe('runtime rules', () => {
  it('adds, lists by scope and revokes', () => {
    const r1 = store.approvals.addRule({ scope: 'session', scopeKey: 'ses_1', tool: 'bash', pattern: 'git *', action: 'allow' })
    const r2 = store.approvals.addRule({ scope: 'workspace', scopeKey: '/w', tool: 'edit_file', pattern: 'src/**', action: 'allow' })
    expect(r1.id).toMatch(/^rul_/)
    expect(store.approvals.listRules()).toEqual([r1, r2])
    expect(store.approvals.listRules({ scope: 'workspace', scopeKey: '/w' })).toEqual([r2])
    expect(store.approvals.listRules({ scope: 'session', scopeKey: '/w' })).toEqual([])
    expect(store.approvals.revokeRule(r1.id)).toBe(true)
    expect(store.approvals.revokeRule(r1.id)).toBe(false)
    expect(store.approvals.listRules()).toEqual([r2])
  })

  it('rejects a rule with a bad action, naming the field', () => {
    expect(() =>
      store.approvals.addRule({ scope: 'session', scopeKey: 'ses_1', tool: 'bash', pattern: '*', action: 'yes' as never }),
    ).toThrow(/addRule: action/)
  })
})

describe('background jobs', () => {
  const job = {
    id: 'ses_child1',
    parentSessionId: 'ses_parent',
    rootSessionId: 'ses_root',
    parentMessageId: 'msg_1',
    toolCallId: 'call_1',
    agentType: 'explore',
    description: 'scan the repo',
  }

  it('records running jobs and their end', () => {
    const created = store.queue.createJob(job)
    expect(created).toMatchObject({ ...job, status: 'running', endedAt: null })
    store.queue.createJob({ ...job, id: 'ses_child2', rootSessionId: 'ses_other' })
    expect(store.queue.listJobs({ status: 'running' }).map((j) => j.id)).toEqual(['ses_child1', 'ses_child2'])
    const ended = store.queue.updateJob('ses_child1', 'interrupted')
    expect(ended.status).toBe('interrupted')
    expect(ended.endedAt).toEqual(expect.any(Number))
    expect(store.queue.listJobs({ status: 'running' }).map((j) => j.id)).toEqual(['ses_child2'])
    expect(store.queue.listJobs({ rootSessionId: 'ses_root' }).map((j) => j.id)).toEqual(['ses_child1'])
    expect(store.queue.getJob('ses_child1')?.status).toBe('interrupted')
  })

  it('names the job when it is unknown or duplicated', () => {
    store.queue.createJob(job)
    expect(() => store.queue.createJob(job)).toThrow(/job with id "ses_child1" already exists/)
    expect(() => store.queue.updateJob('ses_nope', 'completed')).toThrow(/no background job with id "ses_nope"/)
  })
})

describe('prompt queue', () => {
  it('queues in arrival order and moves entries out of the queue', () => {
    const a = store.queue.enqueuePrompt({ sessionId: 'ses_1', text: 'first' })
    const b = store.queue.enqueuePrompt({ sessionId: 'ses_1', text: 'second', agent: 'plan' })
    store.queue.enqueuePrompt({ sessionId: 'ses_2', text: 'elsewhere' })
    expect(a.duplicate).toBe(false)
    expect(b.entry).toMatchObject({ text: 'second', agent: 'plan', status: 'queued', requestId: null })
    expect(store.queue.listQueue('ses_1').map((e) => e.text)).toEqual(['first', 'second'])
    expect(store.queue.setQueueStatus(a.entry.id, 'started').status).toBe('started')
    store.queue.setQueueStatus(b.entry.id, 'cancelled')
    expect(store.queue.listQueue('ses_1')).toEqual([])
    expect(store.queue.listQueue('ses_1', 'started').map((e) => e.id)).toEqual([a.entry.id])
    expect(() => store.queue.setQueueStatus('que_nope', 'started')).toThrow(/que_nope/)
  })

  it('returns the existing entry for a duplicate requestId instead of queueing twice', () => {
    const first = store.queue.enqueuePrompt({ sessionId: 'ses_1', requestId: 'req-1', text: 'hello' })
    const retry = store.queue.enqueuePrompt({ sessionId: 'ses_1', requestId: 'req-1', text: 'hello' })
    expect(retry.duplicate).toBe(true)
    expect(retry.entry).toEqual(first.entry)
    expect(store.queue.listQueue('ses_1')).toHaveLength(1)
  })
})
