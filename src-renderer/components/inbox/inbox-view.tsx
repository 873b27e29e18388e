import { useEffect, useMemo, useRef, useState } from 'react'
import { useNow } from '../../lib/use-now'
import { batchTargets, pruneSelection, selectionState, toggleAll, toggleOne } from '../../state/inbox'
import { answerMany } from '../../state/inbox-actions'
import { useInboxItems } from '../../state/inbox-store'
import type { UiError } from '../../state/ui-error'
import { useUi } from '../../state/ui-store'
import { InboxItemView } from './inbox-item'
import { NotifyPrompt } from './notify-prompt'
import '../../styles/inbox.css'

/**
 * Every decision that waits on the person — tool calls, questions, plans, budgets — from every session of every
 * workspace, newest first, answered in place. Several can be allowed or denied at once (not questions).
 */
export function InboxView() {
  const items = useInboxItems()
  const now = useNow(true, 30_000)
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set())
  const [errors, setErrors] = useState<Record<string, UiError>>({})
  const [busy, setBusy] = useState(false)

  // An item answered here or anywhere else leaves the list, and with it the selection.
  const live = pruneSelection(selected, items)
  useEffect(() => {
    if (live !== selected) setSelected(live)
  }, [live, selected])

  const targets = useMemo(() => batchTargets(live, items), [live, items])
  const state = selectionState(live, items)
  const anyBatchable = items.some((i) => i.batchable)

  const answerSelected = async (decision: 'allow_once' | 'deny') => {
    if (busy || targets.length === 0) return
    setBusy(true)
    const failed = await answerMany(targets, decision)
    setBusy(false)
    setErrors((e) => ({ ...e, ...failed }))
  }

  return (
    <section className="inbox" data-testid="inbox" aria-labelledby="inbox-title">
      <div className="inbox-column">
        <div className="settings-head">
          <h1 id="inbox-title">Inbox</h1>
          {items.length > 0 && (
            <span className="pill warn" data-testid="inbox-total">
              {items.length} waiting
            </span>
          )}
          <span className="spacer" />
          <button className="btn" data-testid="close-inbox" onClick={() => useUi.setState({ screen: 'chat' })}>
            Done
          </button>
        </div>
        <NotifyPrompt />
        {items.length === 0 ? (
          <div className="inbox-empty" data-testid="inbox-empty">
            <div className="hero-mark" aria-hidden>
              ✓
            </div>
            <p className="inbox-empty-title">Nothing waits on you.</p>
            <p className="muted">When an agent in any workspace asks before it runs a tool, asks a question or has a plan to approve, it shows here.</p>
          </div>
        ) : (
          <>
            {anyBatchable && (
              <div className="inbox-toolbar" data-testid="inbox-toolbar" role="group" aria-label="Answer several">
                <SelectAll state={state} onChange={() => setSelected(toggleAll(live, items))} />
                <span className="muted small inbox-selected" data-testid="inbox-selected-count" aria-live="polite">
                  {targets.length === 0 ? 'Select several to answer them together' : `${targets.length} selected`}
                  {items.some((i) => !i.batchable) && ' · questions are answered one by one'}
                </span>
                <span className="spacer" />
                <button className="btn danger" data-testid="inbox-deny-selected" disabled={busy || targets.length === 0} onClick={() => void answerSelected('deny')}>
                  Deny{targets.length ? ` (${targets.length})` : ''}
                </button>
                <button className="btn primary" data-testid="inbox-allow-selected" disabled={busy || targets.length === 0} onClick={() => void answerSelected('allow_once')}>
                  Allow once{targets.length ? ` (${targets.length})` : ''}
                </button>
              </div>
            )}
            <ol className="inbox-list" data-testid="inbox-list">
              {items.map((item) => (
                <li key={item.approval.id}>
                  <InboxItemView
                    item={item}
                    now={now}
                    selected={live.has(item.approval.id)}
                    onSelect={() => setSelected(toggleOne(live, item.approval.id))}
                    batchError={errors[item.approval.id] ?? null}
                    onDismissError={() => setErrors(({ [item.approval.id]: _gone, ...rest }) => rest)}
                  />
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </section>
  )
}

function SelectAll({ state, onChange }: { state: 'none' | 'some' | 'all'; onChange: () => void }) {
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some'
  }, [state])
  return (
    <label className="check inbox-select-all">
      <input ref={ref} type="checkbox" data-testid="inbox-select-all" checked={state === 'all'} onChange={onChange} />
      Select all
    </label>
  )
}
