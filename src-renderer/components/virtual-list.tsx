import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'

type Props = {
  keys: string[]
  /** height guess for rows not measured yet */
  estimate: number
  render: (key: string, index: number) => ReactNode
  /** follow new content while the view is at the bottom (transcripts) */
  stickToBottom?: boolean
  /** extra pixels rendered above and below the viewport */
  overscan?: number
  className?: string
  testId?: string
  /** lets a parent scroll a row into view */
  scrollToKey?: string | null
}

/**
 * Renders only the rows near the viewport. Rows may have any height: each rendered row is measured
 * (ResizeObserver) and its height remembered, so cost stays flat however long the list grows.
 * When a row above the viewport changes height, the scroll position is corrected so nothing on screen jumps.
 */
export function VirtualList({ keys, estimate, render, stickToBottom, overscan = 400, className, testId, scrollToKey }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
  const heights = useRef(new Map<string, number>())
  const atBottom = useRef(true)
  const [scrollTop, setScrollTop] = useState(0)
  const [viewport, setViewport] = useState(800)
  const [version, setVersion] = useState(0)

  const offsets = useMemo(() => {
    const o = new Float64Array(keys.length + 1)
    for (let i = 0; i < keys.length; i++) o[i + 1] = o[i] + (heights.current.get(keys[i]) ?? estimate)
    return o
    // `version` changes when measured heights change
  }, [keys, estimate, version])

  const total = offsets[keys.length]
  const top = Math.max(0, scrollTop - overscan)
  const bottom = scrollTop + viewport + overscan
  const start = Math.max(0, upperBound(offsets, top) - 1)
  let end = start
  while (end < keys.length && offsets[end] < bottom) end++

  const observer = useRef<ResizeObserver | null>(null)
  const keysRef = useRef(keys)
  keysRef.current = keys
  const offsetsRef = useRef(offsets)
  offsetsRef.current = offsets

  useEffect(() => {
    const ro = new ResizeObserver((entries) => {
      const el = scroller.current
      if (!el) return
      let changed = false
      let shiftAbove = 0
      for (const entry of entries) {
        const key = (entry.target as HTMLElement).dataset.vkey
        if (key === undefined) continue
        const h = (entry.target as HTMLElement).offsetHeight
        const prev = heights.current.get(key) ?? estimate
        if (h === prev && heights.current.has(key)) continue
        heights.current.set(key, h)
        changed = true
        const idx = keysRef.current.indexOf(key)
        if (idx >= 0 && offsetsRef.current[idx + 1] <= el.scrollTop) shiftAbove += h - prev
      }
      if (!changed) return
      if (shiftAbove !== 0 && !atBottom.current) el.scrollTop += shiftAbove
      setVersion((v) => v + 1)
    })
    observer.current = ro
    return () => ro.disconnect()
  }, [estimate])

  // React 19 ref cleanup: stop observing rows that scroll out, so the observer never holds detached nodes.
  const measure = useCallback((el: HTMLDivElement | null) => {
    if (!el) return
    const ro = observer.current
    ro?.observe(el)
    return () => ro?.unobserve(el)
  }, [])

  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    setViewport(el.clientHeight)
    const ro = new ResizeObserver(() => setViewport(el.clientHeight))
    ro.observe(el)
    return () => ro.disconnect()
  }, [])

  // After every render: keep following the bottom if the person was there.
  useLayoutEffect(() => {
    const el = scroller.current
    if (!el || !stickToBottom || !atBottom.current) return
    const target = el.scrollHeight - el.clientHeight
    if (Math.abs(el.scrollTop - target) > 1) {
      el.scrollTop = target
      setScrollTop(el.scrollTop)
    }
  })

  useEffect(() => {
    if (!scrollToKey) return
    const idx = keys.indexOf(scrollToKey)
    const el = scroller.current
    if (idx < 0 || !el) return
    atBottom.current = false
    el.scrollTop = offsets[idx]
    setScrollTop(el.scrollTop)
    // only when the requested key changes, not on every growth
  }, [scrollToKey])

  const onScroll = useCallback(() => {
    const el = scroller.current
    if (!el) return
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24
    setScrollTop(el.scrollTop)
  }, [])

  const rows: ReactNode[] = []
  for (let i = start; i < end; i++) {
    const k = keys[i]
    rows.push(
      <div key={k} data-vkey={k} ref={measure} className="vrow">
        {render(k, i)}
      </div>,
    )
  }

  return (
    <div ref={scroller} className={`vlist ${className ?? ''}`} data-testid={testId} onScroll={onScroll}>
      <div style={{ height: total, position: 'relative' }}>
        <div style={{ transform: `translateY(${offsets[start]}px)` }}>{rows}</div>
      </div>
    </div>
  )
}

/** First index whose offset is greater than `value`. */
function upperBound(a: Float64Array, value: number): number {
  let lo = 0
  let hi = a.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (a[mid] <= value) lo = mid + 1
    else hi = mid
  }
  return lo
}
