import { dismissInfo, dismissNotice, useUi } from '../../state/ui-store'
import { ErrorNote } from '../common/error-note'
import { ReturnedMessages } from '../run-map/returned-messages'

/** Errors with no better place on screen, and short confirmations, bottom right, dismissable. */
export function Notices() {
  const notices = useUi((s) => s.notices)
  const infos = useUi((s) => s.infos)
  return (
    <div className="notices" data-testid="notices">
      {notices.map((n) => (
        <ErrorNote key={n.id} error={n} onDismiss={() => dismissNotice(n.id)} />
      ))}
      <ReturnedMessages />
      {/* Always in the page, so a screen reader announces what is added to it. */}
      <div className="info-notes" role="status" aria-live="polite">
        {infos.map((n) => (
          <div key={n.id} className="info-note" data-testid="info-notice">
            <span className="info-note-body">{n.text}</span>
            <button className="icon-btn" aria-label="Dismiss" onClick={() => dismissInfo(n.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </div>
  )
}
