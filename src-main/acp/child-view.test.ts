import { describe, expect, it } from 'vitest'
import { newTaskCard, type TaskStatus } from '../../src-shared'
import { childShown, childState, childTitle, incomingMessage, subagentPatch, type ChildWork, type FinishReason } from './child-view'

const card = (o: Partial<ReturnType<typeof newTaskCard>> = {}) =>
  ({ ...newTaskCard({ taskId: 'ses_c', agentType: 'explore', description: 'Explore the repo', background: false, inspectable: true, depth: 1, status: 'running' }), ...o })

describe('a child session’s title', () => {
  it.each([
    ['the description, then the agent', card(), 'Explore the repo · explore'],
    ['a label instead of the description', card({ options: { label: 'Scout' } }), 'Scout · explore'],
    ['a fork of its caller', card({ agentType: 'build', fork: true }), 'Explore the repo · build (fork)'],
    ['only the agent when there is no description', card({ description: ' ' }), 'explore'],
  ])('%s', (_label, c, title) => {
    expect(childTitle(c)).toBe(title)
  })
})

describe('a child’s work state', () => {
  const work = (status: TaskStatus | undefined, o: Partial<ChildWork> = {}): ChildWork => ({ status, asking: 0, ...o })
  it('is unset while it waits for a slot, running while it works, requires_action while an approval of its own waits', () => {
    expect(childState(work(undefined))).toBeUndefined()
    expect(childState(work('queued'))).toBeUndefined()
    expect(childState(work('running'))).toEqual({ state: 'running' })
    expect(childState(work('running', { asking: 2 }))).toEqual({ state: 'requires_action' })
  })
  const ENDS: [TaskStatus, FinishReason | undefined, string][] = [
    ['completed', 'stop', 'end_turn'],
    ['completed', 'max_steps', 'max_turn_requests'],
    ['failed', 'budget', 'max_turn_requests'],
    ['aborted', 'aborted', 'cancelled'],
    ['failed', 'error', 'error'],
    // stopped before its turn began: only the card says how
    ['completed', undefined, 'end_turn'],
    ['aborted', undefined, 'cancelled'],
    ['failed', undefined, 'error'],
  ]
  it.each(ENDS)('ended %s (turn %s) → idle, %s', (status, finish, stopReason) => {
    const state = childState(work(status, { finish, error: 'model unreachable', asking: 1 }))
    expect(state).toMatchObject({ state: 'idle', stopReason })
    if (stopReason === 'error') expect(state).toMatchObject({ error: { code: -32603, message: 'model unreachable' } })
  })
  it('reports the tokens of the work that ended', () => {
    const c = card({ status: 'completed', tokensIn: 100, tokensOut: 20, cacheRead: 60 })
    expect(childState(work('completed', { finish: 'stop', card: c }))).toEqual({
      state: 'idle',
      stopReason: 'end_turn',
      usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120, cachedReadTokens: 60 },
    })
  })
})

describe('subagent_update patches', () => {
  it('announces with every field and cancel, then sends only what changed, and nothing when nothing did', () => {
    const first = childShown(card({ status: 'queued' }), 'explore', { status: 'queued', asking: 0 })
    expect(subagentPatch('ses_c', undefined, first)).toEqual({
      sessionUpdate: 'subagent_update',
      sessionId: 'ses_c',
      capabilities: { cancel: {} },
      title: 'Explore the repo · explore',
      description: 'Explore the repo',
    })
    const running = childShown(card(), 'explore', { status: 'running', asking: 0 })
    expect(subagentPatch('ses_c', first, running)).toEqual({ sessionUpdate: 'subagent_update', sessionId: 'ses_c', state: { state: 'running' } })
    expect(subagentPatch('ses_c', running, childShown(card({ steps: 3 }), 'explore', { status: 'running', asking: 0 }))).toBeUndefined()
  })
  it('names the worktree a child works in; a child met without its card is named by its agent', () => {
    const isolated = card({ worktree: { path: '/data/wt/ses_c', branch: 'agentry/ses_c', base: 'abc', repo: '/w', state: 'active' } })
    expect(childShown(isolated, 'explore', { status: 'running', asking: 0 }).cwd).toBe('/data/wt/ses_c')
    expect(childShown(undefined, 'explore', { status: 'running', asking: 0 })).toEqual({ title: 'explore', state: { state: 'running' } })
  })
})

describe('a message arriving in a child session', () => {
  it('is a session_message from the parent, the person’s own when steered by the person, from no one named when another agent sent it', () => {
    expect(incomingMessage('ses_p', 'ses_c', { id: 'msg_1', metadata: { agent: 'explore' } }, 'look around')).toEqual({
      sessionUpdate: 'session_message',
      messageId: 'msg_1',
      senderSessionId: 'ses_p',
      recipientSessionId: 'ses_c',
      content: [{ type: 'text', text: 'look around' }],
    })
    expect(incomingMessage('ses_p', 'ses_c', { id: 'msg_2', metadata: { steered: 'person' } }, 'also check b')).toEqual({
      sessionUpdate: 'user_message_chunk',
      messageId: 'msg_2',
      content: { type: 'text', text: 'also check b' },
    })
    const fromAgent = incomingMessage('ses_p', 'ses_c', { id: 'msg_3', metadata: { steered: 'agent' } }, 'hurry')
    expect(fromAgent).toMatchObject({ sessionUpdate: 'session_message', recipientSessionId: 'ses_c' })
    expect(fromAgent).not.toHaveProperty('senderSessionId')
  })
})
