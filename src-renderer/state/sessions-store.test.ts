import { describe, expect, it } from 'vitest'
import type { AgentListEntry, SessionSummary } from '../../src-shared'
import { buildRows, indexSessions, type SessionFilters } from './sessions-store'

const s = (id: string, agent: string, createdAt: number, extra: Partial<SessionSummary> = {}): SessionSummary => ({
  id, agent, title: `title ${id}`, workspaceRoot: '/w', model: null, parentId: null, parentMessageId: null, status: 'idle',
  metadata: {}, usage: { prompt: 0, completion: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0, total: 0 }, costUsd: 0,
  createdAt, updatedAt: createdAt, archivedAt: null, pendingApprovals: 0, queued: 0, childCount: 0, ...extra,
})
const agent = (name: string, mode: AgentListEntry['mode']) => ({ name, mode }) as AgentListEntry
const agents = { build: agent('build', 'primary'), explore: agent('explore', 'subagent'), docs: agent('docs', 'all') }
const none: SessionFilters = { agent: '', mode: '', search: '', archived: false }

describe('session picker rows', () => {
  const byId = Object.fromEntries(
    [
      s('a', 'build', 1),
      s('b', 'build', 3),
      s('a1', 'explore', 2, { parentId: 'a' }),
      s('a1x', 'docs', 4, { parentId: 'a1' }),
      s('old', 'docs', 0, { archivedAt: 5 }),
    ].map((x) => [x.id, x]),
  )
  const index = indexSessions(byId)

  it('lists the conversations newest first; their children only when opened, nested under their parent (issue 28)', () => {
    expect(buildRows(index, none, agents, {}).map((r) => `${r.id}@${r.depth}${r.hasChildren ? (r.collapsed ? '▸' : '▾') : ''}`)).toEqual(['b@0', 'a@0▸'])
    expect(buildRows(index, none, agents, { a: true }).map((r) => `${r.id}@${r.depth}`)).toEqual(['b@0', 'a@0', 'a1@1'])
    expect(buildRows(index, none, agents, { a: true, a1: true }).map((r) => `${r.id}@${r.depth}`)).toEqual(['b@0', 'a@0', 'a1@1', 'a1x@2'])
  })

  it('the session on screen is always listed: its ancestors open', () => {
    expect(buildRows(index, none, agents, {}, 'a1x').map((r) => `${r.id}@${r.depth}`)).toEqual(['b@0', 'a@0', 'a1@1', 'a1x@2'])
    expect(buildRows(index, none, agents, {}, 'a').map((r) => r.id)).toEqual(['b', 'a'])
  })

  it('filters by agent mode, including children, as a flat list', () => {
    expect(buildRows(index, { ...none, mode: 'subagent' }, agents, {}).map((r) => r.id)).toEqual(['a1'])
    expect(buildRows(index, { ...none, mode: 'primary' }, agents, {}).map((r) => r.id)).toEqual(['b', 'a'])
  })

  it('shows archived sessions only with the toggle, and searches titles case-insensitively', () => {
    expect(buildRows(index, none, agents, {}).some((r) => r.id === 'old')).toBe(false)
    expect(buildRows(index, { ...none, archived: true }, agents, {}).some((r) => r.id === 'old')).toBe(true)
    expect(buildRows(index, { ...none, search: 'TITLE A1' }, agents, {}).map((r) => r.id)).toEqual(['a1x', 'a1'])
  })
})
