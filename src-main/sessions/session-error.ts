import type { SessionRecord } from '../../src-shared'
import type { SessionsRepository } from '../store'

/** An expected failure of a session operation; the host's call fence answers it with the same code and message. */
export class RunnerError extends Error {
  override readonly name = 'RunnerError'
  constructor(
    readonly code: 'not_found' | 'conflict' | 'invalid_request',
    message: string,
  ) {
    super(message)
  }
}

/** The stored session, or the one `not_found` every caller gives (a session deleted while a client still shows it). */
export function requireSession(sessions: Pick<SessionsRepository, 'getSession'>, id: string): SessionRecord {
  const session = sessions.getSession(id)
  if (!session) throw new RunnerError('not_found', `No session ${id}. It may have been deleted; reload the session list.`)
  return session
}
