import { useMemo } from 'react'
import { openRestore, useChanges } from '../../state/changes-store'
import { filesOfAgent, plural } from '../../state/changes-view'
import { isRunning } from '../../state/session-status'
import { useTranscript } from '../../state/transcript-store'

const NAMED = 3

/**
 * Under a finished subagent's card, when it (or an agent it started) changed files still in place: which, and
 * "Revert changes" to take them back (plan, confirm).
 */
export function AgentChangesRow({ childSessionId, agent }: { childSessionId: string; agent: string }) {
  const sessionId = useChanges((s) => (s.agents.has(childSessionId) ? s.sessionId : null))
  const turns = useChanges((s) => s.turns)
  const files = useMemo(() => (sessionId ? filesOfAgent(turns, childSessionId) : []), [sessionId, turns, childSessionId])
  const busy = useTranscript((s) => (sessionId ? isRunning(s.transcripts[sessionId]?.status) || (s.queue[sessionId]?.length ?? 0) > 0 : true))
  if (!sessionId || files.length === 0) return null
  const named = files.slice(0, NAMED).join(', ') + (files.length > NAMED ? ` and ${files.length - NAMED} more` : '')
  return (
    <div className="subagent-changes" data-testid="subagent-changes">
      <span className="subagent-changes-text" title={files.join('\n')}>
        Changed {plural(files.length, 'file')}: <span className="mono">{named}</span>
      </span>
      <button
        type="button"
        className="btn small"
        data-testid="subagent-revert"
        aria-label={`Revert changes of ${agent} and the agents it started`}
        title="Revert this agent's changes"
        disabled={busy}
        onClick={() => openRestore({ op: 'revert', sessionId, agentSessionId: childSessionId, what: `what ${agent} (and any agent it started) changed: ${named}` })}
      >
        Revert changes
      </button>
    </div>
  )
}
