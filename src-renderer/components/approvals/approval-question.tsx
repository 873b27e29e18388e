import { useState } from 'react'
import type { ApprovalRecord } from '../../../src-shared'
import { approvalArgs } from '../../state/approval-data'
import type { UiError } from '../../state/ui-error'
import { answerApproval } from '../../state/session-actions'
import { ApprovalShell } from './approval-shell'
import { ErrorNote } from '../common/error-note'

/** A `question` from an agent (at any depth), in the conversation. */
export function QuestionApproval({ approval: a, more }: { approval: ApprovalRecord; more: number }) {
  return (
    <ApprovalShell approval={a} more={more} title="The agent asks" testId="question-dialog">
      <QuestionAnswer approval={a} />
    </ApprovalShell>
  )
}

/** The question, its options as buttons, or an answer in the person's words (the conversation's panel and the inbox). */
export function QuestionAnswer({ approval: a }: { approval: ApprovalRecord }) {
  const { input } = approvalArgs(a)
  const question = typeof input.question === 'string' ? input.question : 'The agent has a question.'
  const options = Array.isArray(input.options) ? input.options.filter((o): o is string => typeof o === 'string') : []
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
    <>
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
      <label className="label" htmlFor={`question-answer-${a.id}`}>{options.length ? 'Or answer in your own words' : 'Your answer'}</label>
      <textarea
        id={`question-answer-${a.id}`}
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
      <div className="approval-actions">
        <button className="btn ghost" disabled={busy} onClick={() => void reply(null)}>
          Skip
        </button>
        <span className="spacer" />
        <button className="btn primary" data-testid="question-send" disabled={busy || !text.trim()} onClick={() => void reply(text.trim())}>
          Answer <kbd>Enter</kbd>
        </button>
      </div>
    </>
  )
}
