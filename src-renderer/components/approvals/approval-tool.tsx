import { useRef, useState } from 'react'
import { parseMcpToolName, type ApprovalRecord, type RuleScope } from '../../../src-shared'
import { Markdown } from '../../markdown'
import { alwaysSuggestions, approvalArgs, type Suggestion } from '../../state/approval-data'
import type { UiError } from '../../state/ui-error'
import { answerApproval } from '../../state/session-actions'
import { ApprovalShell } from './approval-shell'
import { DiffView } from '../common/diff-view'
import { ErrorNote } from '../common/error-note'

type Mode = 'main' | 'always' | 'deny'

/** A tool call or a plan waiting for the person: what it will do, and Allow once / Always allow / Deny. */
export function ToolApproval({ approval: a, more }: { approval: ApprovalRecord; more: number }) {
  const [mode, setMode] = useState<Mode>('main')
  const [suggestions, setSuggestions] = useState<Suggestion[]>(() => alwaysSuggestions(a))
  const [scope, setScope] = useState<RuleScope>('session')
  const [feedback, setFeedback] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<UiError | null>(null)
  const { protectedWrite } = approvalArgs(a)
  const busyRef = useRef(false)

  const answer = async (decision: 'allow_once' | 'allow_always' | 'deny') => {
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

  const plan = a.kind === 'plan'
  const mcp = parseMcpToolName(a.toolName)
  const title = plan ? (
    'Approve this plan and start building?'
  ) : mcp ? (
    <span data-testid="approval-mcp">
      Allow <code>{mcp.tool}</code> from the MCP server <strong data-testid="approval-mcp-server">{mcp.server}</strong>?
    </span>
  ) : (
    <>
      Allow <code>{a.toolName}</code>?
    </>
  )
  return (
    <ApprovalShell approval={a} more={more} title={title} testId="approval-dialog" onEnter={mode === 'main' ? () => void answer('allow_once') : undefined}>
      {protectedWrite && (
        <div className="callout warn" data-testid="approval-protected">
          <div className="callout-title">This changes what agents may do</div>
          <code>{protectedWrite.path}</code>: {protectedWrite.reason}. It can be allowed once, never always.
        </div>
      )}
      <ApprovalArguments approval={a} />
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
          <label className="label" htmlFor={`always-scope-${a.id}`}>Scope</label>
          <select id={`always-scope-${a.id}`} className="select" data-testid="always-scope" value={scope} onChange={(e) => setScope(e.target.value as RuleScope)}>
            <option value="session">This session (and its subagents)</option>
            <option value="workspace">This workspace (all sessions)</option>
          </select>
        </fieldset>
      )}
      {mode === 'deny' && (
        <div className="deny-editor">
          <label className="label" htmlFor={`deny-feedback-${a.id}`}>Tell the agent why, or what to do instead (optional)</label>
          <textarea
            id={`deny-feedback-${a.id}`}
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
      <div className="approval-actions">
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
              {plan ? 'Approve plan' : 'Allow once'} <kbd>Enter</kbd>
            </button>
          </>
        )}
        {mode !== 'main' && (
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
                onClick={() => void answer('allow_always')}
              >
                Always allow
              </button>
            ) : (
              <button className="btn danger" data-testid="approval-deny-confirm" disabled={busy} onClick={() => void answer('deny')}>
                Deny
              </button>
            )}
          </>
        )}
      </div>
    </ApprovalShell>
  )
}

function ApprovalArguments({ approval: a }: { approval: ApprovalRecord }) {
  const { input, summary, diff, reason } = approvalArgs(a)
  const str = (k: string): string | undefined => (typeof input[k] === 'string' ? (input[k] as string) : undefined)
  let body
  if (a.toolName === 'bash' && str('command') !== undefined) {
    body = (
      <>
        <pre className="command" data-testid="approval-command">$ {str('command')}</pre>
        {a.patterns.length > 1 && (
          <ul className="subcommands" aria-label="Sub-commands" data-testid="approval-subcommands">
            {a.patterns.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        )}
      </>
    )
  } else if (diff !== null) body = <DiffView path={str('path')} unified={diff} testId="approval-diff" />
  else if (a.toolName === 'edit_file') body = <DiffView path={str('path')} before={str('old_string') ?? ''} after={str('new_string') ?? ''} testId="approval-diff" />
  else if (a.toolName === 'write_file') body = <DiffView path={str('path')} before="" after={(str('content') ?? '').slice(0, 200_000)} testId="approval-diff" />
  else if (a.toolName === 'plan_exit' && str('plan') !== undefined) body = <div className="plan"><Markdown text={str('plan') ?? ''} /></div>
  else if (str('path') !== undefined && Object.keys(input).length <= 3) body = <pre className="command">{str('path')}</pre>
  else body = <pre className="tool-input">{JSON.stringify(input, null, 2)}</pre>
  return (
    <div className="approval-args" data-testid="approval-arguments">
      {summary && a.toolName !== 'bash' && <div className="approval-summary">{summary}</div>}
      {body}
      {a.patterns.length > 0 && a.toolName !== 'bash' && (
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
