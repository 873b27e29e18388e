import { useState } from 'react'
import type { MessageVersions } from '../../../src-shared/message-versions'
import { isRunning } from '../../state/session-status'
import { useTranscript } from '../../state/transcript-store'
import type { UiError } from '../../state/ui-error'
import { switchVersion } from '../../state/version-actions'
import { ErrorNote } from '../common/error-note'

/**
 * `‹ 2/3 ›` under an edited message: the other versions, each with the answers that followed it. Disabled while a
 * turn runs — the host refuses to rewrite a conversation that is being written.
 */
export function VersionNav({ sessionId, messageId, versions }: { sessionId: string; messageId: string; versions: MessageVersions }) {
  const running = useTranscript((s) => isRunning(s.transcripts[sessionId]?.status))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<UiError | null>(null)
  const { index, count } = versions
  const go = async (to: number) => {
    setBusy(true)
    setError(await switchVersion(sessionId, messageId, to))
    setBusy(false)
  }
  return (
    <span className="version-nav" data-testid="version-nav">
      <button type="button" className="copy-btn" aria-label="Previous version" data-testid="version-prev" disabled={running || busy || index <= 1} onClick={() => void go(index - 1)}>
        ‹
      </button>
      <span className="muted small version-label" data-testid="version-label" aria-label={`Version ${index} of ${count}`}>
        {index}/{count}
      </span>
      <button type="button" className="copy-btn" aria-label="Next version" data-testid="version-next" disabled={running || busy || index >= count} onClick={() => void go(index + 1)}>
        ›
      </button>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} testId="version-error" />}
    </span>
  )
}
