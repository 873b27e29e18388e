import { describe, expect, it } from 'vitest'
import type { ApprovalRecord, SessionSummary } from '../../src-shared'
import { useApprovals } from './approvals-store'
import { batchTargets, inboxItems, pruneSelection, selectionState, toggleAll, toggleOne, workspaceName, UNTITLED } from './inbox'
import { answerMany } from './inbox-actions'
import { knownConversations } from './inbox-store'

function approval(id: string, o: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    id,
    sessionId: o.rootSessionId ?? 'ses_a',
    rootSessionId: 'ses_a',
    messageId: null,
    toolCallId: `call_${id}`,
    toolName: 'bash',
    kind: 'tool',
    agentPath: ['build'],
    arguments: { input: { command: `echo ${id}` } },
    patterns: [],
    alwaysSuggestions: [],
    status: 'pending',
    answer: null,
    createdAt: 1000,
    resolvedAt: null,
    ...o,
  }
}

const byId = (...list: ApprovalRecord[]) => Object.fromEntries(list.map((a) => [a.id, a]))

describe('inbox items', () => {
  it('lists every pending decision of two workspaces newest first, with workspace and conversation title', () => {
    const pending = byId(
      approval('ap_1', { rootSessionId: 'ses_a', workspaceRoot: '/w/alpha', conversationTitle: 'Alpha', createdAt: 1000 }),
      approval('ap_2', { rootSessionId: 'ses_b', workspaceRoot: '/w/beta', conversationTitle: 'Beta', createdAt: 3000, kind: 'question', toolName: 'question' }),
      approval('ap_3', { rootSessionId: 'ses_a', sessionId: 'ses_a_child', workspaceRoot: '/w/alpha', conversationTitle: 'Alpha', createdAt: 2000, agentPath: ['build', 'worker'] }),
      approval('ap_4', { rootSessionId: 'ses_b', workspaceRoot: '/w/beta', createdAt: 3000, status: 'approved' }),
    )
    const items = inboxItems(pending, {})
    expect(items.map((i) => i.approval.id)).toEqual(['ap_2', 'ap_3', 'ap_1'])
    expect(items.map((i) => [i.workspaceRoot, i.conversationTitle])).toEqual([
      ['/w/beta', 'Beta'],
      ['/w/alpha', 'Alpha'],
      ['/w/alpha', 'Alpha'],
    ])
    expect(items.map((i) => i.batchable)).toEqual([false, true, true])
  })

  it('ties on time break by id, so the order never flickers between renders', () => {
    const items = inboxItems(byId(approval('ap_a', { createdAt: 5 }), approval('ap_b', { createdAt: 5 })), {})
    expect(items.map((i) => i.approval.id)).toEqual(['ap_b', 'ap_a'])
  })

  it('takes the live title of the conversation over the one the approval was asked under, and falls back on both', () => {
    const pending = byId(
      approval('ap_1', { rootSessionId: 'ses_a', conversationTitle: '' }),
      approval('ap_2', { rootSessionId: 'ses_b', conversationTitle: 'Old title', workspaceRoot: '/w/beta' }),
      approval('ap_3', { rootSessionId: 'ses_c' }),
    )
    const sessions = { ses_a: { id: 'ses_a', title: 'From the list', workspaceRoot: '/w/alpha' } as SessionSummary }
    const known = knownConversations(pending, sessions, { ses_b: { workspaceRoot: '/w/beta', title: 'Renamed' } })
    const items = inboxItems(pending, known)
    const of = (id: string) => items.find((i) => i.approval.id === id)
    expect([of('ap_1')?.conversationTitle, of('ap_1')?.workspaceRoot]).toEqual(['From the list', '/w/alpha'])
    expect(of('ap_2')?.conversationTitle).toBe('Renamed')
    expect([of('ap_3')?.conversationTitle, of('ap_3')?.workspaceRoot]).toEqual([UNTITLED, null])
  })

  it('names a workspace by its folder', () => {
    expect(workspaceName('/home/me/projects/alpha')).toBe('alpha')
    expect(workspaceName('C:\\code\\beta\\')).toBe('beta')
  })
})

describe('selecting several', () => {
  const items = inboxItems(
    byId(
      approval('ap_1', { createdAt: 1 }),
      approval('ap_2', { createdAt: 2, kind: 'question', toolName: 'question' }),
      approval('ap_3', { createdAt: 3, kind: 'plan', toolName: 'plan_exit' }),
      approval('ap_4', { createdAt: 4, kind: 'budget', toolName: 'budget' }),
    ),
    {},
  )

  it('select all takes every item but questions; pressed again it clears', () => {
    const all = toggleAll(new Set(), items)
    expect(batchTargets(all, items)).toEqual(['ap_4', 'ap_3', 'ap_1'])
    expect(selectionState(all, items)).toBe('all')
    expect(toggleAll(all, items).size).toBe(0)
  })

  it('one box at a time reads as some, and a question never becomes a target', () => {
    let sel = toggleOne(new Set(), 'ap_1')
    expect(selectionState(sel, items)).toBe('some')
    sel = toggleOne(sel, 'ap_2')
    expect(batchTargets(sel, items)).toEqual(['ap_1'])
    expect(selectionState(toggleOne(sel, 'ap_1'), items)).toBe('none')
  })

  it('an item answered elsewhere leaves the selection; an unchanged selection keeps its identity', () => {
    const sel = new Set(['ap_1', 'ap_3'])
    expect(pruneSelection(sel, items)).toBe(sel)
    const fewer = items.filter((i) => i.approval.id !== 'ap_3')
    expect([...pruneSelection(sel, fewer)]).toEqual(['ap_1'])
  })
})

describe('answering several', () => {
  it('answers each on its own; reports a failure per item, but not for one that left the list meanwhile', async () => {
    useApprovals.setState({ pending: byId(approval('ap_1'), approval('ap_2'), approval('ap_3')) })
    const asked: string[] = []
    const failed = await answerMany(['ap_1', 'ap_2', 'ap_3'], 'allow_once', async ({ approvalId, decision }) => {
      asked.push(`${approvalId}:${decision}`)
      if (approvalId === 'ap_2') return { context: 'Answering the approval', message: 'Approval ap_2 is already denied.', hint: '' }
      if (approvalId === 'ap_3') {
        // answered by another window a moment before: the resolved event removed it, so its error is no news
        useApprovals.setState((s) => ({ pending: byId(...Object.values(s.pending).filter((a) => a.id !== 'ap_3')) }))
        return { context: 'Answering the approval', message: 'Approval ap_3 is already approved.', hint: '' }
      }
      return null
    })
    expect(asked.sort()).toEqual(['ap_1:allow_once', 'ap_2:allow_once', 'ap_3:allow_once'])
    expect(Object.keys(failed)).toEqual(['ap_2'])
    expect(failed.ap_2.message).toContain('already denied')
  })
})
