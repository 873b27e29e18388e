export type SidebarEmpty = { testId: 'session-list-empty' | 'search-empty'; text: string } | null

/**
 * The one line the sidebar shows when it lists nothing (issue 28: "No session title matches these filters"
 * appeared right under the message hits). While the words are also searched in messages, nothing is said until
 * that search answers, and then only if it found nothing either.
 */
export function sidebarEmptyState(o: { sessions: number; rows: number; query: string; messageSearch: 'off' | 'pending' | number }): SidebarEmpty {
  if (o.rows > 0) return null
  if (o.sessions === 0) return { testId: 'session-list-empty', text: 'No sessions yet in this folder.' }
  if (o.messageSearch === 'off') return { testId: 'session-list-empty', text: 'No session matches these filters.' }
  if (o.messageSearch === 'pending' || o.messageSearch > 0) return null
  return { testId: 'search-empty', text: `Nothing matches “${o.query.trim()}” in titles or messages.` }
}
