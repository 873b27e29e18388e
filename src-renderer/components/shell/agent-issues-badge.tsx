import { useEffect } from 'react'
import { agentIssueCount, useAgents } from '../../state/agents-store'
import { openSettings } from '../../state/ui-store'
import { loadAgents } from '../../state/workspace-actions'

/**
 * On the main screen: agent files that did not load, or loaded with warnings (or sit in a shadowed folder), so a
 * problem is seen without opening Settings. Clicking opens Settings at the agents list.
 */
export function AgentIssuesBadge() {
  const agents = useAgents((s) => s.agents)
  const errors = useAgents((s) => s.errors)
  const folders = useAgents((s) => s.folders)
  const count = agentIssueCount({ agents, errors, folders })
  // Agent files are edited in other programs: look again when the person comes back to the window.
  useEffect(() => {
    const refresh = () => void loadAgents()
    window.addEventListener('focus', refresh)
    return () => window.removeEventListener('focus', refresh)
  }, [])
  if (count.errors === 0 && count.warnings === 0) return null
  const parts = [
    count.errors ? `${count.errors} agent file${count.errors === 1 ? '' : 's'} not loaded` : '',
    count.warnings ? `${count.warnings} with warnings` : '',
  ].filter(Boolean)
  return (
    <button
      className={`btn ghost agent-issues ${count.errors ? 'has-errors' : ''}`}
      data-testid="agent-issues-badge"
      title="Open Settings › Agents"
      onClick={() => openSettings('agents')}
    >
      ⚠ {parts.join(', ')}
    </button>
  )
}
