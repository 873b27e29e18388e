import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { dismissDrawer, type DrawerName } from '../../state/drawer-store'

const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])'

/**
 * A narrow window's session list or side panel, over the chat (issue 28): a modal dialog with a backdrop. Focus moves
 * in when it opens (to the current session row, or the first control) and stays in on Tab; Esc, a click on the
 * backdrop, or choosing a session closes it, and focus goes back to what opened it (or `returnTo`).
 */
export function Drawer({ name, side, label, returnTo, children }: { name: DrawerName; side: 'left' | 'right'; label: string; returnTo: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null)
  const fallback = useRef(returnTo)
  fallback.current = returnTo

  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null
    const el = ref.current
    ;(el?.querySelector<HTMLElement>(FOCUSABLE) ?? el)?.focus()
    // The session list draws its rows a frame later: the current one takes focus then, for the arrow keys.
    const frame = requestAnimationFrame(() => {
      const row = el?.querySelector<HTMLElement>('[role=treeitem][tabindex="0"]')
      if (row && el?.contains(document.activeElement)) row.focus()
    })
    return () => {
      cancelAnimationFrame(frame)
      // Only when focus was in the drawer (it is gone now): a choice that moved focus elsewhere keeps it there.
      const now = document.activeElement
      if (now && now !== document.body && !el?.contains(now)) return
      requestAnimationFrame(() => {
        if (document.activeElement && document.activeElement !== document.body) return
        const back = opener?.isConnected ? opener : document.querySelector<HTMLElement>(fallback.current)
        back?.focus()
      })
    }
  }, [])

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault()
      e.stopPropagation()
      dismissDrawer()
    } else if (e.key === 'Tab') {
      const all = [...(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((x) => x.getClientRects().length > 0)
      if (all.length === 0) return e.preventDefault()
      const i = all.indexOf(document.activeElement as HTMLElement)
      if (e.shiftKey && i <= 0) {
        e.preventDefault()
        all[all.length - 1].focus()
      } else if (!e.shiftKey && (i === -1 || i === all.length - 1)) {
        e.preventDefault()
        all[0].focus()
      }
    }
  }

  return (
    <div className={`drawer-layer drawer-layer-${side}`}>
      <div className="drawer-backdrop" data-testid="drawer-backdrop" aria-hidden onClick={dismissDrawer} />
      <div ref={ref} className={`drawer drawer-${side}`} data-testid={`drawer-${name}`} role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} onKeyDown={onKeyDown}>
        {children}
      </div>
    </div>
  )
}
