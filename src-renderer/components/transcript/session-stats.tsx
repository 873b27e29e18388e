import { useEffect, useMemo } from 'react'
import { BudgetView, formatUsd, type SessionRecord } from '../../../src-shared'
import { formatTokens } from '../../lib/format'
import { formatRef, loadModelDetails, useModels } from '../../state/models-store'
import { useTranscript } from '../../state/transcript-store'
import { BudgetPill } from './budget-pill'
import { ConversationGrants } from '../approvals/conversation-grants'

/**
 * The session header's model and numbers: the model the next turn runs on, tokens (own + every subagent's), cost
 * when the price is known (a lower bound, marked ≥, when some model's price is not), and how full the model's
 * context window was at the last step; and, when it runs under a budget, spent against it.
 */
export function SessionStats({ session }: { session: SessionRecord }) {
  const model = formatRef(session.model)
  const details = useModels((s) => (model ? s.details[model] : undefined))
  const used = useTranscript((s) => s.transcripts[session.id]?.contextTokens ?? null)
  // Metadata is an open record the host fills: only a well-formed view is shown.
  const rawBudget = session.metadata.budget
  const budget = useMemo(() => (rawBudget === undefined ? null : (BudgetView.safeParse(rawBudget).data ?? null)), [rawBudget])
  // The budget pill shows the cost spent already (against its limit): the plain figure would say it twice.
  const budgetShowsCost = budget?.limit.costUsd !== undefined
  useEffect(() => {
    if (model) void loadModelDetails(model)
  }, [model])

  const sub = session.subagentUsage?.total ?? 0
  const total = session.usage.total + sub
  const cost = session.costUsd + (session.subagentCostUsd ?? 0)
  const unpriced = session.unpricedTokens ?? 0
  const costText = cost > 0 ? `${unpriced > 0 ? '≥ ' : ''}${formatUsd(cost)}` : unpriced > 0 ? null : total > 0 && details?.pricing ? formatUsd(0) : null
  const window = details?.contextWindow
  const share = used !== null && window ? Math.min(1, used / window) : null

  return (
    <span className="session-stats" data-testid="session-stats">
      {model && (
        <span className="pill mono" data-testid="session-model" title="The model this session's next turn runs on">
          {model}
        </span>
      )}
      {total > 0 && (
        <span
          className="muted small nowrap"
          data-testid="session-tokens"
          title={sub > 0 ? `${formatTokens(session.usage.total)} this session + ${formatTokens(sub)} subagents` : undefined}
        >
          {formatTokens(total)} tokens{sub > 0 ? ' incl. subagents' : ''}
          {(session.usage.cacheRead > 0 || session.usage.cacheWrite > 0) && ` · cache ${formatTokens(session.usage.cacheRead)} read / ${formatTokens(session.usage.cacheWrite)} write`}
        </span>
      )}
      {costText && !budgetShowsCost && (
        <span className="muted small nowrap" data-testid="session-cost" title={unpriced > 0 ? `${formatTokens(unpriced)} tokens of models with no known price are not counted` : 'Cost at list prices'}>
          {costText}
        </span>
      )}
      {budget && <BudgetPill view={budget} testId="session-budget" label="Session budget" />}
      <ConversationGrants sessionId={session.id} status={session.status} />
      {share !== null && window && (
        <span className="context-label small" data-testid="context-label" aria-hidden="true">
          context {Math.round(share * 100)}%
        </span>
      )}
      {share !== null && window && (
        <span
          className="context-gauge"
          data-testid="context-gauge"
          role="meter"
          aria-label="Context window used"
          aria-valuemin={0}
          aria-valuemax={window}
          aria-valuenow={used ?? 0}
          aria-valuetext={`${formatTokens(used ?? 0)} of ${formatTokens(window)} tokens (${Math.round(share * 100)}%)`}
          title={`Context: ${formatTokens(used ?? 0)} of ${formatTokens(window)} tokens${details?.contextWindowKnown ? '' : ' (window size assumed)'}`}
        >
          <span className={`context-gauge-fill ${share > 0.8 ? 'high' : ''}`} style={{ width: `${Math.max(2, share * 100)}%` }} />
        </span>
      )}
    </span>
  )
}
