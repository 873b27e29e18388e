import { memo, useEffect, useState } from 'react'
import type { PartRecord, TaskCard, TaskWorktree } from '../../../src-shared'
import { newTaskCard } from '../../../src-shared/task-card'
import { formatDuration, formatTokens } from '../../lib/format'
import { useNow } from '../../lib/use-now'
import { agentColor, useAgents } from '../../state/agents-store'
import { openRestore } from '../../state/changes-store'
import { readTaskCard, toolInput, toolOutput } from '../../state/part-data'
import type { UiError } from '../../state/ui-error'
import { loadChild, openSession, worktreeAction } from '../../state/session-actions'
import { ContainerRow } from './container-row'
import { toggleExpanded, useTranscript } from '../../state/transcript-store'
import { AgentChangesRow } from '../changes/agent-changes-row'
import { BudgetPill } from './budget-pill'
import { DiffView } from '../common/diff-view'
import { ErrorNote } from '../common/error-note'
import { NestedTranscriptView } from './nested-transcript-view'
import { CallCounts, StoppedPill } from './outcome-marks'
import { StatusIcon } from './tool-card'

/** A `task` call: the child agent's live status, expandable to its transcript nested in place. */
export const SubagentCard = memo(function SubagentCard({ part }: { part: PartRecord }) {
  const card = readTaskCard(part) ?? fallbackCard(part)
  const info = useAgents((s) => s.byName[card.agentType])
  const expanded = useTranscript((s) => s.expanded[card.taskId] === true)
  const childLoad = useTranscript((s) => s.childLoads[card.taskId])
  const active = card.status === 'running' || card.status === 'queued'
  const now = useNow(active && card.startedAt !== null)
  const elapsed = card.startedAt !== null ? (card.endedAt ?? now) - card.startedAt : null
  const color = agentColor(card.agentType, info)
  const output = toolOutput(part)
  // Stopped by a budget the person set: a normal end, told apart from a failure (amber, not red).
  const atBudget = !active && card.budget?.reached !== undefined
  // Refused before a child existed (the person declined a fan-out, an unknown agent, the depth limit): no card came.
  const notStarted = !card.taskId && card.status === 'failed'
  // The person's Stop (its own, or one above it): an expected end, grey "Stopped by you", not a red "aborted".
  const stopped = card.status === 'aborted' && card.stoppedByUser === true

  useEffect(() => {
    if (expanded && card.inspectable && card.taskId) void loadChild(card.taskId)
  }, [expanded, card.inspectable, card.taskId])

  return (
    <div
      className={`subagent-card status-${stopped ? 'stopped' : card.status}${atBudget ? ' at-budget' : ''}`}
      style={{ ['--agent-color' as string]: color }}
      data-testid="subagent-card"
      data-agent={card.agentType}
      data-status={card.status}
      data-task-id={card.taskId}
      data-depth={card.depth}
      data-budget={atBudget ? 'reached' : undefined}
      data-stopped={stopped ? 'user' : undefined}
    >
      <div className="subagent-head">
        <button
          className="subagent-toggle"
          data-testid="subagent-expand"
          aria-expanded={expanded}
          onClick={() => card.taskId && toggleExpanded(card.taskId)}
        >
          <span className="caret" aria-hidden>{expanded ? '▾' : '▸'}</span>
          <StatusIcon state={atBudget ? 'budget' : notStarted ? 'not_started' : stopped ? 'stopped' : card.status} />
          <span className="agent-dot" style={{ background: color }} />
          <span className="subagent-agent">{card.agentType}</span>
          <span className="subagent-desc" data-testid="subagent-name" title={card.options?.label ? card.description : undefined}>
            {card.options?.label ?? card.description}
          </span>
        </button>
        <span className="subagent-stats">
          {card.background && <span className="pill">background</span>}
          <TaskOptionPills card={card} />
          {/* "completed" beside "incomplete" would read as a contradiction: a finished run that stopped early says the latter. */}
          {atBudget || notStarted ? (
            <span className={`pill ${atBudget ? 'status-budget' : ''}`} data-testid="subagent-status">
              {atBudget ? 'stopped at budget' : 'not started'}
            </span>
          ) : stopped ? (
            <StoppedPill testId="subagent-status" detail={card.error} />
          ) : !(card.incomplete && card.status === 'completed') && (
            <span className={`pill status status-${card.status}`} data-testid="subagent-status">{card.status}</span>
          )}
          <CallCounts counts={card.toolCalls} testId="subagent-calls" />
          {card.incomplete && (
            <span className="pill status-incomplete" data-testid="subagent-incomplete" title={`Stopped before it finished: ${card.incomplete}`}>
              incomplete
            </span>
          )}
          {card.budget && <BudgetPill view={card.budget} testId="subagent-budget" label={`Budget of ${card.agentType}`} sayReached={!atBudget} />}
          <span title="steps">{card.steps} step{card.steps === 1 ? '' : 's'}</span>
          {elapsed !== null && <span title="elapsed">{formatDuration(elapsed)}</span>}
          <span title={card.cacheRead || card.cacheWrite ? `tokens in / out; of the input, ${card.cacheRead ?? 0} read from and ${card.cacheWrite ?? 0} written to the prompt cache` : 'tokens in / out'}>
            {formatTokens(card.tokensIn)} in · {formatTokens(card.tokensOut)} out
            {(card.cacheRead ?? 0) > 0 && ` (${formatTokens(card.cacheRead ?? 0)} cached)`}
          </span>
          {card.inspectable && card.taskId && (
            <button className="btn small" data-testid="subagent-open" onClick={() => void openSession(card.taskId)}>
              Open ↗
            </button>
          )}
        </span>
      </div>
      {card.error && !stopped && <div className={`subagent-error${atBudget || notStarted ? ' budget' : ''}`} data-testid="subagent-error">{card.error}</div>}
      {card.inspectable && card.taskId && !active && <AgentChangesRow childSessionId={card.taskId} agent={card.agentType} />}
      {card.worktree && <WorktreeRow taskId={card.taskId} worktree={card.worktree} />}
      {card.container && <ContainerRow container={card.container} />}
      {expanded && (
        <div className="subagent-body" data-testid="subagent-transcript">
          {childLoad && typeof childLoad === 'object' && <ErrorNote error={childLoad} />}
          <NestedTranscriptView sessionId={card.taskId} />
          {output && card.status !== 'running' && (
            <details className="subagent-result">
              <summary>Result returned to the parent</summary>
              <pre>{output}</pre>
            </details>
          )}
        </div>
      )}
    </div>
  )
})

/** A worktree child's branch and what it changed, with its actions (only while the worktree is kept). */
function WorktreeRow({ taskId, worktree }: { taskId: string; worktree: TaskWorktree }) {
  const [diff, setDiff] = useState<string | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  const [busy, setBusy] = useState(false)
  const run = async (action: 'diff' | 'remove' | 'open') => {
    setBusy(true)
    setError(null)
    const r = await worktreeAction(taskId, action)
    setBusy(false)
    if (r.error) return setError(r.error)
    if (action === 'diff') setDiff(r.diff ?? '')
    if (action === 'remove') setDiff(null)
  }
  const kept = worktree.state === 'kept'
  return (
    <div className="subagent-worktree" data-testid="subagent-worktree" data-state={worktree.state}>
      <span className="pill" title={worktree.path}>⎇ {worktree.branch}</span>
      <span className="muted small" data-testid="worktree-summary">
        {worktree.state === 'active' ? 'working in its own worktree' : worktree.state === 'removed' ? 'worktree removed' : worktree.diffStat}
      </span>
      {kept && (
        <span className="subagent-worktree-actions">
          <button className="btn small" disabled={busy} data-testid="worktree-open" onClick={() => void run('open')} title={worktree.path}>
            Open folder
          </button>
          <button className="btn small" disabled={busy} data-testid="worktree-diff" onClick={() => (diff === null ? void run('diff') : setDiff(null))}>
            {diff === null ? 'Show diff' : 'Hide diff'}
          </button>
          <button
            className="btn small"
            disabled={busy}
            data-testid="worktree-apply"
            title="Merge what it changed into the workspace (all or nothing; Revert takes it back)"
            onClick={() => {
              const sessionId = useTranscript.getState().rootId ?? useTranscript.getState().viewId
              if (sessionId) openRestore({ op: 'apply', sessionId, taskId, branch: worktree.branch })
            }}
          >
            Apply to workspace
          </button>
          <button className="btn small danger" disabled={busy} data-testid="worktree-remove" onClick={() => void run('remove')}>
            Remove worktree
          </button>
        </span>
      )}
      {error && <ErrorNote error={error} />}
      {diff !== null && (diff ? <DiffView unified={diff} testId="worktree-diff-view" /> : <div className="muted small">No changes.</div>)}
    </div>
  )
}

/** What the call asked for beyond the agent's defaults: its own model, turn cap, timeout, and cleanup. */
function TaskOptionPills({ card }: { card: TaskCard }) {
  const o = card.options
  if (!o) return null
  return (
    <>
      {o.model && <span className="pill" data-testid="subagent-model" title="model chosen by the call">{o.model}</span>}
      {o.maxTurns !== undefined && <span className="pill" title="max turns">≤{o.maxTurns} turns</span>}
      {o.timeoutSeconds !== undefined && <span className="pill" title="timeout">{formatDuration(o.timeoutSeconds * 1000)} limit</span>}
      {o.cleanup === 'delete' && <span className="pill" title="its session is archived when it ends">archive when done</span>}
    </>
  )
}

/** Before the host's first task_update the card is drawn from the call's own arguments. */
function fallbackCard(part: PartRecord): TaskCard {
  const input = toolInput(part)
  const str = (k: string): string => (typeof input[k] === 'string' ? (input[k] as string) : '')
  const card = newTaskCard({
    taskId: '',
    agentType: str('subagent_type') || 'subagent',
    description: str('description'),
    background: input.background === true,
    inspectable: false,
    depth: 1,
    status: part.toolState === 'output-error' ? 'failed' : part.toolState === 'output-available' ? 'completed' : 'queued',
  })
  // A call refused before it started has no card from the host: the refusal the model read is all there is to say.
  return part.toolState === 'output-error' ? { ...card, error: toolOutput(part) } : card
}
