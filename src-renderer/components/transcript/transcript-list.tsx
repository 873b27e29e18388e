import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { clearHighlight, highlightTerms } from '../../lib/highlight-terms'
import { clearSearchJump, useSearchJump } from '../../state/search-jump'
import { useTranscript } from '../../state/transcript-store'
import { useUi } from '../../state/ui-store'
import '../../styles/search.css'

type Props = {
  sessionId: string
  keys: string[]
  render: (key: string) => ReactNode
}

const ESTIMATE = 140
const estimateSize = () => ESTIMATE

/**
 * The transcript's rows, virtualized with @tanstack/react-virtual: rows are measured as they render, the view
 * opens at the newest message and stays there while content grows (anchored to the end), and a person who
 * scrolled up is not dragged down; a "Jump to latest" button appears when something new arrives meanwhile.
 * A message-search hit opened from the sidebar scrolls its message into the middle of the view instead, however far
 * up it is (the virtualizer measures rows on the way), and marks it until the person's next action.
 */
export function TranscriptList({ sessionId, keys, render }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
  const [atEnd, setAtEnd] = useState(true)
  const [unseen, setUnseen] = useState(false)
  const atEndRef = useRef(true)
  // Stable callbacks: a new getItemKey makes the virtualizer re-measure every row (5,000 of them) on each render.
  const getItemKey = useCallback((i: number) => keys[i], [keys])
  const getScrollElement = useCallback(() => scroller.current, [])
  const v = useVirtualizer({
    count: keys.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: 2,
    // Start at the end, where a conversation opens, instead of drawing its first rows and then jumping.
    initialOffset: () => keys.length * ESTIMATE,
    initialRect: { width: 800, height: typeof window === 'undefined' ? 600 : Math.max(200, window.innerHeight - 250) },
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 24,
    onChange: (inst) => {
      const end = inst.isAtEnd()
      atEndRef.current = end
      setAtEnd(end)
      if (end) setUnseen(false)
    },
  })

  // Opens at the newest message (the list is remounted per session), unless a search hit in it is being opened.
  const opened = useRef(false)
  useLayoutEffect(() => {
    if (opened.current || keys.length === 0) return
    opened.current = true
    if (useSearchJump.getState().jump?.sessionId === sessionId) return
    v.scrollToEnd()
  }, [keys.length, v, sessionId])

  // A search hit: scroll its message to the middle of the view (also when the session was open already).
  const jump = useSearchJump((s) => (s.jump?.sessionId === sessionId ? s.jump : null))
  const loading = useTranscript((s) => s.loading)
  const jumpIndex = useMemo(() => (jump ? keys.indexOf(jump.messageId) : -1), [jump, keys])
  const jumped = useRef(0)
  useLayoutEffect(() => {
    if (!jump || jumped.current === jump.seq || keys.length === 0) return
    if (jumpIndex < 0) {
      if (loading) return // the session's messages are still on their way
      // Not in this transcript (hidden since, e.g. by an edit): open at the end as usual.
      jumped.current = jump.seq
      clearSearchJump()
      v.scrollToEnd()
      return
    }
    jumped.current = jump.seq
    // The view is away from the end now: offer the way down (shown only while not at the end).
    setUnseen(true)
    v.scrollToIndex(jumpIndex, { align: 'center' })
  }, [jump, jumpIndex, keys.length, loading, v])

  // The match's row, once rendered: its words highlighted (again whenever its text re-renders) and the focus on it,
  // so a screen reader announces "Search match for …" and reads on from there.
  const focusedSeq = useRef(0)
  useEffect(() => {
    if (!jump) return
    const row = scroller.current?.querySelector<HTMLElement>('[data-search-match]')
    if (!row) return
    highlightTerms(row, jump.terms)
    if (focusedSeq.current !== jump.seq) {
      focusedSeq.current = jump.seq
      // After this commit's other effects (opening a session also focuses the composer), and not once the person
      // has moved on.
      const seq = jump.seq
      requestAnimationFrame(() => {
        if (useSearchJump.getState().jump?.seq !== seq) return
        scroller.current?.querySelector<HTMLElement>('[data-search-match]')?.focus({ preventScroll: true })
      })
    }
    const mo = new MutationObserver(() => highlightTerms(row, jump.terms))
    mo.observe(row, { subtree: true, childList: true, characterData: true })
    return () => mo.disconnect()
  })
  // The highlight stays until the person does something else: a click or tap anywhere, or a key that types or acts
  // (not Tab, arrows, Page Up/Down or Space, which only move around). Listening starts after the opening click.
  useEffect(() => {
    if (!jump) return
    const onPointer = () => clearSearchJump()
    const onKey = (e: KeyboardEvent) => {
      if ((e.key.length === 1 && e.key !== ' ') || e.key === 'Enter' || e.key === 'Escape' || e.key === 'Backspace' || e.key === 'Delete') clearSearchJump()
    }
    const t = setTimeout(() => {
      window.addEventListener('pointerdown', onPointer, true)
      window.addEventListener('keydown', onKey, true)
    })
    return () => {
      clearTimeout(t)
      window.removeEventListener('pointerdown', onPointer, true)
      window.removeEventListener('keydown', onKey, true)
      clearHighlight()
    }
  }, [jump])

  // The view gets shorter (an approval appears under it, the window shrinks): keep the newest line in sight.
  useEffect(() => {
    const el = scroller.current
    if (!el) return
    let height = el.clientHeight
    const ro = new ResizeObserver(() => {
      if (el.clientHeight !== height && atEndRef.current) v.scrollToEnd()
      height = el.clientHeight
    })
    ro.observe(el)
    return () => ro.disconnect()
  }, [v])

  // Something new while the person reads further up: offer the way down instead of jumping. Watched outside
  // React so a streaming delta does not re-render the list.
  useEffect(
    () =>
      useTranscript.subscribe((now, before) => {
        if (atEndRef.current) return
        if (now.transcripts[sessionId] !== before.transcripts[sessionId]) setUnseen(true)
      }),
    [sessionId],
  )

  // Sending a message follows it, wherever the view was.
  const follow = useUi((s) => s.followTick)
  const seenFollow = useRef(follow)
  useEffect(() => {
    if (follow === seenFollow.current) return
    seenFollow.current = follow
    setUnseen(false)
    v.scrollToEnd()
  }, [follow, v])

  const items = v.getVirtualItems()
  return (
    <div className="transcript-scroll">
      <div ref={scroller} className="vlist transcript" data-testid="transcript" data-at-end={atEnd} tabIndex={-1}>
        <div style={{ height: v.getTotalSize(), position: 'relative', width: '100%' }}>
          <div style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${items[0]?.start ?? 0}px)` }}>
            {items.map((item) => {
              const key = keys[item.index]
              const match = jump?.messageId === key
              const words = match ? jump.terms.map((t) => `“${t}”`).join(', ') : ''
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={v.measureElement}
                  className={match ? 'vrow search-match' : 'vrow'}
                  {...(match && { 'data-search-match': '', role: 'region', tabIndex: -1, 'aria-label': words ? `Search match for ${words}` : 'Search match' })}
                >
                  {match && (
                    <div className="search-match-label" aria-hidden="true">
                      Search match{words && <span className="search-match-words"> · {words}</span>}
                    </div>
                  )}
                  {render(key)}
                </div>
              )
            })}
          </div>
        </div>
      </div>
      {unseen && !atEnd && (
        <button
          type="button"
          className="btn jump-latest"
          data-testid="jump-latest"
          onClick={() => {
            setUnseen(false)
            v.scrollToEnd()
          }}
        >
          ↓ Jump to latest
        </button>
      )}
    </div>
  )
}
