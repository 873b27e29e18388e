import { create } from 'zustand'
import type { PromptAttachment } from '../../src-shared'
import type { UiError } from './ui-error'

/** `inbox`: every decision waiting on the person, across workspaces (components/inbox) */
export type Screen = 'chat' | 'settings' | 'inbox'

type UiStore = {
  screen: Screen
  /** a Settings section to bring into view when Settings opens (a link from an error: `providers`) */
  settingsFocus: string | null
  /** errors with no better place on screen (e.g. an event stream that could not resume) */
  notices: (UiError & { id: number })[]
  /** bumped when the transcript should scroll to the newest message (the person just sent one) */
  followTick: number
  sidebarCollapsed: boolean
  /** the background tasks panel was closed for this root session */
  tasksClosedFor: string | null
  paletteOpen: boolean
  /** the palette opens at this sub-list (the composer's `/agents`, `/model`); null → its first list */
  paletteStart: 'agent' | 'model' | null
  /** the Changes panel (what each turn changed) is open beside the transcript, in place of the tasks panel */
  changesOpen: boolean
  /** the run map (every agent of the open conversation) is open beside the transcript, in place of the other panels */
  runMapOpen: boolean
  /** short confirmations (e.g. "Rewound: 2 files restored"), bottom right, gone after a while */
  infos: { id: number; text: string }[]
  /**
   * text for the message box (a rewound message comes back there); `ifText`: only while the box still holds that;
   * `append`: after what is already typed (a blank line between), instead of replacing it
   */
  /** text (and files) handed to the message box: a rewound message, prompts a Stop took off the queue */
  composerFill: { text: string; ifText?: string; append?: boolean; attachments?: PromptAttachment[]; tick: number } | null
}

const SIDEBAR_KEY = 'agentry.sidebarCollapsed'

export const useUi = create<UiStore>(() => ({
  screen: 'chat',
  settingsFocus: null,
  notices: [],
  followTick: 0,
  sidebarCollapsed: readFlag(SIDEBAR_KEY),
  tasksClosedFor: null,
  paletteOpen: false,
  paletteStart: null,
  changesOpen: false,
  runMapOpen: false,
  infos: [],
  composerFill: null,
}))

let nextNotice = 1

export function notify(e: UiError): void {
  useUi.setState((s) => ({ notices: [...s.notices.slice(-4), { ...e, id: nextNotice++ }] }))
}

export function dismissNotice(id: number): void {
  useUi.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }))
}

const INFO_MS = 10_000

/** A confirmation that something worked, shown for a while (dismissable). */
export function notifyInfo(text: string): void {
  const id = nextNotice++
  useUi.setState((s) => ({ infos: [...s.infos.slice(-2), { id, text }] }))
  setTimeout(() => dismissInfo(id), INFO_MS)
}

export function dismissInfo(id: number): void {
  useUi.setState((s) => ({ infos: s.infos.filter((n) => n.id !== id) }))
}

/** Puts `text` into the message box (replacing what is there), or only when it still holds `ifText`. */
export function fillComposer(text: string, ifText?: string, append = false, attachments?: PromptAttachment[]): void {
  useUi.setState((s) => ({ composerFill: { text, ifText, append, ...(attachments?.length ? { attachments } : {}), tick: (s.composerFill?.tick ?? 0) + 1 } }))
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

/** Opens Settings at a section (its `data-testid` is `settings-<section>`). */
export function openSettings(section: string | null = null): void {
  useUi.setState({ screen: 'settings', settingsFocus: section })
}
