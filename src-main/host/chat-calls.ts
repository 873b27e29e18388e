import { HostError, type HostCalls } from '../../src-shared'
import { parseModelRef } from '../models'
import { emitterFor, requireSession } from '../sessions'
import type { CallDeps } from './calls'

type ChatCallNames = 'sessions.setModel' | 'sessions.search' | 'messages.retry' | 'messages.edit' | 'messages.version'

/** The everyday-chat calls: switch a session's model, search messages, retry/regenerate, edit a sent message and switch its versions. */
export function chatCalls(d: CallDeps): Pick<HostCalls, ChatCallNames> {
  const queued = (r: { entry: { id: string }; duplicate: boolean; queued: boolean }) => ({ queueId: r.entry.id, duplicate: r.duplicate, queued: r.queued })

  return {
    'sessions.setModel': async ({ sessionId, model }) => {
      const session = requireSession(d.sessions, sessionId)
      let ref
      try {
        ref = parseModelRef(model.trim())
      } catch (err) {
        throw new HostError('config_error', (err as Error).message, { fields: { model: 'Write it as provider/model, e.g. anthropic/claude-sonnet-4-5.' } })
      }
      // Refused now, with the reason, rather than at the next turn.
      try {
        d.checkModel(ref, session.agent, session.workspaceRoot)
      } catch (err) {
        throw new HostError('config_error', (err as Error).message, { fields: { model: (err as Error).message } })
      }
      const updated = d.sessions.updateSession(sessionId, { model: ref })
      emitterFor(d.hub, d.sessions, updated).emit({ type: 'session_updated', sessionId, at: Date.now(), session: updated })
      return { session: updated }
    },
    'sessions.search': async ({ workspaceRoot, query, includeArchived, limit }) => ({
      hits: d.search.searchMessages({ query, workspaceRoot, includeArchived, limit }),
    }),
    'messages.retry': async (input) => queued(d.runner.retry(input)),
    'messages.edit': async (input) => queued(d.runner.edit(input)),
    'messages.version': async (input) => d.runner.version(input),
  }
}
