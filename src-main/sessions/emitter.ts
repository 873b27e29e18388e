import type { AgentEvent, SessionRecord } from '../../src-shared'
import type { EventHub } from '../events'
import type { SessionsRepository } from '../store'

/** A session's ancestors, root first (empty for a root session). */
export function ancestorsOf(sessions: Pick<SessionsRepository, 'getSession'>, session: SessionRecord): SessionRecord[] {
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

export interface Emitter {
  /** the root's stream, where every event of the session goes */
  stream: string
  /** the session's stored ancestors, root first */
  ancestors: SessionRecord[]
  emit(event: AgentEvent): void
}

/**
 * Events of any session go to its root's stream. A child session's events are wrapped once per ancestor in
 * `subagent_event`, exactly as they are while the child runs inside its parent's task call.
 */
export function emitterFor(hub: EventHub, sessions: Pick<SessionsRepository, 'getSession'>, session: SessionRecord): Emitter {
  const ancestors = ancestorsOf(sessions, session)
  const stream = ancestors[0]?.id ?? session.id
  const path = [...ancestors.slice(1), session]
  return {
    stream,
    ancestors,
    emit(event) {
      let wrapped = event
      for (let i = path.length - 1; i >= 0 && ancestors.length > 0; i--) {
        wrapped = { type: 'subagent_event', sessionId: path[i].id, at: event.at, agentType: path[i].agent, event: wrapped }
      }
      hub.publish(stream, wrapped)
    },
  }
}

/**
 * One emitter per session, made once: a session's ancestry never changes (its parent is set when it is created), so
 * its events need not walk it again each time.
 */
export class Emitters {
  private readonly cache = new Map<string, Emitter>()

  constructor(
    private readonly hub: EventHub,
    private readonly sessions: Pick<SessionsRepository, 'getSession'>,
  ) {}

  of(session: SessionRecord): Emitter {
    let e = this.cache.get(session.id)
    if (!e) {
      if (this.cache.size > 5000) this.cache.clear()
      this.cache.set(session.id, (e = emitterFor(this.hub, this.sessions, session)))
    }
    return e
  }

  forget(ids: readonly string[]): void {
    for (const id of ids) this.cache.delete(id)
  }
}
