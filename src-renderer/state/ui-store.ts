import { create } from 'zustand'
import type { UiError } from './ui-error'

export type Screen = 'chat' | 'settings'

type UiStore = {
  screen: Screen
  /** errors with no better place on screen (e.g. an event stream that could not resume) */
  notices: (UiError & { id: number })[]
  /** bumped when the transcript should scroll to the newest message (the person just sent one) */
  followTick: number
  sidebarCollapsed: boolean
  /** the background tasks panel was closed for this root session */
  tasksClosedFor: string | null
  paletteOpen: boolean
}

const SIDEBAR_KEY = 'agentry.sidebarCollapsed'

export const useUi = create<UiStore>(() => ({
  screen: 'chat',
  notices: [],
  followTick: 0,
  sidebarCollapsed: readFlag(SIDEBAR_KEY),
  tasksClosedFor: null,
  paletteOpen: false,
}))

let nextNotice = 1

export function notify(e: UiError): void {
  useUi.setState((s) => ({ notices: [...s.notices.slice(-4), { ...e, id: nextNotice++ }] }))
}

export function dismissNotice(id: number): void {
  useUi.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }))
}

export function followLatest(): void {
  useUi.setState((s) => ({ followTick: s.followTick + 1 }))
}

export function toggleSidebar(): void {
  const next = !useUi.getState().sidebarCollapsed
  useUi.setState({ sidebarCollapsed: next })
  try {
    localStorage.setItem(SIDEBAR_KEY, next ? '1' : '0')
  } catch (err) {
    console.warn('[agentry] could not remember the sidebar state:', err)
  }
}

/** Focus the message box (Esc from an approval, after choosing a command). */
export function focusComposer(): void {
  document.querySelector<HTMLTextAreaElement>('[data-testid=composer-input]')?.focus()
}

function readFlag(key: string): boolean {
  if (typeof localStorage === 'undefined') return false
  try {
    return localStorage.getItem(key) === '1'
  } catch (err) {
    console.warn('[agentry] localStorage unavailable:', err)
    return false
  }
}
