import { describe, expect, it } from 'vitest'
import { sidebarEmptyState } from './search-view'

describe('the sidebar says nothing matches once, only when nothing does (issue 28)', () => {
  const base = { sessions: 3, rows: 0, query: 'scheduler' }
  it('message hits and no title match: no empty line under the hits', () => {
    expect(sidebarEmptyState({ ...base, messageSearch: 2 })).toBeNull()
  })
  it('while the message search has not answered: nothing yet', () => {
    expect(sidebarEmptyState({ ...base, messageSearch: 'pending' })).toBeNull()
  })
  it('nothing in titles nor messages: one line naming the words', () => {
    expect(sidebarEmptyState({ ...base, messageSearch: 0 })).toEqual({ testId: 'search-empty', text: 'Nothing matches “scheduler” in titles or messages.' })
  })
  it('titles match: no empty state whatever the messages say', () => {
    expect(sidebarEmptyState({ ...base, rows: 1, messageSearch: 0 })).toBeNull()
  })
  it('filters without a message search, and an empty folder', () => {
    expect(sidebarEmptyState({ ...base, query: '', messageSearch: 'off' })?.text).toBe('No session matches these filters.')
    expect(sidebarEmptyState({ ...base, sessions: 0, messageSearch: 'off' })?.text).toBe('No sessions yet in this folder.')
  })
})
