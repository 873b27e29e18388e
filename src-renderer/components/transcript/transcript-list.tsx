import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { useTranscript } from '../../state/transcript-store'
import { useUi } from '../../state/ui-store'

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

  // Opens at the newest message (the list is remounted per session).
  const opened = useRef(false)
  useLayoutEffect(() => {
    if (opened.current || keys.length === 0) return
    opened.current = true
    v.scrollToEnd()
  }, [keys.length, v])

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
            {items.map((item) => (
              <div key={item.key} data-index={item.index} ref={v.measureElement} className="vrow">
                {render(keys[item.index])}
              </div>
            ))}
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
