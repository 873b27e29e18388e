import { dismissReturned, useRunMap } from '../../state/run-map-store'
import { fillComposer } from '../../state/ui-store'
import { CopyButton } from '../common/copy-button'

/**
 * Messages sent to a running agent that ended before reading them (message_returned): the text comes back whole and
 * stays here until the person copies it, puts it back in the message box, or dismisses it.
 */
export function ReturnedMessages() {
  const returned = useRunMap((s) => s.returned)
  if (returned.length === 0) return null
  return (
    <>
      {returned.map((r) => (
        <div key={r.id} className="returned-note" role="alert" data-testid="returned-message" data-session-id={r.sessionId}>
          <div className="returned-note-body">
            <strong>Not delivered to {r.who}.</strong> <span className="muted">{r.reason}</span>
            <blockquote className="returned-text" data-testid="returned-text">{r.text}</blockquote>
            <div className="row small">
              <button
                className="btn small"
                data-testid="returned-fill"
                onClick={() => {
                  fillComposer(r.text)
                  dismissReturned(r.id)
                }}
              >
                Put back in the message box
              </button>
              <CopyButton text={() => r.text} label="Copy the message" testId="returned-copy" />
            </div>
          </div>
          <button className="icon-btn" aria-label="Dismiss" onClick={() => dismissReturned(r.id)}>
            ×
          </button>
        </div>
      ))}
    </>
  )
}
