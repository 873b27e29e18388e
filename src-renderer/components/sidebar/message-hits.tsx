import { useEffect, useState, type ReactNode } from 'react'
import type { SearchHit } from '../../../src-shared'
import { openSession, searchMessages } from '../../state/session-actions'
import { useSessions } from '../../state/sessions-store'
import type { UiError } from '../../state/ui-error'
import { useWorkspace } from '../../state/workspace-store'
import { ErrorNote } from '../common/error-note'

const DEBOUNCE_MS = 200

/**
 * Sessions whose messages contain the searched words (the host's full-text index over every part), each with the
 * matching snippet, words marked. Shown under the search box while it has text; a click opens the session.
 */
export function MessageHits({ query, archived }: { query: string; archived: boolean }) {
  const root = useWorkspace((s) => s.root)
  const byId = useSessions((s) => s.byId)
  const [hits, setHits] = useState<SearchHit[] | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  const q = query.trim()

  useEffect(() => {
    if (q.length < 2 || !root) {
      setHits(null)
      return
    }
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
  }, [q, root, archived])

  if (error) return <ErrorNote error={error} onDismiss={() => setError(null)} />
  if (!hits) return null
  return (
    <section className="message-hits" data-testid="message-hits" aria-label="Messages matching the search">
      <div className="popover-label">In messages</div>
      {hits.length === 0 && <div className="muted small pad">No message contains “{q}”.</div>}
      {hits.map((h) => (
        <button key={`${h.sessionId}:${h.messageId}`} className="message-hit" data-testid="message-hit" data-session-id={h.sessionId} onClick={() => void openSession(h.sessionId)}>
          <span className="message-hit-title">{byId[h.sessionId]?.title || 'Untitled'}</span>
          <span className="message-hit-snippet">
            <Snippet text={h.snippet} />
          </span>
        </button>
      ))}
    </section>
  )
}

/** The host marks each matched word with \u0002…\u0003; those become <mark>, everything else stays text. */
function Snippet({ text }: { text: string }) {
  const out: ReactNode[] = []
  const re = /\u0002([^\u0003]*)\u0003/g
  let last = 0
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index))
    out.push(<mark key={m.index}>{m[1]}</mark>)
    last = m.index + m[0].length
  }
  if (last < text.length) out.push(text.slice(last))
  return <>{out}</>
}
