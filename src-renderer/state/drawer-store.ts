import { useSyncExternalStore } from 'react'
import { create } from 'zustand'
import { useRunMap } from './run-map-store'
import { useTranscript } from './transcript-store'
import { toggleSidebar, useUi } from './ui-store'

/**
 * Narrow windows (issue 28; docs/decisions.md, "Narrow windows"): below NARROW_PX the session list and the side
 * panel (tasks, run map, changes) leave the row beside the chat and open over it as drawers, one at a time,
 * closed until asked for. Wider, nothing here applies: the sidebar's collapse and the panels' flags rule as before.
 */
export const NARROW_PX = 900
const QUERY = `(max-width: ${NARROW_PX - 0.02}px)`

export type DrawerName = 'sessions' | 'panel'

export const useDrawer = create<{ open: DrawerName | null }>(() => ({ open: null }))

export function isNarrow(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches
}

function subscribeNarrow(onChange: () => void): () => void {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {}
  const mq = window.matchMedia(QUERY)
  mq.addEventListener('change', onChange)
  return () => mq.removeEventListener('change', onChange)
}

/** The window is narrower than NARROW_PX (re-renders when it crosses). */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribeNarrow, isNarrow, () => false)
}

export function openDrawer(name: DrawerName): void {
  useDrawer.setState({ open: name })
}

export function closeDrawer(): void {
  if (useDrawer.getState().open) useDrawer.setState({ open: null })
}

/**
 * The person sent a drawer away (Esc, a click beside it): the side panel it showed is closed too, so the Map and
 * Changes buttons read as not pressed and a wider window later does not bring it back. The run map stays on while
 * the transcript shows a child chosen on it (that transcript lives as long as the map is on).
 */
export function dismissDrawer(): void {
  const open = useDrawer.getState().open
  if (open === 'panel') {
    const viewId = useTranscript.getState().viewId
    const shown = useRunMap.getState().shown
    const keepMap = useUi.getState().runMapOpen && shown !== null && shown.viewId === viewId
    useUi.setState({ changesOpen: false, runMapOpen: keepMap })
  }
  closeDrawer()
}

/** The ☰ button and the palette's "Show the session list": a drawer when narrow, the sidebar's collapse otherwise. */
export function toggleSessions(): void {
  if (!isNarrow()) return toggleSidebar()
  useDrawer.setState((s) => ({ open: s.open === 'sessions' ? null : 'sessions' }))
}

/** Whether the session list is on screen (for the ☰ button's aria-expanded and the palette's wording). */
export function sessionsShown(narrow: boolean, drawer: DrawerName | null, collapsed: boolean): boolean {
  return narrow ? drawer === 'sessions' : !collapsed
}

/** The header's "Tasks (n)": the background tasks in the panel's place (in its drawer when narrow). */
export function showTasks(): void {
  useUi.setState({ tasksClosedFor: null, changesOpen: false, runMapOpen: false })
  if (isNarrow()) openDrawer('panel')
}

/** A side panel whose flag is `open` is on screen: beside the chat, or in the panel's open drawer when narrow. */
export function panelShown(open: boolean): boolean {
  return open && (!isNarrow() || useDrawer.getState().open === 'panel')
}

/** Opening a side panel (the run map, the changes) in a narrow window opens its drawer. */
export function panelOpened(): void {
  if (isNarrow()) openDrawer('panel')
}

/**
 * Keeps the drawers in step with what happens in them, while narrow: choosing a session (or a run map node whose
 * transcript takes the chat's place) closes them; closing what the panel's drawer shows closes it; crossing the breakpoint closes both. Returns the unsubscribe.
 */
export function watchDrawers(): () => void {
  const offs = [
    useTranscript.subscribe((s, prev) => {
      if (s.viewId !== prev.viewId) closeDrawer()
    }),
    useRunMap.subscribe((s, prev) => {
      if (s.shown !== prev.shown && s.shown) closeDrawer()
    }),
    useUi.subscribe((s, prev) => {
      if (!isNarrow()) return
      const closedMap = !s.runMapOpen && prev.runMapOpen
      const closedChanges = !s.changesOpen && prev.changesOpen
      const closedTasks = s.tasksClosedFor !== null && prev.tasksClosedFor === null
      if (useDrawer.getState().open === 'panel' && (closedMap || closedChanges || closedTasks)) closeDrawer()
    }),
    subscribeNarrow(closeDrawer),
  ]
  return () => offs.forEach((off) => off())
}
