import { useState } from 'react'
import type { ApprovalRecord } from '../../src-shared'
import type { UiError } from '../state/bridge'
import { answerApproval } from '../state/session-actions'
import { ErrorNote } from './error-note'

/** The `question` tool: an agent (possibly deep in the tree) asks the person something; the answer goes back as text. */
export function QuestionModal({ approval: a, more }: { approval: ApprovalRecord; more: number }) {
  const args = (a.arguments && typeof a.arguments === 'object' ? a.arguments : {}) as { question?: unknown; options?: unknown }
  const question = typeof args.question === 'string' ? args.question : 'The agent has a question.'
  const options = Array.isArray(args.options) ? args.options.filter((o): o is string => typeof o === 'string') : []
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<UiError | null>(null)

  const reply = async (answer: string | null) => {
    if (busy) return
    setBusy(true)
    const err = await answerApproval(
      answer === null ? { approvalId: a.id, decision: 'deny' } : { approvalId: a.id, decision: 'allow_once', feedback: answer },
    )
    setBusy(false)
    setError(err)
  }

  return (
    <div className="modal-backdrop" data-testid="approval-backdrop">
      <div className="modal approval" role="dialog" aria-modal="true" aria-labelledby="question-title" data-testid="question-dialog" data-approval-id={a.id}>
        <div className="modal-head">
          <div id="question-title" className="modal-title">The agent asks</div>
          {more > 0 && <span className="pill warn">+{more} more</span>}
        </div>
        <div className="agent-path">{a.agentPath.join(' › ')}</div>
        {a.agentPath.length > 1 && <div className="muted small">Take your time: a subagent&apos;s timeout does not run while it waits for you.</div>}
        <p className="question-text" data-testid="question-text">{question}</p>
        {options.length > 0 && (
          <div className="question-options">
            {options.map((o) => (
              <button key={o} className="btn" disabled={busy} data-testid="question-option" onClick={() => void reply(o)}>
                {o}
              </button>
            ))}
          </div>
        )}
        <label className="label" htmlFor="question-answer">{options.length ? 'Or answer in your own words' : 'Your answer'}</label>
        <textarea
          id="question-answer"
          autoFocus
          className="input"
          data-testid="question-answer"
          rows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && text.trim()) {
              e.preventDefault()
              void reply(text.trim())
            }
          }}
        />
        {error && <ErrorNote error={error} onDismiss={() => setError(null)} testId="approval-error" />}
        <div className="modal-actions">
          <button className="btn ghost" disabled={busy} onClick={() => void reply(null)}>
            Skip
          </button>
          <span className="spacer" />
          <button className="btn primary" data-testid="question-send" disabled={busy || !text.trim()} onClick={() => void reply(text.trim())}>
            Answer <kbd>Enter</kbd>
          </button>
        </div>
      </div>
    </div>
  )
}
