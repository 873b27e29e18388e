import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react'
import type { ApprovalRecord } from '../../../src-shared'
import { focusComposer } from '../../state/ui-store'
import { askerPath, risksOf } from '../../state/approval-words'
import { useRunMap } from '../../state/run-map-store'

const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), textarea:not(:disabled), select:not(:disabled), [tabindex]:not([tabindex="-1"])'

type ShellProps = {
  approval: ApprovalRecord
  more: number
  title: ReactNode
  testId: string
  /** Enter while the approval (not a field or a button in it) has focus */
  onEnter?: () => void
  children: ReactNode
}

/**
 * The frame every approval shares. Keyboard: Enter = the primary answer (allow once) when the approval itself
 * has focus; Tab stays inside while focus is here; Esc never answers, it goes back to the message box.
 * It takes focus when it appears unless the person is typing somewhere, so a keystroke meant for the
 * composer can never answer it.
 */
export function ApprovalShell({ approval: a, more, title, testId, onEnter, children }: ShellProps) {
  const ref = useRef<HTMLElement>(null)
  const nodes = useRunMap((s) => s.nodes)
  const risks = risksOf(a)

  useEffect(() => {
    const active = document.activeElement
    const typing = active instanceof HTMLElement && !ref.current?.contains(active) && (active.isContentEditable || active.matches('input, textarea, select'))
    if (!typing) ref.current?.focus()
  }, [])

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const el = ref.current
    if (!el) return
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      focusComposer()
      return
    }
    if (e.key === 'Tab') {
      const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => x.offsetParent !== null)
      if (items.length === 0) return
      const first = items[0]
      const last = items[items.length - 1]
      const at = document.activeElement
      if (e.shiftKey && (at === first || at === el)) {
        e.preventDefault()
        last.focus()
      } else if (!e.shiftKey && (at === last || at === el)) {
        e.preventDefault()
        first.focus()
      }
      return
    }
    if (e.key === 'Enter' && !e.shiftKey && onEnter && !(e.target as HTMLElement).closest('button, input, textarea, select, a')) {
      e.preventDefault()
      onEnter()
    }
  }

  return (
    <section
      ref={ref}
      className="approval-panel"
      tabIndex={-1}
      aria-labelledby={`approval-title-${a.id}`}
      data-testid={testId}
      data-approval-id={a.id}
      onKeyDown={onKeyDown}
    >
      <div className="approval-head">
        <h2 id={`approval-title-${a.id}`} className="approval-title">{title}</h2>
        {more > 0 && (
          <span className="pill warn" data-testid="approval-more" title="Answer this one to see the next">
            +{more} more waiting
          </span>
        )}
      </div>
      <div className="agent-path" data-testid="approval-agent-path">{askerPath(a, nodes).join(' › ')}</div>
      {risks.length > 0 && (
        <div className="approval-risks" data-testid="approval-risks">
          {risks.map((r) => (
            <span key={r} className="pill warn">
              ⚠ {r}
            </span>
          ))}
        </div>
      )}
      {a.agentPath.length > 1 && (
        <div className="muted small" data-testid="approval-clock-note">
          Take your time: the subagent&apos;s clock is paused while it waits for you.
        </div>
      )}
      {children}
    </section>
  )
}
