import { useEffect } from 'react'
import { dismissNotifyPrompt, enableNotifications, notificationsAreOurs, refreshNotifyPermission, useNotify } from '../../state/browser-notifications'
import { LONG_RUN_MS } from '../../../src-shared'

const WHAT = `when an agent in any workspace waits for your decision, and when a run of ${LONG_RUN_MS / 1000} seconds or more finishes — only while Agentry is not the window you are looking at. Clicking one takes you to the conversation.`

/**
 * The polite way to ask for notification permission (browser app only): a button the person presses, with what they
 * would be told — never a browser prompt on load or on a first click. Gone once answered or put off with "Not now".
 */
export function NotifyPrompt() {
  const permission = useNotify((s) => s.permission)
  const dismissed = useNotify((s) => s.dismissed)
  useEffect(refreshNotifyPermission, [])
  if (!notificationsAreOurs() || permission !== 'default' || dismissed) return null
  return (
    <div className="callout info notify-prompt" data-testid="notify-prompt">
      <div className="callout-title">Get a notification when something waits on you</div>
      <p className="notify-what">Agentry can tell you {WHAT}</p>
      <div className="row">
        <button className="btn primary" data-testid="notify-enable" onClick={() => void enableNotifications()}>
          Turn on notifications
        </button>
        <button className="btn ghost" data-testid="notify-dismiss" onClick={dismissNotifyPrompt}>
          Not now
        </button>
      </div>
    </div>
  )
}

/** Settings › Notifications (browser app only): the state, and the same button while nothing was decided. */
export function NotificationsSection() {
  const permission = useNotify((s) => s.permission)
  useEffect(refreshNotifyPermission, [])
  if (!notificationsAreOurs()) return null
  return (
    <section className="card" data-testid="settings-notifications" aria-labelledby="settings-notifications-title">
      <h2 id="settings-notifications-title">Notifications</h2>
      <p className="muted small">You are told {WHAT}</p>
      {permission === 'granted' && <p data-testid="notify-state">On for this browser.</p>}
      {permission === 'denied' && (
        <p data-testid="notify-state">Blocked for this page. Allow notifications in the browser&apos;s site settings (the icon left of the address), then reload.</p>
      )}
      {permission === 'default' && (
        <button className="btn primary" data-testid="notify-enable-settings" onClick={() => void enableNotifications()}>
          Turn on notifications
        </button>
      )}
    </section>
  )
}
