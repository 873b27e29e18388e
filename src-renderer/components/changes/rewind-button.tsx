import { openRestore, useChanges } from '../../state/changes-store'
import { isRunning } from '../../state/session-status'
import { useTranscript } from '../../state/transcript-store'

/**
 * "Rewind to here" on one of the person's messages (once the session's recorded changes are loaded): plan, confirm,
 * then the files later turns changed go back, the message and what followed leave the conversation, and its text
 * returns to the message box. A message whose turns changed no file still rewinds the conversation.
 */
export function RewindButton({ sessionId, messageId }: { sessionId: string; messageId: string }) {
  const offered = useChanges((s) => s.sessionId === sessionId)
  const busy = useTranscript((s) => isRunning(s.transcripts[sessionId]?.status) || (s.queue[sessionId]?.length ?? 0) > 0)
  if (!offered) return null
  return (
    <button
      type="button"
      className="copy-btn"
      data-testid="rewind-message"
      disabled={busy}
      title={busy ? 'Wait for the session to finish (or stop it) first' : 'Put the files back as they were before this message, and continue from here'}
      onClick={() => openRestore({ op: 'undo', sessionId, toMessageId: messageId })}
    >
      Rewind to here
    </button>
  )
}
