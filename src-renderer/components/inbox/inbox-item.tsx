import { useState } from 'react'
import type { ApprovalRecord } from '../../../src-shared'
import { formatDateTime, formatWhen } from '../../lib/format'
import { workspaceName, type InboxItem } from '../../state/inbox'
import { openConversation } from '../../state/inbox-actions'
import type { UiError } from '../../state/ui-error'
import { ToolDetails } from '../approvals/approval-arguments'
import { QuestionAnswer } from '../approvals/approval-question'
import { BudgetAnswerControls, BudgetDetails, budgetWords, useBudgetAnswer } from '../approvals/budget-answer'
import { ToolAnswerControls, toolTitle, useToolAnswer } from '../approvals/tool-answer'
import { ErrorNote } from '../common/error-note'

const KIND_LABEL: Record<ApprovalRecord['kind'], string> = { tool: 'Tool', plan: 'Plan', question: 'Question', budget: 'Budget' }

type Props = {
  item: InboxItem
  selected: boolean
  onSelect: () => void
  /** this item's failure in the last "answer selected" (answered elsewhere meanwhile, its run gone …) */
  batchError: UiError | null
  onDismissError: () => void
  now: number
}

/**
 * One pending decision in the inbox: where it was asked (agent path, workspace, conversation), what it is about, and
 * the same controls as in the conversation, answered in place.
 */
export function InboxItemView({ item, selected, onSelect, batchError, onDismissError, now }: Props) {
  const a = item.approval
  const [openError, setOpenError] = useState<UiError | null>(null)
  const titleId = `inbox-title-${a.id}`
  const title = a.kind === 'question' ? 'The agent asks' : a.kind === 'budget' ? budgetWords(a).title : toolTitle(a)
  const path = a.agentPath.join(' › ')
  const ws = item.workspaceRoot ? workspaceName(item.workspaceRoot) : null

  return (
    <article className={`inbox-item kind-${a.kind}`} aria-labelledby={titleId} data-testid="inbox-item" data-approval-id={a.id} data-kind={a.kind} data-created-at={a.createdAt}>
      <div className="inbox-item-head">
        {item.batchable ? (
          <input type="checkbox" className="inbox-check" data-testid="inbox-select" checked={selected} onChange={onSelect} aria-label={`Select: ${path} in ${item.conversationTitle}`} />
        ) : (
          <span className="inbox-check-gap" aria-hidden />
        )}
        <div className="inbox-item-title">
          <h2 id={titleId} className="approval-title">
            {title}
          </h2>
          <div className="inbox-where" data-testid="inbox-where">
            <span className="pill inbox-kind">{KIND_LABEL[a.kind]}</span>
            <span className="agent-path" data-testid="inbox-agent-path">{path}</span>
            <span aria-hidden>·</span>
            <span className="inbox-workspace" data-testid="inbox-workspace" title={item.workspaceRoot ?? 'Workspace not known yet'}>
              {ws ?? 'unknown folder'}
            </span>
            <span aria-hidden>·</span>
            <span className="inbox-conversation" data-testid="inbox-conversation" title={item.conversationTitle}>
              {item.conversationTitle}
            </span>
            <span aria-hidden>·</span>
            <time className="muted" dateTime={new Date(a.createdAt).toISOString()} title={formatDateTime(a.createdAt)}>
              {formatWhen(a.createdAt, now)}
            </time>
          </div>
        </div>
        <button
          className="btn ghost inbox-open"
          data-testid="inbox-open"
          aria-label={`Open the conversation ${item.conversationTitle}${ws ? ` in ${ws}` : ''}`}
          onClick={async () => setOpenError(await openConversation(a.rootSessionId, item.workspaceRoot))}
        >
          Open ›
        </button>
      </div>
      {openError && <ErrorNote error={openError} onDismiss={() => setOpenError(null)} />}
      {batchError && <ErrorNote error={batchError} onDismiss={onDismissError} testId="inbox-item-error" />}
      <div className="inbox-item-body">
        <Answer approval={a} />
      </div>
    </article>
  )
}

function Answer({ approval: a }: { approval: ApprovalRecord }) {
  if (a.kind === 'question') return <QuestionAnswer approval={a} />
  if (a.kind === 'budget') return <BudgetAnswer approval={a} />
  return <ToolAnswer approval={a} />
}

function ToolAnswer({ approval: a }: { approval: ApprovalRecord }) {
  const t = useToolAnswer(a)
  return (
    <>
      <ToolDetails approval={a} />
      <ToolAnswerControls approval={a} t={t} />
    </>
  )
}

function BudgetAnswer({ approval: a }: { approval: ApprovalRecord }) {
  const t = useBudgetAnswer(a)
  return (
    <>
      <BudgetDetails approval={a} />
      <BudgetAnswerControls approval={a} t={t} />
    </>
  )
}
