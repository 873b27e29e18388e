import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { RestoreOutcome } from '../../../src-shared'
import { planRestore, runRestore } from '../../state/changes-actions'
import { closeRestore, useChanges, type RestoreRequest } from '../../state/changes-store'
import { hasProtectedConflict, plural } from '../../state/changes-view'
import type { UiError } from '../../state/ui-error'
import { focusComposer } from '../../state/ui-store'
import { ErrorNote } from '../common/error-note'

/** The confirm dialog of undo (Rewind), redo and revert: open while the store holds a request. */
export function RestoreDialog() {
  const request = useChanges((s) => s.dialog)
  if (!request) return null
  return <Dialog key={JSON.stringify(request)} request={request} />
}

const TITLE: Record<RestoreRequest['op'], string> = { undo: 'Rewind to this message?', redo: 'Redo what was rewound?', revert: 'Revert changes?', apply: 'Apply the worktree?' }
const CONFIRM: Record<RestoreRequest['op'], string> = { undo: 'Rewind', redo: 'Redo', revert: 'Revert', apply: 'Apply' }
const ACTION: Record<RestoreOutcome['steps'][number]['action'], string> = { restore: 'restore', delete: 'delete', recreate: 'recreate' }
/** Applying a worktree writes its version of a file: the same steps, said as what they do there. */
const APPLY_ACTION: Record<RestoreOutcome['steps'][number]['action'], string> = { restore: 'update', delete: 'delete', recreate: 'create' }

/**
 * First the plan (a dry run): which files would be written, and how; then Confirm writes them. A conflict (a file
 * changed since, something in the way) means nothing will be written: Confirm stays disabled and the dialog says so.
 * A protected file (agent files, rules) is a conflict until the person ticks "Also restore protected files".
 */
function Dialog({ request }: { request: RestoreRequest }) {
  const [includeProtected, setIncludeProtected] = useState(false)
  const [plan, setPlan] = useState<RestoreOutcome | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  const [busy, setBusy] = useState(false)
  // After a real run that found conflicts: nothing was written.
  const [refused, setRefused] = useState(false)
  const box = useRef<HTMLDivElement>(null)
  const confirm = useRef<HTMLButtonElement>(null)
  const returnTo = useRef<Element | null>(document.activeElement)

  useEffect(() => {
    box.current?.focus()
    const back = returnTo.current
    return () => {
      // The button that opened it may be gone (a rewound message): the message box is where the text went.
      if (back instanceof HTMLElement && back.isConnected) back.focus()
      else focusComposer()
    }
  }, [])

  useEffect(() => {
    let live = true
    setPlan(null)
    setError(null)
    setRefused(false)
    void planRestore(request, includeProtected).then((r) => {
      if (!live) return
      if (r.ok) setPlan(r.data)
      else setError(r.error)
    })
    return () => {
      live = false
    }
  }, [request, includeProtected])

  const conflicts = plan?.conflicts ?? []
  const ready = plan !== null && conflicts.length === 0 && !busy
  useEffect(() => {
    if (ready) confirm.current?.focus()
  }, [ready])

  const run = async () => {
    if (!ready) return
    setBusy(true)
    const r = await runRestore(request, includeProtected)
    setBusy(false)
    if (!r.ok) return setError(r.error)
    if (!r.data.applied) {
      setPlan(r.data)
      setRefused(true)
    }
  }

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      closeRestore()
    } else if (e.key === 'Tab') trapTab(e, box.current)
  }

  const showProtected = includeProtected || (plan !== null && hasProtectedConflict(plan))
  return (
    <div className="modal-backdrop" onMouseDown={closeRestore} data-testid="restore-backdrop">
      <div
        ref={box}
        className="modal restore-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="restore-title"
        aria-describedby="restore-what"
        tabIndex={-1}
        data-testid="restore-dialog"
        data-op={request.op}
        data-state={error ? 'error' : plan === null ? 'planning' : conflicts.length ? 'conflicts' : 'ready'}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={onKey}
      >
        <h2 id="restore-title" className="modal-title">{TITLE[request.op]}</h2>
        <p id="restore-what" className="restore-what">{describe(request)}</p>
        {error && <ErrorNote error={error} testId="restore-error" />}
        {!error && plan === null && (
          <p className="muted small" role="status">
            <span className="spinner" aria-hidden /> Checking what would change…
          </p>
        )}
        {plan && conflicts.length > 0 && (
          <div className="callout error restore-conflicts" role="alert" data-testid="restore-conflicts">
            <div className="callout-title">
              {refused ? 'Nothing was written: ' : 'Nothing will be written: '}
              {plural(conflicts.length, 'file')} {conflicts.length === 1 ? 'stands' : 'stand'} in the way
            </div>
            <ul className="restore-list">
              {conflicts.map((c) => (
                <li key={`${c.path}:${c.reason}`} data-testid="restore-conflict" data-reason={c.reason}>
                  <code className="restore-path">{c.path}</code> <span className="pill err">{c.reason}</span>
                  <div className="small">{c.detail}</div>
                </li>
              ))}
            </ul>
            <div className="small">
              {hasProtectedConflict(plan) && conflicts.every((c) => c.reason === 'protected')
                ? 'These are protected files (agent files, rules, hooks): tick the box below to restore them too.'
                : request.op === 'apply'
                  ? 'Applying is all or nothing. Merge those files by hand (Show diff on the card), or move your changes first, then try again.'
                  : 'Undo is all or nothing. Keep or move those changes first (or revert that file on its own), then try again.'}
            </div>
          </div>
        )}
        {plan && plan.steps.length > 0 && (
          <section aria-label="Files to write">
            <div className="label">
              {conflicts.length ? (request.op === 'apply' ? 'Would write' : 'Would restore') : request.op === 'redo' ? 'Will put back' : request.op === 'apply' ? 'Will write' : 'Will restore'} ({plan.steps.length})
            </div>
            <ul className="restore-list restore-steps" data-testid="restore-steps">
              {plan.steps.map((s) => (
                <li key={s.path} data-testid="restore-step" data-action={s.action} data-path={s.path}>
                  <span className={`pill restore-action action-${s.action}`}>{(request.op === 'apply' ? APPLY_ACTION : ACTION)[s.action]}</span> <code className="restore-path">{s.path}</code>
                  {s.protected && <span className="pill warn" title={s.protected}>protected</span>}
                </li>
              ))}
            </ul>
          </section>
        )}
        {plan && plan.steps.length === 0 && conflicts.length === 0 && (
          <p className="muted small" data-testid="restore-no-files">
            {request.op === 'undo' ? 'No files to restore: only the conversation goes back.' : 'No files need writing.'}
          </p>
        )}
        {plan && plan.skipped.length > 0 && (
          <details className="restore-skipped">
            <summary className="small">{plural(plan.skipped.length, 'file')} left as {plan.skipped.length === 1 ? 'it is' : 'they are'}</summary>
            <ul className="restore-list small">
              {plan.skipped.map((s) => (
                <li key={s.path}>
                  <code className="restore-path">{s.path}</code> <span className="muted">{s.reason}</span>
                </li>
              ))}
            </ul>
          </details>
        )}
        {showProtected && (
          <label className="check restore-protected">
            <input type="checkbox" data-testid="restore-include-protected" checked={includeProtected} disabled={busy} onChange={(e) => setIncludeProtected(e.target.checked)} />
            Also restore protected files
          </label>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" data-testid="restore-cancel" onClick={closeRestore}>
            Cancel
          </button>
          <button ref={confirm} type="button" className="btn primary" data-testid="restore-confirm" disabled={!ready} onClick={() => void run()}>
            {busy ? `${CONFIRM[request.op]}…` : CONFIRM[request.op]}
          </button>
        </div>
      </div>
    </div>
  )
}

function describe(r: RestoreRequest): string {
  switch (r.op) {
    case 'undo':
      return 'The files this message’s turn and every later turn changed go back to how they were before it; the message and everything after it leave the conversation (Redo brings them back). Its text goes back into the message box.'
    case 'redo':
      return `Puts back the ${plural(r.turns, 'turn')} you rewound: their file changes and their messages.`
    case 'revert':
      return `Takes back ${r.what}. The conversation stays as it is.`
    case 'apply':
      return `Writes what the worktree on ${r.branch} changed into the workspace, merged with what changed here since (as git merges). Revert takes it back.`
  }
}

const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), summary, [href], [tabindex]:not([tabindex="-1"])'

/** Keeps Tab inside the dialog (it is modal). */
function trapTab(e: KeyboardEvent, box: HTMLElement | null): void {
  if (!box) return
  const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)]
  if (items.length === 0) return
  const first = items[0]
  const last = items[items.length - 1]
  const at = document.activeElement
  if (e.shiftKey && (at === first || at === box)) {
    e.preventDefault()
    last.focus()
  } else if (!e.shiftKey && at === last) {
    e.preventDefault()
    first.focus()
  }
}
