import { useEffect, useMemo, useRef, useState } from 'react'
import type { ApprovalRecord, RuleScope } from '../../src-shared'
import { Markdown } from '../markdown'
import { pendingForRoot, useApprovals } from '../state/approvals-store'
import type { UiError } from '../state/bridge'
import { answerApproval } from '../state/session-actions'
import { useTranscript } from '../state/transcript-store'
import { DiffView } from './diff-view'
import { ErrorNote } from './error-note'
import { QuestionModal } from './question-dialog'

/** The oldest pending approval of the open root session (and all its descendants), as a modal. */
export function ApprovalDialog() {
  const rootId = useTranscript((s) => s.rootId)
  const pending = useApprovals((s) => s.pending)
  const list = useMemo(() => pendingForRoot(pending, rootId), [pending, rootId])
  if (list.length === 0) return null
  if (list[0].kind === 'question') return <QuestionModal key={list[0].id} approval={list[0]} more={list.length - 1} />
  return <ApprovalModal key={list[0].id} approval={list[0]} more={list.length - 1} />
}

function ApprovalModal({ approval: a, more }: { approval: ApprovalRecord; more: number }) {
  const [mode, setMode] = useState<'main' | 'always' | 'deny'>('main')
  const [patterns, setPatterns] = useState((a.alwaysPatterns.length ? a.alwaysPatterns : a.patterns).join('\n'))
  const [scope, setScope] = useState<RuleScope>('session')
  const [feedback, setFeedback] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<UiError | null>(null)
  const dialog = useRef<HTMLDivElement>(null)
  const protectedWrite = protectedOf(a)

  const answer = async (decision: 'allow_once' | 'allow_always' | 'deny') => {
    if (busy) return
    setBusy(true)
    const list = patterns.split('\n').map((p) => p.trim()).filter(Boolean)
    const err = await answerApproval({
      approvalId: a.id,
      decision,
      ...(decision === 'allow_always' ? { patterns: list, scope } : {}),
      ...(decision === 'deny' && feedback.trim() ? { feedback: feedback.trim() } : {}),
    })
    setBusy(false)
    setError(err)
  }

  // Keyboard-first: Enter allows once, Esc denies (with any feedback typed), wherever focus is in the dialog.
  const answerRef = useRef(answer)
  answerRef.current = answer
  useEffect(() => {
    dialog.current?.focus()
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null
      const inField = target?.tagName === 'TEXTAREA' || target?.tagName === 'INPUT' || target?.tagName === 'SELECT'
      if (e.key === 'Escape') {
        e.preventDefault()
        void answerRef.current('deny')
      } else if (e.key === 'Enter' && !e.shiftKey && !inField && target?.tagName !== 'BUTTON') {
        e.preventDefault()
        void answerRef.current('allow_once')
      }
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [])

  return (
    <div className="modal-backdrop" data-testid="approval-backdrop">
      <div className="modal approval" role="dialog" aria-modal="true" aria-labelledby="approval-title" tabIndex={-1} ref={dialog} data-testid="approval-dialog" data-approval-id={a.id}>
        <div className="modal-head">
          <div id="approval-title" className="modal-title">
            {a.kind === 'plan' ? 'Approve this plan and start building?' : <>Allow <code>{a.toolName}</code>?</>}
          </div>
          {more > 0 && <span className="pill warn" data-testid="approval-more">+{more} more</span>}
        </div>
        <div className="agent-path" data-testid="approval-agent-path">{a.agentPath.join(' › ')}</div>
        {a.agentPath.length > 1 && (
          <div className="muted small" data-testid="approval-clock-note">
            Take your time: a subagent&apos;s timeout does not run while it waits for you.
          </div>
        )}
        {protectedWrite && (
          <div className="callout warn" data-testid="approval-protected">
            <div className="callout-title">This changes what agents may do</div>
            <code>{protectedWrite.path}</code>: {protectedWrite.reason}. It can be allowed once, never always.
          </div>
        )}
        <ApprovalArguments approval={a} />
        {mode === 'always' && (
          <div className="always-editor" data-testid="always-editor">
            <label className="label" htmlFor="always-patterns">Pattern(s) that will be allowed from now on — one per line</label>
            <textarea
              id="always-patterns"
              className="input mono"
              data-testid="always-patterns"
              rows={Math.min(4, Math.max(1, patterns.split('\n').length))}
              value={patterns}
              onChange={(e) => setPatterns(e.target.value)}
            />
            {a.alwaysSuggestions.some((s) => s.risky) && (
              <ul className="risky-patterns small" data-testid="always-risky">
                {a.alwaysSuggestions.filter((s) => s.risky).map((s) => (
                  <li key={s.pattern}>
                    ⚠ <code>{s.pattern}</code> {s.reason ?? 'deserves a second look'}
                  </li>
                ))}
              </ul>
            )}
            <label className="label" htmlFor="always-scope">Scope</label>
            <select id="always-scope" className="select" data-testid="always-scope" value={scope} onChange={(e) => setScope(e.target.value as RuleScope)}>
              <option value="session">This session (and its subagents)</option>
              <option value="workspace">This workspace (all sessions)</option>
            </select>
          </div>
        )}
        {mode === 'deny' && (
          <div className="deny-editor">
            <label className="label" htmlFor="deny-feedback">Tell the agent why, or what to do instead (optional)</label>
            <textarea
              id="deny-feedback"
              autoFocus
              className="input"
              data-testid="deny-feedback"
              rows={2}
              value={feedback}
              onChange={(e) => setFeedback(e.target.value)}
            />
          </div>
        )}
        {error && <ErrorNote error={error} onDismiss={() => setError(null)} testId="approval-error" />}
        <div className="modal-actions">
          {mode === 'main' && (
            <>
              <button className="btn danger" data-testid="approval-deny-open" disabled={busy} onClick={() => setMode('deny')}>
                Deny…
              </button>
              <span className="spacer" />
              {a.kind === 'tool' && !protectedWrite && (
                <button className="btn" data-testid="approval-always-open" disabled={busy} onClick={() => setMode('always')}>
                  Always allow…
                </button>
              )}
              <button className="btn primary" data-testid="approval-allow-once" disabled={busy} onClick={() => void answer('allow_once')}>
                {a.kind === 'plan' ? 'Approve plan' : 'Allow once'} <kbd>Enter</kbd>
              </button>
            </>
          )}
          {mode === 'always' && (
            <>
              <button className="btn ghost" onClick={() => setMode('main')}>Back</button>
              <span className="spacer" />
              <button
                className="btn primary"
                data-testid="approval-always-confirm"
                disabled={busy || !patterns.trim()}
                onClick={() => void answer('allow_always')}
              >
                Always allow
              </button>
            </>
          )}
          {mode === 'deny' && (
            <>
              <button className="btn ghost" onClick={() => setMode('main')}>Back</button>
              <span className="spacer" />
              <button className="btn danger" data-testid="approval-deny-confirm" disabled={busy} onClick={() => void answer('deny')}>
                Deny <kbd>Esc</kbd>
              </button>
            </>
          )}
        </div>
      </div>
    </div>
  )
}

/** Set by the host when the call writes protected configuration (rules, agents, config, git hooks…). */
function protectedOf(a: ApprovalRecord): { path: string; reason: string } | null {
  const p = a.arguments && typeof a.arguments === 'object' ? (a.arguments as { protected?: { path?: unknown; reason?: unknown } }).protected : undefined
  return p && typeof p.path === 'string' && typeof p.reason === 'string' ? { path: p.path, reason: p.reason } : null
}

function ApprovalArguments({ approval: a }: { approval: ApprovalRecord }) {
  // The host sends `{ input, summary }`; older records may hold the tool input directly.
  const raw = a.arguments && typeof a.arguments === 'object' ? (a.arguments as Record<string, unknown>) : {}
  const args = raw.input && typeof raw.input === 'object' ? (raw.input as Record<string, unknown>) : raw
  const str = (k: string): string | undefined => (typeof args[k] === 'string' ? (args[k] as string) : undefined)
  const reason = typeof raw.reason === 'string' ? raw.reason : undefined
  let body
  if (a.toolName === 'bash' && str('command') !== undefined) body = <pre className="command" data-testid="approval-command">$ {str('command')}</pre>
  else if (a.toolName === 'edit_file') body = <DiffView path={str('path')} before={str('old_string') ?? ''} after={str('new_string') ?? ''} />
  else if (a.toolName === 'write_file') body = <DiffView path={str('path')} before="" after={(str('content') ?? '').slice(0, 20_000)} />
  else if (a.toolName === 'plan_exit' && str('plan') !== undefined) body = <div className="plan"><Markdown text={str('plan') ?? ''} /></div>
  else if (str('path') !== undefined && Object.keys(args).length <= 3) body = <pre className="command">{str('path')}</pre>
  else body = <pre className="tool-input">{JSON.stringify(args, null, 2)}</pre>
  return (
    <div className="approval-args" data-testid="approval-arguments">
      {body}
      {a.patterns.length > 0 && (
        <div className="muted small">
          Matched: <code>{a.patterns.join(', ')}</code>
        </div>
      )}
      {reason && (
        <div className="muted small" data-testid="approval-reason">
          Why: {reason}
        </div>
      )}
    </div>
  )
}
