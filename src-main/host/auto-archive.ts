import type { SessionsRepository } from '../store'

const CHECK_EVERY_MS = 60_000

/**
 * Finished subagent sessions are archived `archiveAfterMinutes` after their last activity (0 = never), so
 * inspectable children do not pile up in the session list. Archived rows stay; the archived toggle shows them.
 */
export function startAutoArchive(sessions: Pick<SessionsRepository, 'archiveFinishedChildren'>, minutes: () => number, onArchived: (ids: string[]) => void): () => void {
  const sweep = () => {
    const m = minutes()
    if (m <= 0) return
    const ids = sessions.archiveFinishedChildren(Date.now() - m * 60_000)
    if (ids.length) onArchived(ids)
  }
  sweep()
  const timer = setInterval(sweep, CHECK_EVERY_MS)
  timer.unref()
  return () => clearInterval(timer)
}
