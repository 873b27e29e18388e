import { useEffect } from 'react'
import { openInbox } from '../../state/inbox-actions'
import { useInboxCount } from '../../state/inbox-store'
import { useUi } from '../../state/ui-store'

/** The sidebar's first row: the inbox, with how many decisions wait on the person across every workspace. */
export function InboxEntry() {
  const count = useInboxCount()
  const active = useUi((s) => s.screen === 'inbox')
  return (
    <button
      className={`inbox-entry ${active ? 'active' : ''}`}
      data-testid="open-inbox"
      aria-current={active ? 'page' : undefined}
      onClick={() => (active ? useUi.setState({ screen: 'chat' }) : openInbox())}
    >
      <span className="inbox-entry-icon" aria-hidden>
        ✉
      </span>
      <span className="inbox-entry-label">Inbox</span>
      {count > 0 && (
        <span className="badge waiting">
          <span data-testid="inbox-count">{count}</span>
          <span className="visually-hidden"> waiting on you</span>
        </span>
      )}
    </button>
  )
}

/** The window title carries the count too — `(3) Agentry` — so a background tab or window shows it. */
export function useInboxTitle(): void {
  const count = useInboxCount()
  useEffect(() => {
    const base = baseTitle()
    document.title = count > 0 ? `(${count}) ${base}` : base
  }, [count])
}

let base: string | null = null
function baseTitle(): string {
  // Whatever the page was called before we first counted (index.html's <title>), without a count of ours.
  base ??= document.title.replace(/^\(\d+\) /, '') || 'Agentry'
  return base
}
