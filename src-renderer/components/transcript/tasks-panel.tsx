import { useMemo, useState } from 'react'
import { agentColor, useAgents } from '../../state/agents-store'
import type { UiError } from '../../state/ui-error'
import { abortTask, openSession } from '../../state/session-actions'
import { toggleExpanded, useTranscript } from '../../state/transcript-store'
import { useUi } from '../../state/ui-store'
import { ErrorNote } from '../common/error-note'
import { BudgetPill } from './budget-pill'
import { CallCounts, StoppedPill } from './outcome-marks'
import { StatusIcon } from './tool-card'

/** Background children of the open root: status at a glance, open, abort. */
export function TasksPanel() {
  const tasks = useTranscript((s) => s.tasks)
  const expanded = useTranscript((s) => s.expanded)
  const byName = useAgents((s) => s.byName)
  const rootId = useTranscript((s) => s.rootId)
  const closed = useUi((s) => s.tasksClosedFor !== null && s.tasksClosedFor === rootId)
  const [error, setError] = useState<UiError | null>(null)
  const list = useMemo(() => Object.values(tasks).sort((a, b) => b.createdAt - a.createdAt), [tasks])
  if (list.length === 0 || closed) return null
  return (
    <section className="tasks-panel" data-testid="tasks-panel" aria-labelledby="tasks-title">
      <div className="panel-head">
        <h2 id="tasks-title" className="panel-title">Background tasks</h2>
        <button className="icon-btn" data-testid="tasks-close" aria-label="Close the tasks panel" title="Close (reopen from the session header)" onClick={() => useUi.setState({ tasksClosedFor: rootId })}>
          ×
        </button>
      </div>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
      {list.map((t) => {
        const running = t.status === 'running' || t.status === 'queued'
        const atBudget = !running && t.budget?.reached !== undefined
        const stopped = t.status === 'aborted' && t.stoppedByUser === true
        return (
          <div key={t.taskId} className="task-row" data-testid="task-row" data-status={t.status} data-stopped={stopped ? 'user' : undefined} data-task-id={t.taskId}>
            <StatusIcon state={atBudget ? 'budget' : stopped ? 'stopped' : t.status} />
            <span className="agent-dot" style={{ background: agentColor(t.agentType, byName[t.agentType]) }} />
            <span className="task-text">
              <span className="task-agent">{t.agentType}</span> <span className="muted">{t.description}</span>
            </span>
            {t.budget && <BudgetPill view={t.budget} testId="task-budget" label={`Budget of ${t.agentType}`} sayReached={!atBudget} />}
            {/* stopped by the budget the person set: a normal end, not a red "failed" */}
            {atBudget ? (
              <span className="pill status-budget">stopped at budget</span>
            ) : stopped ? (
              <StoppedPill testId="task-status" />
            ) : (
              <span className={`pill status-${t.status}`} data-testid="task-status">{t.status}</span>
            )}
            <CallCounts counts={t.toolCalls} testId="task-calls" />
            <button
              className="btn small"
              data-testid="task-open"
              onClick={() => (t.inspectable ? void openSession(t.taskId) : !expanded[t.taskId] && toggleExpanded(t.taskId))}
            >
              Open
            </button>
            {running && (
              <button className="btn small danger" data-testid="task-abort" onClick={async () => setError(await abortTask(t.taskId))}>
                Abort
              </button>
            )}
          </div>
        )
      })}
    </section>
  )
}
