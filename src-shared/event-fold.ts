import type { AgentEvent, LeafEvent } from './events'

/**
 * An event as it happened, out of its `subagent_event` envelopes: the leaf event, and where in the run tree it
 * happened — the child sessions and their agents from the subscribed session down to the leaf's (empty for the
 * subscribed session's own events).
 */
export interface FoldedEvent {
  leaf: LeafEvent
  /** child session ids, outermost first */
  sessions: string[]
  /** their agent types, outermost first */
  agents: string[]
  /** how many subagent levels below the subscribed session (sessions.length) */
  depth: number
}

/**
 * The one fold of the event stream into the tree of leaves: every client (the renderer, ACP, the CLI, the
 * notifications) reads events through it, so a new event kind is a change here plus the views that show it.
 */
export function foldEvent(event: AgentEvent): FoldedEvent {
  const sessions: string[] = []
  const agents: string[] = []
  let e = event
  while (e.type === 'subagent_event') {
    sessions.push(e.sessionId)
    agents.push(e.agentType)
    e = e.event
  }
  return { leaf: e, sessions, agents, depth: sessions.length }
}
