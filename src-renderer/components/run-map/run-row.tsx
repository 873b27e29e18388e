import { memo } from 'react'
import { formatUsd, type AgentListEntry, type RunNode } from '../../../src-shared'
import { formatDuration, formatTokens } from '../../lib/format'
import { agentColor } from '../../state/agents-store'
import type { RunRow } from '../../state/run-map-rows'
import { showRunNode, stopRunBranch } from '../../state/run-map-actions'
import { toggleRunCollapsed } from '../../state/run-map-store'
import { notify } from '../../state/ui-store'
import { BudgetPill } from '../transcript/budget-pill'
import { CallCounts } from '../transcript/outcome-marks'
import { StatusIcon } from '../transcript/tool-card'
import { RunMessageBox } from './run-message-box'

/** The row's fields one by one: a fresh RunRow object per frame must not re-render a row whose node did not change. */
type Props = RunRow & {
  agent: AgentListEntry | undefined
  /** pending approvals of this node */
  waiting: number
  /** the clock for a running node's elapsed time (0 for others, so a tick re-renders only running rows) */
  now: number
  /** its transcript is the one beside the map */
  selected: boolean
  /** the tree's one Tab stop (roving tabindex) */
  current: boolean
  messaging: boolean
  /** stable across renders (rows are memoized) */
  setMessaging: (id: string | null) => void
}

/** One agent of the run map: what it is, how it is doing, what it spent; Open, Message and Stop on hover or focus. */
export const RunRowView = memo(function RunRowView({ node: n, level, hasChildren, collapsed, pos, siblings, agent, waiting, now, selected, current, messaging, setMessaging }: Props) {
  const running = n.status === 'running'
  const atBudget = !running && n.status !== 'queued' && n.budget?.reached !== undefined
  // The person's Stop (of this branch or one above it): grey "stopped by you", not a red "aborted".
  const stopped = n.status === 'aborted' && n.stoppedByUser === true
  const word = atBudget ? 'stopped at budget' : stopped ? 'stopped by you' : running && waiting > 0 ? 'waiting on you' : n.status
  // Running: the clock ticks once a second (a run that started since the last tick reads 0, not a negative time).
  // An idle root has no time of its own to show.
  const elapsed = n.startedAt === null ? null : n.endedAt !== null ? n.endedAt - n.startedAt : running && now ? Math.max(0, now - n.startedAt) : null
  const inner = current ? 0 : -1
  const isChild = n.parentId !== null

  return (
    <div
      className={`run-row${selected ? ' selected' : ''}${waiting > 0 ? ' waiting' : ''}`}
      style={{ paddingLeft: 6 + Math.min(level, 8) * 14, ['--agent-color' as string]: agentColor(n.agentType, agent) }}
      role="treeitem"
      aria-level={level + 1}
      aria-expanded={hasChildren ? !collapsed : undefined}
      aria-selected={selected}
      aria-posinset={pos}
      aria-setsize={siblings}
      tabIndex={current ? 0 : -1}
      data-testid="run-node"
      data-node-id={n.id}
      data-status={n.status}
      data-stopped={stopped ? 'user' : undefined}
      data-depth={level}
      data-agent={n.agentType}
      data-waiting={waiting > 0 ? waiting : undefined}
      onClick={() => showRunNode(n)}
    >
      <div className="run-line">
        {hasChildren ? (
          <button
            className="tree-toggle"
            tabIndex={-1}
            aria-hidden
            onClick={(e) => {
              e.stopPropagation()
              toggleRunCollapsed(n.id)
            }}
          >
            {collapsed ? '▸' : '▾'}
          </button>
        ) : (
          <span className="tree-toggle placeholder" />
        )}
        <RunStatusIcon node={n} atBudget={atBudget} stopped={stopped} />
        <span className="agent-dot" style={{ background: 'var(--agent-color)' }} />
        <span className="run-agent">{n.agentType}</span>
        <span className="run-label" title={n.label}>{n.label || 'Untitled'}</span>
        {waiting > 0 && (
          <span className="badge waiting" data-testid="run-node-waiting" title={`${waiting} approval${waiting === 1 ? '' : 's'} waiting for you`}>
            ⚑ {waiting}
          </span>
        )}
        <span className="run-actions">
          {running && (
            <button className="btn small" tabIndex={inner} data-testid="run-node-message" aria-label={`Message ${n.agentType} while it runs`} onClick={(e) => (e.stopPropagation(), setMessaging(messaging ? null : n.id))}>
              Message
            </button>
          )}
          {running && isChild && (
            <button
              className="btn small danger"
              tabIndex={inner}
              data-testid="run-node-stop"
              aria-label="Stop this branch"
              title={`Stop this branch: ${n.agentType} and every agent it started stop now; its caller reads it as stopped and goes on`}
              onClick={async (e) => {
                e.stopPropagation()
                const err = await stopRunBranch(n.id)
                if (err) notify(err)
              }}
            >
              Stop
            </button>
          )}
          <button className="btn small" tabIndex={inner} data-testid="run-node-open" aria-label={`Open ${n.agentType}'s transcript`} onClick={(e) => (e.stopPropagation(), showRunNode(n))}>
            Open
          </button>
        </span>
      </div>
      <div className="run-meta">
        <span className={`run-status status-${atBudget ? 'budget' : stopped ? 'stopped' : running && waiting > 0 ? 'waiting' : n.status}`} data-testid="run-node-status">{word}</span>
        <CallCounts counts={n.toolCalls} testId="run-node-calls" />
        {n.where?.container && (
          <span className="run-where" data-testid="run-node-container" title={`runs its commands in its own container (${n.where.container})`}>
            container
          </span>
        )}
        {n.where?.worktree && (
          <span className="run-where" data-testid="run-node-worktree" title={`works in its own worktree, branch ${n.where.worktree}`}>
            ⎇ worktree
          </span>
        )}
        {elapsed !== null && <span title="elapsed">{formatDuration(elapsed)}</span>}
        {n.tokensIn + n.tokensOut > 0 && <span title="tokens read (prompt) · written (answer)">{formatTokens(n.tokensIn)} in · {formatTokens(n.tokensOut)} out</span>}
        {n.costUsd !== null && n.costUsd > 0 && !n.budget?.limit.costUsd && <span title="cost">{formatUsd(n.costUsd)}</span>}
        {n.currentTool && running && (
          <span className="run-tool" data-testid="run-node-tool" title="the tool it is running now">
            ⚙ {n.currentTool}
          </span>
        )}
        {n.budget && <BudgetPill view={n.budget} testId="run-node-budget" label={`Budget of ${n.agentType}`} sayReached={!atBudget} />}
      </div>
      {messaging && <RunMessageBox node={n} onClose={() => setMessaging(null)} />}
    </div>
  )
})

/**
 * The cards' icons, plus a root between turns (idle) which has no card status. A running node's ring stands still:
 * dozens of spinning rings in one panel are noise to the eye and a repaint every frame (the word and the clock move).
 */
function RunStatusIcon({ node, atBudget, stopped }: { node: RunNode; atBudget: boolean; stopped: boolean }) {
  if (node.status === 'idle') return <span className="status-icon muted" role="img" aria-label="idle">○</span>
  if (node.status === 'running') return <span className="spinner still" role="img" aria-label="running" />
  return <StatusIcon state={atBudget ? 'budget' : stopped ? 'stopped' : node.status} />
}
