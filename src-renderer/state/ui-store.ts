import { create } from 'zustand'
import type { UiError } from './bridge'

export type Screen = 'chat' | 'settings'

type UiStore = {
  screen: Screen
  /** errors with no better place on screen (e.g. an event stream that could not resume) */
  notices: (UiError & { id: number })[]
}

export const useUi = create<UiStore>(() => ({ screen: 'chat', notices: [] }))

let nextNotice = 1

export function notify(e: UiError): void {
  useUi.setState((s) => ({ notices: [...s.notices.slice(-4), { ...e, id: nextNotice++ }] }))
}

export function dismissNotice(id: number): void {
  useUi.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }))
}
