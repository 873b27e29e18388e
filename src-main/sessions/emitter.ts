import type { AgentEvent, SessionRecord } from '../../src-shared'
import type { EventHub } from '../events'
import type { SessionsRepository } from '../store'

/** A session's ancestors, root first (empty for a root session). */
export function ancestorsOf(sessions: SessionsRepository, session: SessionRecord): SessionRecord[] {
  const chain: SessionRecord[] = []
  let parentId = session.parentId
  while (parentId) {
    const parent = sessions.getSession(parentId)
    if (!parent) break
    chain.unshift(parent)
    parentId = parent.parentId
  }
  return chain
}

/**
 * Events of any session go to its root's stream. A child session's events are wrapped once per ancestor in
 * `subagent_event`, exactly as they are while the child runs inside its parent's task call.
 */
export function emitterFor(hub: EventHub, sessions: SessionsRepository, session: SessionRecord): { stream: string; emit(e: AgentEvent): void } {
  const ancestors = ancestorsOf(sessions, session)
  const stream = ancestors[0]?.id ?? session.id
  const path = [...ancestors.slice(1), session]
  return {
    stream,
    emit(event) {
      let wrapped = event
      for (let i = path.length - 1; i >= 0 && ancestors.length > 0; i--) {
        wrapped = { type: 'subagent_event', sessionId: path[i].id, at: event.at, agentType: path[i].agent, event: wrapped }
      }
      hub.publish(stream, wrapped)
    },
  }
}
