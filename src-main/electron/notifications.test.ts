import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src-shared'
import { approvalRecord } from '../testing/approval-record'
import { createMemoryHostApi } from '../bridge/testing'
import { notificationFor, watchForNotifications, type NotificationText } from './notifications'

const done = (finishReason: 'stop' | 'error', text = 'All tests pass.'): AgentEvent => ({
  type: 'turn_complete',
  sessionId: 'ses_root',
  at: 1,
  messageId: 'm',
  finishReason,
  text,
  usage: { prompt: 0, completion: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
})
const approval: AgentEvent = {
  type: 'tool_approval_required',
  sessionId: 'ses_child',
  at: 1,
  approval: approvalRecord({ sessionId: 'ses_child', rootSessionId: 'ses_root', agentPath: ['build', 'explore'], arguments: { input: { command: 'rm -rf build' } } }),
}

describe('OS notifications', () => {
  it('announces a finished or failed root run and an approval at any depth, not a subagent finishing', () => {
    expect(notificationFor(done('stop'))).toEqual({ title: 'Run finished', body: 'All tests pass.' })
    expect(notificationFor(done('error', ''))?.title).toBe('Run failed')
    expect(notificationFor({ type: 'subagent_event', sessionId: 'c', at: 1, agentType: 'explore', event: done('stop') })).toBeUndefined()
    expect(notificationFor({ type: 'subagent_event', sessionId: 'c', at: 1, agentType: 'explore', event: approval })).toEqual({
      title: 'Approval needed',
      body: 'build › explore wants to run bash.',
    })
    expect(notificationFor({ type: 'status_change', sessionId: 's', at: 1, status: 'busy' })).toBeUndefined()
  })

  it('notifies only while the window is unfocused, with the root session to open', () => {
    const api = createMemoryHostApi()
    let focused = true
    const shown: [NotificationText, string][] = []
    const dispose = watchForNotifications(api, { shouldNotify: () => !focused, notify: (t, s) => shown.push([t, s]) })
    api.emit('ses_root', done('stop'))
    focused = false
    api.emit('ses_root', approval)
    expect(shown).toEqual([[{ title: 'Approval needed', body: 'build › explore wants to run bash.' }, 'ses_root']])
    dispose()
    expect(api.subscriberCount).toBe(0)
  })
})
