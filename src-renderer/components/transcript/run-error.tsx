import type { PartRecord } from '../../../src-shared'
import { partText } from '../../state/part-data'
import { openSettings } from '../../state/ui-store'
import { RerunButton } from './message-actions'

/** What a stored run error's code means for the person: a title, what to do, and whether their settings are involved. */
const BY_CODE: Record<string, { title: string; advice: string; settings?: boolean }> = {
  model_auth: { title: 'The provider refused the key', advice: 'Check the key for this provider, then retry.', settings: true },
  model_config: { title: 'The model is not set up', advice: 'Add its provider or pick another model in the chip below, then retry.', settings: true },
  model_unavailable: { title: "The provider's server did not answer", advice: 'This is on the provider’s side, not your settings: retry in a moment, or pick another model.' },
  runaway: { title: 'Stopped by a runaway guard', advice: 'The model repeated itself or went past a limit. Retry, or change the guard in Settings › Budgets.' },
  invalid_request: { title: 'The request could not be sent', advice: 'Change what was asked, then retry.' },
  model_error: { title: 'The model could not answer', advice: 'Retry; if it fails again, pick another model.' },
}
const OTHER = { title: 'The run stopped with an error', advice: 'Retry.' }

/** A run's error, stored in the transcript where the turn failed: in words, with the one thing to do, and Retry. */
export function RunErrorCallout({ sessionId, messageId, error, parts, nested }: { sessionId: string; messageId: string; error: unknown; parts: PartRecord[]; nested?: boolean }) {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'error'
  const said = BY_CODE[code] ?? OTHER
  return (
    <div className="callout error" data-testid="run-error" data-code={code} role="note">
      <div className="callout-title">{said.title}</div>
      <div className="run-error-message">{parts.map(partText).join('\n')}</div>
      {!nested && (
        <div className="row small">
          <span>{said.advice}</span>
          {said.settings && (
            <button type="button" className="link-btn" data-testid="run-error-settings" onClick={() => openSettings('providers')}>
              Open Settings › Providers
            </button>
          )}
          <RerunButton sessionId={sessionId} messageId={messageId} label="Retry" testId="retry" className="btn small" />
        </div>
      )}
    </div>
  )
}
