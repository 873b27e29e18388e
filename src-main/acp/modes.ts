import type { SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk/unstable'
import type { AgentListEntry, MessageWithParts, ModelRef, SessionRecord } from '../../src-shared'

/**
 * Agentry's primary agents as ACP session modes (`plan`, `build`, …): picking one runs the next prompts with that
 * agent, as the agent picker does in the app. The session's model is shown as its model selector.
 */
export function pickableAgents(agents: AgentListEntry[]): AgentListEntry[] {
  return agents.filter((a) => a.mode !== 'subagent' && !a.hidden)
}

export function modeState(agents: AgentListEntry[], current: string): SessionModeState {
  const modes = pickableAgents(agents).map((a) => ({ id: a.name, name: a.displayName ?? a.name, description: a.description }))
  if (!modes.some((m) => m.id === current)) modes.unshift({ id: current, name: current, description: 'the agent this session runs' })
  return { currentModeId: current, availableModes: modes }
}

/**
 * The agent a loaded session's next prompt runs: the one its last message went to, unless a plan approved after that
 * message switched the session (`plan_exit` → build, kept as `activeAgent`).
 */
export function currentAgent(session: SessionRecord, messages: MessageWithParts[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]
    if (m.role === 'user' && !m.metadata.synthetic) return typeof m.metadata.agent === 'string' ? m.metadata.agent : session.agent
    const approvedPlan = m.parts.some((p) => p.type === 'tool-plan_exit' && p.toolState === 'output-available')
    if (approvedPlan && typeof session.metadata.activeAgent === 'string') return session.metadata.activeAgent
  }
  return typeof session.metadata.activeAgent === 'string' ? session.metadata.activeAgent : session.agent
}

export const MODEL_OPTION = 'model'

export function modelRefText(ref: ModelRef | null): string {
  return ref ? `${ref.provider}/${ref.model}` : 'default'
}

/** The session's model as a selector. Only its own model is offered: the host has no call to switch a session's model. */
export function configOptions(model: ModelRef | null): SessionConfigOption[] {
  const current = modelRefText(model)
  return [
    {
      id: MODEL_OPTION,
      name: 'Model',
      description: 'The model this session runs on (chosen when it was created).',
      category: 'model',
      type: 'select',
      currentValue: current,
      options: [{ value: current, name: current }],
    },
  ]
}
