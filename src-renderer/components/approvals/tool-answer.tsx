import { useRef, useState } from 'react'
import { parseMcpToolName, type AlwaysScope, type ApprovalRecord } from '../../../src-shared'
import { alwaysSuggestions, approvalArgs, type Suggestion } from '../../state/approval-data'
import type { UiError } from '../../state/ui-error'
import { answerApproval } from '../../state/session-actions'
import { ErrorNote } from '../common/error-note'
import { AlwaysScopeField } from './always-scope'

type Mode = 'main' | 'always' | 'deny'
type Decision = 'allow_once' | 'allow_always' | 'deny'

/** A tool call's or a plan's title: what it asks to do. */
export function toolTitle(a: ApprovalRecord) {
  if (a.kind === 'plan') return 'Approve this plan and start building?'
  const mcp = parseMcpToolName(a.toolName)
  if (mcp) {
    return (
      <span data-testid="approval-mcp">
        Allow <code>{mcp.tool}</code> from the MCP server <strong data-testid="approval-mcp-server">{mcp.server}</strong>?
      </span>
    )
  }
  return (
    <>
      Allow <code>{a.toolName}</code>?
    </>
  )
}

export type ToolAnswerState = ReturnType<typeof useToolAnswer>

/** The answer being put together for a tool call or a plan: which editor is open, the patterns, scope and feedback. */
export function useToolAnswer(a: ApprovalRecord) {
  const [mode, setMode] = useState<Mode>('main')
  const [suggestions, setSuggestions] = useState<Suggestion[]>(() => alwaysSuggestions(a))
  const [scope, setScope] = useState<AlwaysScope>('session')
  const [feedback, setFeedback] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<UiError | null>(null)
  const busyRef = useRef(false)

  const answer = async (decision: Decision) => {
    if (busyRef.current) return
    busyRef.current = true
    setBusy(true)
    const patterns = suggestions.map((s) => s.pattern.trim()).filter(Boolean)
    const err = await answerApproval({
      approvalId: a.id,
      decision,
      ...(decision === 'allow_always' ? { patterns, scope } : {}),
      ...(decision === 'deny' && feedback.trim() ? { feedback: feedback.trim() } : {}),
    })
    busyRef.current = false
    setBusy(false)
    setError(err)
  }
  return { mode, setMode, suggestions, setSuggestions, scope, setScope, feedback, setFeedback, busy, error, setError, answer }
}

/**
 * Allow once / Always allow (patterns and scope) / Deny (with feedback for the model), for a tool call or a plan.
 * `enterKey`: the frame around it answers Enter with Allow once (the conversation's panel), so the button says so.
 */
export function ToolAnswerControls({ approval: a, t, enterKey = false }: { approval: ApprovalRecord; t: ToolAnswerState; enterKey?: boolean }) {
  const { mode, setMode, suggestions, setSuggestions, busy } = t
  const plan = a.kind === 'plan'
  const canAlways = a.kind === 'tool' && !approvalArgs(a).protectedWrite
  return (
    <>
      {mode === 'always' && (
        <fieldset className="always-editor" data-testid="always-editor">
          <legend className="label">Allow from now on — one pattern per command, edit or remove any</legend>
          {suggestions.map((s, i) => (
            <div key={i} className="always-row" data-testid="always-row" data-risky={s.risky || undefined}>
              <input
                className="input mono"
                aria-label={`Pattern ${i + 1}`}
                data-testid="always-pattern"
                value={s.pattern}
                onChange={(e) => setSuggestions(suggestions.map((x, k) => (k === i ? { ...x, pattern: e.target.value } : x)))}
              />
              {s.risky && (
                <span className="pill err" data-testid="always-risky" title={s.reason ?? undefined}>
                  risky{s.reason ? `: ${s.reason}` : ''}
                </span>
              )}
              <button
                type="button"
                className="icon-btn"
                aria-label={`Remove pattern ${s.pattern}`}
                disabled={suggestions.length === 1}
                onClick={() => setSuggestions(suggestions.filter((_, k) => k !== i))}
              >
                ×
              </button>
            </div>
          ))}
          <AlwaysScopeField id={`always-scope-${a.id}`} scope={t.scope} onChange={t.setScope} />
        </fieldset>
      )}
      {mode === 'deny' && (
        <div className="deny-editor">
          <label className="label" htmlFor={`deny-feedback-${a.id}`}>
            {plan ? 'What should change in the plan? (optional)' : 'Tell the agent why, or what to do instead (optional)'}
          </label>
          <textarea
            id={`deny-feedback-${a.id}`}
            autoFocus
            className="input"
            data-testid="deny-feedback"
            rows={2}
            value={t.feedback}
            onChange={(e) => t.setFeedback(e.target.value)}
            // Enter (or Ctrl/Cmd+Enter) denies with what is written, as the message box sends; Shift+Enter breaks the line.
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing || busy) return
              e.preventDefault()
              void t.answer('deny')
            }}
            aria-describedby={`deny-feedback-keys-${a.id}`}
          />
          <span className="hint" id={`deny-feedback-keys-${a.id}`}>
            Enter to {plan ? 'reject' : 'deny'} · Shift+Enter for a new line
          </span>
        </div>
      )}
      {t.error && <ErrorNote error={t.error} onDismiss={() => t.setError(null)} testId="approval-error" />}
      <div className="approval-actions">
        {mode === 'main' ? (
          <>
            <button className="btn danger" data-testid="approval-deny-open" disabled={busy} onClick={() => setMode('deny')}>
              {plan ? 'Reject…' : 'Deny…'}
            </button>
            <span className="spacer" />
            {canAlways && (
              <button className="btn" data-testid="approval-always-open" disabled={busy} onClick={() => setMode('always')}>
                Always allow…
              </button>
            )}
            <button className="btn primary" data-testid="approval-allow-once" disabled={busy} onClick={() => void t.answer('allow_once')}>
              {plan ? 'Approve plan' : 'Allow once'} {enterKey && <kbd>Enter</kbd>}
            </button>
          </>
        ) : (
          <>
            <button className="btn ghost" onClick={() => setMode('main')}>
              Back
            </button>
            <span className="spacer" />
            {mode === 'always' ? (
              <button
                className="btn primary"
                data-testid="approval-always-confirm"
                disabled={busy || suggestions.every((s) => !s.pattern.trim())}
                onClick={() => void t.answer('allow_always')}
              >
                Always allow
              </button>
            ) : (
              <button className="btn danger" data-testid="approval-deny-confirm" disabled={busy} onClick={() => void t.answer('deny')}>
                {plan ? 'Reject plan' : 'Deny'}
              </button>
            )}
          </>
        )}
      </div>
    </>
  )
}
