import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { SessionStatus } from '../../../src-shared'
import { pendingForRoot, useApprovals } from '../../state/approvals-store'
import { loadConversationGrants, revokeConversationGrant, useGrants } from '../../state/grants-actions'
import type { UiError } from '../../state/ui-error'
import { openSettings } from '../../state/ui-store'
import { ErrorNote } from '../common/error-note'
import { GrantTable } from './grant-table'
import '../../styles/permissions.css'

/**
 * In the session header: "N permissions allowed" — what "Always allow" answers in this conversation (for the
 * conversation, or while an agent runs) let through without asking. Opens their list, each with Revoke.
 */
export function ConversationGrants({ sessionId, status }: { sessionId: string; status: SessionStatus }) {
  const grants = useGrants((s) => s.byRoot[sessionId])
  // An answer adds grants, a run that ends drops its own: look again when either happens.
  const waiting = useApprovals((s) => pendingForRoot(s.pending, sessionId).length)
  const [open, setOpen] = useState(false)
  // The list opens toward where there is room: leftwards from a button on the right, else rightwards.
  const [alignLeft, setAlignLeft] = useState(false)
  const [error, setError] = useState<UiError | null>(null)
  const box = useRef<HTMLSpanElement>(null)
  useEffect(() => {
    void loadConversationGrants(sessionId).then(setError)
  }, [sessionId, waiting, status])
  useEffect(() => {
    if (!open) return
    const away = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', away)
    return () => document.removeEventListener('mousedown', away)
  }, [open])
  useLayoutEffect(() => {
    if (!open) return
    const place = () => {
      const r = box.current?.getBoundingClientRect()
      if (r) setAlignLeft(r.left < window.innerWidth / 2 && r.left + 520 < window.innerWidth - 8)
    }
    place()
    window.addEventListener('resize', place)
    return () => window.removeEventListener('resize', place)
  }, [open])
  const count = grants?.length ?? 0
  if (count === 0 && !open) return null
  const label = `${count} permission${count === 1 ? '' : 's'} allowed for this conversation`
  const revoke = async (id: string) => {
    setError(await revokeConversationGrant(sessionId, id))
  }
  return (
    <span className="grants-menu" ref={box}>
      <button
        type="button"
        className="btn small grants-btn"
        data-testid="conversation-grants"
        aria-expanded={open}
        aria-controls="conversation-grants-list"
        title={label}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden>✓ </span>
        {count} permission{count === 1 ? '' : 's'} allowed<span className="sr-only"> for this conversation</span>
      </button>
      {open && (
        <div
          className={`popover grants-popover ${alignLeft ? 'align-left' : ''}`}
          id="conversation-grants-list"
          role="dialog"
          aria-label="Permissions allowed for this conversation"
          data-testid="conversation-grants-list"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false)
          }}
        >
          <div className="grants-popover-head">
            <strong>Allowed for this conversation</strong>
            <span className="muted small">by your &quot;Always allow&quot; answers; revoke one and it asks again</span>
          </div>
          {count === 0 ? <div className="muted small">None any more.</div> : <GrantTable rules={grants ?? []} conversation={false} onRevoke={(id) => void revoke(id)} />}
          {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
          <button type="button" className="link-btn small" data-testid="conversation-grants-settings" onClick={() => openSettings('grants')}>
            Every permission rule in Settings › Permissions
          </button>
        </div>
      )}
    </span>
  )
}
