import type { UiError } from '../../state/ui-error'

/** A host error shown where it happened: what failed, the host's message, and what to do. */
export function ErrorNote({ error, onDismiss, testId }: { error: UiError; onDismiss?: () => void; testId?: string }) {
  return (
    <div className="error-note" role="alert" data-testid={testId ?? 'error-note'}>
      <div className="error-note-body">
        <strong>{error.context} failed.</strong> <span className="error-message">{error.message}</span>
        {error.hint && <div className="error-hint">{error.hint}</div>}
      </div>
      {onDismiss && (
        <button className="icon-btn" aria-label="Dismiss" onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  )
}
