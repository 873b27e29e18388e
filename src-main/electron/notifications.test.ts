import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src-shared'
import { approvalRecord } from '../testing/approval-record'
import { createMemoryHostApi } from '../bridge/testing'
import { watchForNotifications, type NotificationText } from './notifications'

const status = (s: 'busy' | 'idle', at: number): AgentEvent => ({ type: 'status_change', sessionId: 'ses_root', at, status: s })
const done = (at: number, finishReason: 'stop' | 'error' = 'stop', text = 'All tests pass.'): AgentEvent => ({
  type: 'turn_complete',
  sessionId: 'ses_root',
  at,
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
const inChild = (event: AgentEvent): AgentEvent => ({ type: 'subagent_event', sessionId: 'ses_child', at: 1, agentType: 'explore', event })

function watch(focused: { now: boolean }) {
  const api = createMemoryHostApi()
  const shown: [NotificationText, string][] = []
  const dispose = watchForNotifications(api, { shouldNotify: () => !focused.now, notify: (t, s) => shown.push([t, s]) })
  return { api, shown, dispose }
}

describe('OS notifications of the desktop app (the shared notify policy, issue 26)', () => {
  it('announces an approval at any depth once, only while unfocused, with the root to open', () => {
    const focused = { now: false }
    const { api, shown, dispose } = watch(focused)
    api.emit('ses_root', inChild(approval))
    api.emit('ses_root', inChild(approval))
    expect(shown).toEqual([[{ title: 'Agentry: approval needed', body: 'build › explore wants to run bash: rm -rf build' }, 'ses_root']])
    dispose()
    expect(api.subscriberCount).toBe(0)
  })

  it('announces a run that ended unfocused only when it took 30 s or more; a subagent finishing is not news', () => {
    const focused = { now: false }
    const { api, shown } = watch(focused)
    api.emit('ses_root', status('busy', 1_000))
    api.emit('ses_root', done(5_000))
    expect(shown).toEqual([])
    api.emit('ses_root', status('busy', 10_000))
    api.emit('ses_root', inChild(done(20_000)))
    api.emit('ses_root', done(40_000, 'error', ''))
    expect(shown).toEqual([[{ title: 'Run failed', body: 'Open Agentry to see the result.' }, 'ses_root']])
    // Watched: nothing.
    focused.now = true
    api.emit('ses_root', status('busy', 50_000))
    api.emit('ses_root', done(90_000))
    expect(shown).toHaveLength(1)
  })
})
