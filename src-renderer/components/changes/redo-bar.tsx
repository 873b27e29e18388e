import { openRestore, useChanges } from '../../state/changes-store'
import { plural } from '../../state/changes-view'
import { isRunning } from '../../state/session-status'
import { useTranscript } from '../../state/transcript-store'

/** Under the transcript after a rewind: how many turns were taken back, and Redo (until the next message is sent). */
export function RedoBar({ sessionId }: { sessionId: string }) {
  const redo = useChanges((s) => (s.sessionId === sessionId ? s.redo : null))
  const busy = useTranscript((s) => isRunning(s.transcripts[sessionId]?.status))
  if (!redo) return null
  // The host counts your messages that were rewound (reverts and turns without a message are part of them).
  const count = redo.turns
  return (
    <div className="redo-bar" data-testid="redo-bar" role="region" aria-label="Rewound turns">
      <span className="redo-text">
        <span aria-hidden>↶</span> {plural(count, 'turn')} rewound
      </span>
      <span className="muted" aria-hidden>·</span>
      <button type="button" className="btn small" data-testid="redo-button" disabled={busy} onClick={() => openRestore({ op: 'redo', sessionId, turns: count })}>
        Redo
      </button>
      <span className="muted small redo-hint">Sending a new message keeps the rewind.</span>
    </div>
  )
}
