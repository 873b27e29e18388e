import { useEffect, useState } from 'react'
import type { SearchHit } from '../../../src-shared'
import { openSearchHit } from '../../state/search-jump'
import { searchMessages } from '../../state/session-actions'
import { useSessions } from '../../state/sessions-store'
import type { UiError } from '../../state/ui-error'
import { useWorkspace } from '../../state/workspace-store'
import { markedTerms, snippetSegments } from '../../markdown/search-snippet'
import { ErrorNote } from '../common/error-note'
import '../../styles/search.css'

const DEBOUNCE_MS = 200
/** Shorter queries search titles only. */
const MIN_CHARS = 2

export type MessageSearch = {
  /** 'off': the query is too short to search messages; null: asked, no answer yet */
  hits: SearchHit[] | null | 'off'
  error: UiError | null
  dismissError(): void
}

/**
 * Searches the messages of the workspace's sessions (the host's full-text index over every part) as the person types,
 * debounced; the sidebar uses the answer both for the hits and to decide whether anything matched at all.
 */
export function useMessageSearch(query: string, archived: boolean): MessageSearch {
  const root = useWorkspace((s) => s.root)
  const [hits, setHits] = useState<SearchHit[] | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  const q = query.trim()
  const off = q.length < MIN_CHARS || !root

  useEffect(() => {
    setHits(null)
    if (off) return
    let stale = false
    const t = setTimeout(async () => {
      const r = await searchMessages(root, q, archived)
      if (stale) return
      if (r.ok) {
        setHits(r.data)
        setError(null)
      } else setError(r.error)
    }, DEBOUNCE_MS)
    return () => {
      stale = true
      clearTimeout(t)
    }
  }, [q, root, archived, off])

  return { hits: off ? 'off' : hits, error, dismissError: () => setError(null) }
}

/**
 * Sessions whose messages contain the searched words, each with the matching snippet read as plain text, words
 * marked. Shown under the search box when there are any (the sidebar says once when nothing matches anywhere); a
 * click opens the session scrolled to the message, the match highlighted.
 */
export function MessageHits({ search }: { search: MessageSearch }) {
  const byId = useSessions((s) => s.byId)
  if (search.error) return <ErrorNote error={search.error} onDismiss={search.dismissError} />
  const hits = search.hits
  if (!Array.isArray(hits) || hits.length === 0) return null
  return (
    <section className="message-hits" data-testid="message-hits" aria-label="Messages matching the search">
      <div className="popover-label">In messages</div>
      {hits.map((h) => (
        <button key={`${h.sessionId}:${h.messageId}`} className="message-hit" data-testid="message-hit" data-session-id={h.sessionId} onClick={() => openSearchHit({ sessionId: h.sessionId, messageId: h.messageId, terms: markedTerms(h.snippet) })}>
          <span className="message-hit-title">{byId[h.sessionId]?.title || 'Untitled'}</span>
          <span className="message-hit-snippet">
            {snippetSegments(h.snippet).map((s, i) => (s.mark ? <mark key={i}>{s.text}</mark> : s.text))}
          </span>
        </button>
      ))}
    </section>
  )
}
