import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore } from './store'
import type { Store } from './store'
import { StoreError } from './store-error'

let store: Store
beforeEach(() => {
  store = openStore(':memory:')
})
afterEach(() => store.close())

describe('sessions', () => {
  it('creates with defaults and reads back camelCase fields', () => {
    const s = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w', model: { provider: 'mock', model: 'm' } })
    expect(s).toMatchObject({
      agent: 'build',
      title: '',
      workspaceRoot: '/w',
      model: { provider: 'mock', model: 'm' },
      parentId: null,
      parentMessageId: null,
      status: 'idle',
      metadata: {},
      usage: { prompt: 0, completion: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      costUsd: 0,
      archivedAt: null,
    })
    expect(s.id).toMatch(/^ses_/)
    expect(store.sessions.getSession(s.id)).toEqual(s)
    expect(store.sessions.getSession('ses_missing')).toBeUndefined()
  })

  it('updates fields, bumps updatedAt, and names the id when it is unknown', async () => {
    const s = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    await new Promise((r) => setTimeout(r, 5))
    const u = store.sessions.updateSession(s.id, { title: 'Fix it', status: 'busy', metadata: { a: 1 }, model: null })
    expect(u).toMatchObject({ title: 'Fix it', status: 'busy', metadata: { a: 1 }, model: null })
    expect(u.updatedAt).toBeGreaterThan(s.updatedAt)
    expect(() => store.sessions.updateSession('ses_nope', { title: 'x' })).toThrow(/updateSession: no session with id "ses_nope"/)
    expect(() => store.sessions.updateSession(s.id, { status: 'sleeping' as never })).toThrow(/updateSession: status/)
  })

  it('adds usage and cost to the totals', () => {
    const s = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    store.sessions.addSessionUsage(s.id, { prompt: 10, completion: 5, total: 15 }, 0.01)
    store.sessions.addSessionUsage(s.id, { prompt: 1, cacheRead: 7, total: 1 }, 0.02)
    const after = store.sessions.getSession(s.id)
    expect(after?.usage).toEqual({ prompt: 11, completion: 5, reasoning: 0, cacheRead: 7, cacheWrite: 0, total: 16 })
    expect(after?.costUsd).toBeCloseTo(0.03)
  })

  it('keeps subagent totals apart from the own ones, and counts tokens of unknown price', () => {
    const root = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    const child = store.sessions.createSession({ agent: 'general', workspaceRoot: '/w', parentId: root.id })
    store.sessions.addSessionUsage(root.id, { prompt: 100, completion: 10, total: 110 }, 0.5)
    store.sessions.addSessionUsage(child.id, { prompt: 40, completion: 2, total: 42 }, null)
    store.sessions.addSubagentUsage([root.id, 'ses_opaque_has_no_row'], { prompt: 40, completion: 2, total: 42 }, null)
    store.sessions.addSubagentUsage([root.id], { prompt: 5, completion: 5, total: 10 }, 0.25)
    expect(store.sessions.getSession(root.id)).toMatchObject({
      usage: { prompt: 100, completion: 10, total: 110 },
      costUsd: 0.5,
      subagentUsage: { prompt: 45, completion: 7, total: 52 },
      subagentCostUsd: 0.25,
      unpricedTokens: 42,
    })
    expect(store.sessions.getSession(child.id)).toMatchObject({ usage: { total: 42 }, costUsd: 0, unpricedTokens: 42, subagentUsage: { total: 0 } })
  })

  it('stores session permission rules', () => {
    const s = store.sessions.createSession({
      agent: 'build',
      workspaceRoot: '/w',
      permissions: [{ tool: 'bash', pattern: 'git *', action: 'allow' }],
    })
    expect(store.sessions.getSessionPermissions(s.id)).toEqual([{ tool: 'bash', pattern: 'git *', action: 'allow' }])
  })

  it('refuses a child whose parent is not stored', () => {
    const err = (() => {
      try {
        store.sessions.createSession({ agent: 'explore', workspaceRoot: '/w', parentId: 'ses_ghost' })
      } catch (e) {
        return e
      }
    })()
    expect(StoreError.isInstance(err) && err.code).toBe('not_found')
  })

  describe('listSessions', () => {
    function seed() {
      const a = store.sessions.createSession({ agent: 'build', workspaceRoot: '/a', title: 'Refactor Parser' })
      const b = store.sessions.createSession({ agent: 'plan', workspaceRoot: '/a', title: 'plan the release' })
      const c = store.sessions.createSession({ agent: 'build', workspaceRoot: '/b', title: 'other workspace' })
      const child = store.sessions.createSession({ agent: 'explore', workspaceRoot: '/a', parentId: a.id, title: 'look around' })
      const archived = store.sessions.createSession({ agent: 'build', workspaceRoot: '/a', title: 'old parser work' })
      store.sessions.updateSession(archived.id, { archivedAt: Date.now() })
      return { a, b, c, child, archived }
    }

    it('lists newest updated first', () => {
      const { a, b, c, child } = seed()
      store.sessions.updateSession(b.id, { title: 'plan the release!' })
      const ids = store.sessions.listSessions().map((s) => s.id)
      expect(ids[0]).toBe(b.id)
      expect(new Set(ids)).toEqual(new Set([a.id, b.id, c.id, child.id]))
    })

    it('filters by workspace, agents and parent', () => {
      const { a, b, c, child } = seed()
      const ids = (f: Parameters<Store['sessions']['listSessions']>[0]) => store.sessions.listSessions(f).map((s) => s.id).sort()
      expect(ids({ workspaceRoot: '/b' })).toEqual([c.id])
      expect(ids({ agents: ['plan', 'explore'] })).toEqual([b.id, child.id].sort())
      expect(ids({ agents: [] })).toEqual([])
      expect(ids({ parentId: null, workspaceRoot: '/a' })).toEqual([a.id, b.id].sort())
      expect(ids({ parentId: a.id })).toEqual([child.id])
    })

    it('hides archived sessions unless asked', () => {
      const { archived } = seed()
      expect(store.sessions.listSessions().map((s) => s.id)).not.toContain(archived.id)
      expect(store.sessions.listSessions({ includeArchived: true }).map((s) => s.id)).toContain(archived.id)
      store.sessions.updateSession(archived.id, { archivedAt: null })
      expect(store.sessions.listSessions().map((s) => s.id)).toContain(archived.id)
    })

    it('searches titles case-insensitively, treating % and _ literally', () => {
      const { a, archived } = seed()
      expect(store.sessions.listSessions({ search: 'PARSER' }).map((s) => s.id)).toEqual([a.id])
      expect(store.sessions.listSessions({ search: 'parser', includeArchived: true }).map((s) => s.id).sort()).toEqual(
        [a.id, archived.id].sort(),
      )
      expect(store.sessions.listSessions({ search: '%' })).toEqual([])
      expect(store.sessions.listSessions({ search: '_' })).toEqual([])
    })

    it('pages with limit and offset (default limit 200)', () => {
      for (let i = 0; i < 205; i++) store.sessions.createSession({ agent: 'build', workspaceRoot: '/p' })
      expect(store.sessions.listSessions({ workspaceRoot: '/p' })).toHaveLength(200)
      const first = store.sessions.listSessions({ workspaceRoot: '/p', limit: 3 })
      const next = store.sessions.listSessions({ workspaceRoot: '/p', limit: 3, offset: 3 })
      expect(first).toHaveLength(3)
      expect(next.map((s) => s.id)).not.toContain(first[2].id)
      expect(store.sessions.listSessions({ workspaceRoot: '/p', limit: 300 })).toHaveLength(205)
    })
  })

  it('deleting a session removes its messages, parts and child sessions', () => {
    const parent = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    const child = store.sessions.createSession({ agent: 'explore', workspaceRoot: '/w', parentId: parent.id })
    const grandchild = store.sessions.createSession({ agent: 'explore', workspaceRoot: '/w', parentId: child.id })
    const other = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    const m = store.transcript.createMessage({ sessionId: child.id, role: 'assistant' })
    store.transcript.upsertPart({ id: 'prt_1', messageId: m.id, sessionId: child.id, index: 0, type: 'text', data: { text: 'hi' }, toolCallId: null, toolState: null })
    store.sessions.deleteSession(parent.id)
    expect(store.sessions.getSession(parent.id)).toBeUndefined()
    expect(store.sessions.getSession(child.id)).toBeUndefined()
    expect(store.sessions.getSession(grandchild.id)).toBeUndefined()
    expect(store.transcript.listMessages(child.id)).toEqual([])
    expect(store.transcript.getPart('prt_1')).toBeUndefined()
    expect(store.sessions.getSession(other.id)).toBeDefined()
  })

  it('deleting a session also removes the approvals, queued prompts, background jobs and event stream that name it or its descendants', () => {
    const root = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    const child = store.sessions.createSession({ agent: 'general', workspaceRoot: '/w', parentId: root.id })
    const other = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    const approval = (sessionId: string, rootSessionId: string) =>
      store.approvals.createApproval({ sessionId, rootSessionId, messageId: null, toolCallId: `call_${sessionId}`, toolName: 'bash', agentPath: ['build'], arguments: {}, patterns: [] })
    approval(child.id, root.id)
    approval('ses_opaque', root.id)
    const kept = approval(other.id, other.id)
    store.queue.enqueuePrompt({ sessionId: child.id, text: 'later' })
    const keptPrompt = store.queue.enqueuePrompt({ sessionId: other.id, text: 'mine' }).entry
    const job = (id: string, parent: string, rootId: string) =>
      store.queue.createJob({ id, parentSessionId: parent, rootSessionId: rootId, parentMessageId: null, toolCallId: `call_${id}`, agentType: 'explore', description: '' })
    job('ses_bg1', child.id, root.id)
    job('ses_bg2', 'ses_opaque', root.id)
    job('ses_bg3', other.id, other.id)
    store.eventLog.appendEvent({ stream: root.id, seq: 1, event: { type: 'status_change', sessionId: root.id, at: 1, status: 'busy' } })
    store.eventLog.appendEvent({ stream: other.id, seq: 1, event: { type: 'status_change', sessionId: other.id, at: 1, status: 'busy' } })
    expect(store.sessions.subtreeIds(root.id)).toEqual([root.id, child.id])
    expect(store.sessions.deleteSession(root.id)).toEqual([root.id, child.id])
    expect(store.approvals.listApprovals().map((a) => a.id)).toEqual([kept.id])
    expect(store.queue.listQueue(child.id)).toEqual([])
    expect(store.queue.listQueue(other.id).map((e) => e.id)).toEqual([keptPrompt.id])
    expect(store.queue.listJobs().map((j) => j.id)).toEqual(['ses_bg3'])
    expect(store.eventLog.lastSeq(root.id)).toBe(0)
    expect(store.eventLog.lastSeq(other.id)).toBe(1)
    expect(store.sessions.subtreeIds(root.id)).toEqual([])
  })
})
