import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { UiError } from '../../state/ui-error'
import { chipAgentNow } from '../../state/chip-agent'
import { editMessage, retryLast } from '../../state/session-actions'
import { useTranscript } from '../../state/transcript-store'
import { ErrorNote } from '../common/error-note'
import { isRunning } from '../../state/session-status'


/** Whether a message is the transcript's last row, and whether the session is running a turn now. */
function usePlace(sessionId: string, messageId: string): { last: boolean; running: boolean } {
  const last = useTranscript((s) => s.transcripts[sessionId]?.messageIds.at(-1) === messageId)
  const running = useTranscript((s) => isRunning(s.transcripts[sessionId]?.status))
  return { last, running }
}

/** "Regenerate" under the last answer (and "Retry" on a failed turn): the host hides this answer and runs the question again. */
export function RerunButton({ sessionId, messageId, label, testId, className = 'copy-btn' }: { sessionId: string; messageId: string; label: string; testId: string; className?: string }) {
  const { last, running } = usePlace(sessionId, messageId)
  const [error, setError] = useState<UiError | null>(null)
  const [busy, setBusy] = useState(false)
  // While a turn runs there is nothing to regenerate yet (it used to sit, disabled, under the answer being written).
  if (!last || running) return null
  const run = async () => {
    setBusy(true)
    setError(await retryLast(sessionId, chipAgentNow()))
    setBusy(false)
  }
  return (
    <>
      <button type="button" className={className} data-testid={testId} disabled={running || busy} onClick={() => void run()}>
        {label}
      </button>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} testId="rerun-error" />}
    </>
  )
}

/**
 * A sent message, editable in place: saving hides it and everything after it (kept in the store) and sends the new
 * text as the next turn — a new version of the message; the old one and its answers are one click away (version-nav).
 */
export function EditableUserText({ sessionId, messageId, text, children }: { sessionId: string; messageId: string; text: string; children(edit: () => void): ReactNode }) {
  const { running } = usePlace(sessionId, messageId)
  const [draft, setDraft] = useState<string | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  const area = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    if (draft !== null) area.current?.focus()
  }, [draft !== null])

  if (draft === null) return <>{children(() => setDraft(text))}</>
  const save = async () => {
    const t = draft.trim()
    if (!t) return
    const err = await editMessage(sessionId, messageId, t, chipAgentNow())
    setError(err)
    if (!err) setDraft(null)
  }
  return (
    <div className="msg-edit" data-testid="message-edit">
      <textarea
        ref={area}
        className="composer-input msg-edit-input"
        aria-label="Edit message"
        data-testid="message-edit-input"
        value={draft}
        rows={Math.min(10, draft.split('\n').length + 1)}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault()
            setDraft(null)
          } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            void save()
          }
        }}
      />
      <div className="row">
        <span className="muted small">Sending makes a new version of this message; the old one and its answers stay (‹ ›).</span>
        <span className="spacer" />
        <button className="btn small" type="button" onClick={() => setDraft(null)}>
          Cancel
        </button>
        <button className="btn small primary" type="button" data-testid="message-edit-send" disabled={!draft.trim() || running} onClick={() => void save()}>
          Send
        </button>
      </div>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} testId="edit-error" />}
    </div>
  )
}
