import type { RequestPermissionRequest, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk/unstable'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AgentEvent, ApprovalRecord, MessageWithParts } from '../../src-shared'
import { unifiedDiff } from '../../src-shared/diff'
import { approvalRecord } from '../testing/approval-record'
import { permissionOptions } from './approval-view'
import { LiveView, START_GRACE_MS } from './live-view'
import { PermissionRequests } from './permission-requests'
import { toolContent, toolTitle } from './tool-view'
import { replayUpdates } from './view'

/**
 * What an editor sees around a permission (issue 30): the request carries the change as a structured diff (with the
 * call's kind and locations), every file change completes as one, and a call's status only moves forward.
 */

const W = '/w'
const at = 0

/** A LiveView and the permission requests of one root session, with everything they sent. */
function harness() {
  const updates: SessionUpdate[] = []
  const requests: RequestPermissionRequest[] = []
  const view = new LiveView('ses_1', { workdir: W, notices: true }, (u) => updates.push(u), () => false)
  const permissions = new PermissionRequests({
    requestPermission: (r) => {
      requests.push(r)
      return new Promise(() => {}) // answered through the host's events below
    },
    api: () => Promise.reject(new Error('no host')),
    log: () => {},
    placeOf: () => ({ sessionId: 'ses_1', view, child: false }),
  })
  const emit = (e: AgentEvent) => {
    permissions.onEvent(e)
    view.onEvent(e)
  }
  /** the statuses one call went through, in order (its request's status in brackets) */
  const statuses = (toolCallId: string) => {
    const out: string[] = []
    for (const u of updates) if ((u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && u.toolCallId === toolCallId && u.status) out.push(u.status)
    return out
  }
  return { updates, requests, view, permissions, emit, statuses }
}

const start = (toolName: string, input: unknown, sessionId = 'ses_1'): AgentEvent => ({ type: 'tool_call_start', sessionId, at, messageId: 'msg_1', partId: 'prt_1', toolCallId: 'call_1', toolName, input })
const end = (toolName: string, ok: boolean, output: string, metadata?: Record<string, unknown>, sessionId = 'ses_1'): AgentEvent => ({
  type: 'tool_call_end',
  sessionId,
  at,
  messageId: 'msg_1',
  partId: 'prt_1',
  toolCallId: 'call_1',
  toolName,
  ok,
  output,
  durationMs: 1,
  ...(metadata ? { metadata } : {}),
})
const required = (approval: ApprovalRecord, sessionId = approval.sessionId): AgentEvent => ({ type: 'tool_approval_required', sessionId, at, approval })
const resolved = (outcome: 'approved' | 'denied', sessionId = 'ses_1'): AgentEvent => ({ type: 'tool_approval_resolved', sessionId, at, approvalId: 'apr_1', outcome })
const sub = (e: AgentEvent): AgentEvent => ({ type: 'subagent_event', sessionId: 'ses_child', at, agentType: 'general', event: e })

const overwrite = { path: 'src/a.txt', content: 'one\nTWO\nthree\n' }
const OLD = 'one\ntwo\nthree\n'
const writeApproval = (over: Partial<ApprovalRecord> = {}) =>
  approvalRecord({
    toolName: 'write_file',
    arguments: { input: overwrite, summary: 'Overwrite src/a.txt (3 → 3 lines)', diff: unifiedDiff(OLD, overwrite.content, 'src/a.txt'), reason: 'write_file src/a.txt is set to ask' },
    patterns: ['src/a.txt'],
    alwaysSuggestions: [{ pattern: 'src/a.txt', risky: false }],
    ...over,
  })

function diffBlock(content: ToolCallContent[] | null | undefined) {
  return content?.find((c) => c.type === 'diff')
}

describe('a permission request shows the change as a structured diff', () => {
  it('an overwrite: the diff block first (old and new text, absolute path), kind and locations, the reason as text', () => {
    const h = harness()
    h.emit(start('write_file', overwrite))
    h.emit(required(writeApproval()))
    expect(h.requests).toHaveLength(1)
    const call = h.requests[0].toolCall
    expect(call).toMatchObject({ toolCallId: 'prt_1', title: 'Write src/a.txt', kind: 'edit', status: 'pending', locations: [{ path: '/w/src/a.txt' }] })
    // First: a client that reviews the first content block as the diff (CodeCompanion) opens it.
    expect(call.content?.[0]).toEqual({ type: 'diff', path: '/w/src/a.txt', oldText: OLD, newText: overwrite.content })
    const texts = (call.content ?? []).flatMap((c) => (c.type === 'content' && c.content.type === 'text' ? [c.content.text] : []))
    expect(texts).toContain('Asks because: write_file src/a.txt is set to ask')
    expect(texts.join('\n')).not.toContain('```diff') // the diff is said once, as the block
  })

  it('a new file: the diff block has no oldText (not null)', () => {
    const h = harness()
    const input = { path: 'new.txt', content: 'hello\n' }
    h.emit(start('write_file', input))
    h.emit(required(approvalRecord({ toolName: 'write_file', arguments: { input, summary: 'Create new.txt (1 lines)', diff: unifiedDiff('', 'hello\n', 'new.txt'), reason: 'r' } })))
    const block = diffBlock(h.requests[0].toolCall.content)
    expect(block).toEqual({ type: 'diff', path: '/w/new.txt', newText: 'hello\n' })
    expect(block && 'oldText' in block).toBe(false)
  })

  it('an edit: the replaced text and its replacement', () => {
    const h = harness()
    const input = { path: 'b.ts', old_string: 'let x = 1', new_string: 'let x = 2' }
    h.emit(start('edit_file', input))
    h.emit(required(approvalRecord({ toolName: 'edit_file', arguments: { input, summary: 'Edit b.ts (1 replacement)', diff: unifiedDiff('let x = 1\n', 'let x = 2\n', 'b.ts'), reason: 'r' } })))
    expect(h.requests[0].toolCall).toMatchObject({ kind: 'edit', locations: [{ path: '/w/b.ts' }] })
    expect(h.requests[0].toolCall.content?.[0]).toEqual({ type: 'diff', path: '/w/b.ts', oldText: 'let x = 1', newText: 'let x = 2' })
  })

  it('a subagent’s write: a call of its own, announced pending with the diff, kind and locations', () => {
    const h = harness()
    h.emit(sub(start('write_file', overwrite, 'ses_child')))
    h.emit(required(writeApproval({ sessionId: 'ses_child', agentPath: ['build', 'general'] }), 'ses_1'))
    const call = h.requests[0].toolCall
    expect(call).toMatchObject({ toolCallId: 'sub:ses_child:call_1', title: 'build › general: Write src/a.txt', kind: 'edit', status: 'pending', locations: [{ path: '/w/src/a.txt' }] })
    expect(call.content?.[0]).toEqual({ type: 'diff', path: '/w/src/a.txt', oldText: OLD, newText: overwrite.content })
  })

  it('a command keeps its text content (no diff to show)', () => {
    const h = harness()
    h.emit(start('bash', { command: 'git push origin main' }))
    h.emit(required(approvalRecord({ arguments: { input: { command: 'git push origin main' }, summary: 'Run git push', reason: 'bash asks' } })))
    expect(h.requests[0].toolCall).toMatchObject({ kind: 'execute', locations: [] })
    expect(diffBlock(h.requests[0].toolCall.content)).toBeUndefined()
  })
})

describe('every file change completes as a diff block', () => {
  const done = (input: unknown, metadata: Record<string, unknown>, output = 'Overwrote src/a.txt (3 → 3 lines).') =>
    toolContent({ toolName: 'write_file', input, state: 'ok', output, metadata, workdir: W })

  it('an overwrite of an existing file: old text from the tool’s diff, not a fenced text diff', () => {
    const content = done(overwrite, { path: 'src/a.txt', created: false, diff: unifiedDiff(OLD, overwrite.content, 'src/a.txt') })
    expect(content).toEqual([{ type: 'diff', path: '/w/src/a.txt', oldText: OLD, newText: overwrite.content }])
  })

  it('an overwrite without a final newline, and one that empties the file', () => {
    const a = { path: 'x', content: 'b' }
    expect(done(a, { created: false, diff: unifiedDiff('a\nkeep', 'b', 'x') })).toEqual([{ type: 'diff', path: '/w/x', oldText: 'a\nkeep', newText: 'b' }])
    const empty = { path: 'x', content: '' }
    expect(done(empty, { created: false, diff: unifiedDiff('gone\n', '', 'x') })).toEqual([{ type: 'diff', path: '/w/x', oldText: 'gone\n', newText: '' }])
  })

  it('a new file: no oldText field (null breaks some clients’ formatters)', () => {
    const [block] = done({ path: 'n.txt', content: 'hi\n' }, { created: true, diff: unifiedDiff('', 'hi\n', 'n.txt') }, 'Created n.txt (1 lines).')
    expect(block).toEqual({ type: 'diff', path: '/w/n.txt', newText: 'hi\n' })
    expect('oldText' in block).toBe(false)
  })

  it('nothing changed: said in words, no diff', () => {
    expect(done(overwrite, { created: false, diff: '' }, 'src/a.txt already had exactly this content; nothing changed.')).toEqual([
      { type: 'content', content: { type: 'text', text: 'src/a.txt already had exactly this content; nothing changed.' } },
    ])
  })

  it('a subagent’s write that asked completes as a diff block too', () => {
    const h = harness()
    h.emit(sub(start('write_file', overwrite, 'ses_child')))
    h.emit(required(writeApproval({ sessionId: 'ses_child', agentPath: ['build', 'general'] }), 'ses_1'))
    h.emit(sub(resolved('approved', 'ses_child')))
    h.emit(sub(end('write_file', true, 'Overwrote src/a.txt (3 → 3 lines).', { path: 'src/a.txt', created: false, diff: unifiedDiff(OLD, overwrite.content, 'src/a.txt') }, 'ses_child')))
    const last = h.updates.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'sub:ses_child:call_1').at(-1)
    expect(last).toMatchObject({ status: 'completed', content: [{ type: 'diff', path: '/w/src/a.txt', oldText: OLD, newText: overwrite.content }] })
  })
})

describe('a call’s status only moves forward: pending → in_progress → completed | failed', () => {
  it('a write that asks: pending while it waits, in progress once allowed, then completed', () => {
    const h = harness()
    h.emit(start('write_file', overwrite))
    h.emit(required(writeApproval()))
    expect(h.requests[0].toolCall.status).toBe('pending')
    expect(h.statuses('prt_1')).toEqual(['pending'])
    h.emit(resolved('approved'))
    h.emit(end('write_file', true, 'Overwrote src/a.txt (3 → 3 lines).', { created: false, diff: unifiedDiff(OLD, overwrite.content, 'src/a.txt') }))
    expect(h.statuses('prt_1')).toEqual(['pending', 'in_progress', 'completed'])
  })

  it('a denied call: pending, then failed', () => {
    const h = harness()
    h.emit(start('write_file', overwrite))
    h.emit(required(writeApproval()))
    h.emit(resolved('denied'))
    h.emit(end('write_file', false, 'The user denied this write_file call.', { denied: true }))
    expect(h.statuses('prt_1')).toEqual(['pending', 'failed'])
  })

  it('a subagent’s write that asks: pending, in progress, completed', () => {
    const h = harness()
    h.emit(sub(start('write_file', overwrite, 'ses_child')))
    h.emit(required(writeApproval({ sessionId: 'ses_child', agentPath: ['build', 'general'] }), 'ses_1'))
    h.emit(sub(resolved('approved', 'ses_child')))
    h.emit(sub(end('write_file', true, 'ok', { created: false, diff: unifiedDiff(OLD, overwrite.content, 'src/a.txt') }, 'ses_child')))
    expect(h.statuses('sub:ses_child:call_1')).toEqual(['pending', 'in_progress', 'completed'])
  })

  describe('without an ask', () => {
    afterEach(() => {
      vi.useRealTimers()
    })

    it('a call that asks nothing is in progress once its grace passed (a long command does not sit pending), then completed', () => {
      vi.useFakeTimers()
      const h = harness()
      h.emit(start('bash', { command: 'make build' }))
      expect(h.statuses('prt_1')).toEqual(['pending'])
      vi.advanceTimersByTime(START_GRACE_MS)
      expect(h.statuses('prt_1')).toEqual(['pending', 'in_progress'])
      h.emit(end('bash', true, 'built'))
      expect(h.statuses('prt_1')).toEqual(['pending', 'in_progress', 'completed'])
    })

    it('a quick call ends before its grace: pending, completed, and nothing after', () => {
      vi.useFakeTimers()
      const h = harness()
      h.emit(start('read_file', { path: 'a.txt' }))
      h.emit(end('read_file', true, 'text'))
      vi.advanceTimersByTime(START_GRACE_MS * 2)
      expect(h.statuses('prt_1')).toEqual(['pending', 'completed'])
    })

    it('a call that asked stays pending past the grace until it is allowed', () => {
      vi.useFakeTimers()
      const h = harness()
      h.emit(start('write_file', overwrite))
      h.emit(required(writeApproval()))
      vi.advanceTimersByTime(START_GRACE_MS * 10)
      expect(h.statuses('prt_1')).toEqual(['pending'])
      h.emit(resolved('approved'))
      expect(h.statuses('prt_1')).toEqual(['pending', 'in_progress'])
    })

    it('asked again while it runs: the request does not take its status back', () => {
      vi.useFakeTimers()
      const h = harness()
      h.emit(start('web_fetch', { url: 'https://example.com' }))
      vi.advanceTimersByTime(START_GRACE_MS)
      h.emit(required(approvalRecord({ toolName: 'web_fetch', arguments: { input: { url: 'https://example.com' }, reason: 'a redirect to another host' } })))
      expect(h.requests[0].toolCall.status).toBeUndefined()
      h.emit(resolved('approved'))
      h.emit(end('web_fetch', true, 'page'))
      expect(h.statuses('prt_1')).toEqual(['pending', 'in_progress', 'completed'])
    })
  })

  it('a loaded session’s call that waits on its approval replays as pending, so its request does not go back', () => {
    const part = { id: 'prt_1', messageId: 'msg_1', sessionId: 'ses_1', index: 0, type: 'tool-write_file', data: { input: overwrite }, toolCallId: 'call_1', toolState: 'approval-requested' as const }
    const m = { id: 'msg_1', sessionId: 'ses_1', role: 'assistant', metadata: {}, createdAt: 0, updatedAt: 0, parts: [part] } as unknown as MessageWithParts
    const [update] = replayUpdates([m], { workdir: W, notices: true })
    expect(update).toMatchObject({ sessionUpdate: 'tool_call', toolCallId: 'prt_1', status: 'pending' })
    const h = harness()
    h.view.seed([m])
    h.emit(required(writeApproval()))
    expect(h.requests[0].toolCall).toMatchObject({ toolCallId: 'prt_1', status: 'pending' })
    h.emit(resolved('approved'))
    expect(h.statuses('prt_1')).toEqual(['in_progress'])
  })
})

describe('titles and options', () => {
  it('a subagent’s task call: the task first, then the agent', () => {
    expect(toolTitle('task', { subagent_type: 'explore', description: 'Explore the repo' })).toBe('Explore the repo · explore')
    expect(toolTitle('task', { subagent_type: 'explore', description: 'Explore the repo', background: true })).toBe('Explore the repo · explore (background)')
  })

  it('the first "always" option is the narrower scope (this conversation); both stay offered', () => {
    const options = permissionOptions(writeApproval())
    const always = options.filter((o) => o.kind === 'allow_always')
    expect(always.map((o) => o.optionId)).toEqual(['allow_always_session', 'allow_always_workspace'])
    expect(options.find((o) => o.kind === 'allow_always')?.name).toMatch(/in this conversation$/)
  })
})
