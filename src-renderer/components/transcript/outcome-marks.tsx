import { toolCallCountsText, type ToolCallCounts } from '../../../src-shared'
import '../../styles/outcomes.css'

/**
 * How a run ended when it is not the plain "completed ✓" (issue 28): the person's Stop reads as an expected,
 * neutral outcome; denied and failed tool calls are counted where the card is collapsed. Words first, colour second.
 */

/** A run the person stopped (its own Stop, or one above it): grey, never the red of a failure. */
export function StoppedPill({ testId, detail }: { testId?: string; detail?: string | null }) {
  return (
    <span className="pill status-stopped" data-testid={testId} title={detail ? `Stopped by you (${detail})` : 'Stopped by you'}>
      Stopped by you
    </span>
  )
}

/** "1 denied · 1 failed" on a collapsed card or a map row: amber for denied, red for failed, each in words. */
export function CallCounts({ counts, testId }: { counts: ToolCallCounts | undefined; testId: string }) {
  const text = toolCallCountsText(counts)
  if (!counts || !text) return null
  return (
    <span className="call-counts" data-testid={testId} aria-label={`Tool calls: ${text}`}>
      {counts.denied > 0 && (
        <span className="pill call-denied" data-testid={`${testId}-denied`} title="Tool calls that did not run: denied by a rule, by you, by a hook, or asked in a run where no one can answer">
          ⊘ {counts.denied} denied
        </span>
      )}
      {counts.failed > 0 && (
        <span className="pill call-failed" data-testid={`${testId}-failed`} title="Tool calls that ended in an error">
          ✕ {counts.failed} failed
        </span>
      )}
    </span>
  )
}

/** At the end of an answer a Stop cut short. */
export function StoppedMark() {
  return (
    <div className="stopped-mark" data-testid="stopped-marker" role="note">
      <span aria-hidden>■</span> Stopped
    </div>
  )
}
