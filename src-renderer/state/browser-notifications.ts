import { create } from 'zustand'
import type { ApprovalRecord, SessionStatus } from '../../src-shared'
import { useConnection } from './connection-store'
import { NotifyPolicy, type TurnFinishReason, type Notice } from '../../src-shared'

/**
 * OS notifications of the browser app (daemon mode): the DOM side of notify-policy. Permission is asked only when the
 * person presses "Turn on notifications" (never on load or on a first click). The desktop app's main process notifies
 * for it, so nothing is shown here when the app runs over IPC.
 */

export type NotifyPermission = NotificationPermission | 'unsupported'

type NotifyStore = {
  permission: NotifyPermission
  /** "Not now" on the prompt: it stays away (Settings still offers it) */
  dismissed: boolean
}

const DISMISSED_KEY = 'agentry.notifyPromptDismissed'

export const useNotify = create<NotifyStore>(() => ({ permission: readPermission(), dismissed: readDismissed() }))

const policy = new NotifyPolicy()
let opener: (rootSessionId: string, workspaceRoot: string | null) => void = () => {}

/** What clicking a notification opens (set once at startup; the actions that open conversations live above state). */
export function setNotificationOpener(open: (rootSessionId: string, workspaceRoot: string | null) => void): void {
  opener = open
}

/** The browser app shows its own notifications; the desktop app's are the main process's. */
export function notificationsAreOurs(): boolean {
  return useConnection.getState().transport === 'websocket' && typeof Notification !== 'undefined'
}

export async function enableNotifications(): Promise<void> {
  if (typeof Notification === 'undefined') return
  const permission = await Notification.requestPermission()
  useNotify.setState({ permission })
}

/** The person may change it in the browser's site settings at any time: read again when a screen shows it. */
export function refreshNotifyPermission(): void {
  const permission = readPermission()
  if (permission !== useNotify.getState().permission) useNotify.setState({ permission })
}

export function dismissNotifyPrompt(): void {
  useNotify.setState({ dismissed: true })
  try {
    localStorage.setItem(DISMISSED_KEY, '1')
  } catch (err) {
    console.warn('[agentry] could not remember the notification choice:', err)
  }
}

export function noticeApprovals(list: ApprovalRecord[], snapshot = false): void {
  for (const n of policy.approvals(list, { focused: focused(), snapshot })) show(n)
}

export function noticeResolved(approvalId: string): void {
  policy.resolved(approvalId)
}

export function noticeRootStatus(rootSessionId: string, status: SessionStatus, at: number): void {
  policy.rootStatus(rootSessionId, status, at)
}

export function noticeTurnComplete(
  rootSessionId: string,
  e: { at: number; finishReason: TurnFinishReason; text: string; title?: string | null; workspaceRoot?: string | null },
): void {
  const n = policy.turnComplete(rootSessionId, e, focused())
  if (n) show(n)
}

function focused(): boolean {
  return typeof document !== 'undefined' && !document.hidden && document.hasFocus()
}

function show(n: Notice): void {
  if (!notificationsAreOurs() || Notification.permission !== 'granted') return
  try {
    const note = new Notification(n.title, { body: n.body, tag: n.tag })
    note.onclick = () => {
      window.focus()
      note.close()
      opener(n.rootSessionId, n.workspaceRoot)
    }
  } catch (err) {
    // Some browsers allow notifications only from a service worker (Chrome on Android): nothing to show then.
    console.warn('[agentry] could not show a notification:', err)
  }
}

function readPermission(): NotifyPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission
}

function readDismissed(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(DISMISSED_KEY) === '1'
  } catch (err) {
    console.warn('[agentry] localStorage unavailable:', err)
    return false
  }
}
