import type { SessionStatus } from '../../src-shared'

/** Statuses in which a session is running a turn (Stop applies; retry, edit and regenerate wait). */
const RUNNING: ReadonlySet<string> = new Set<SessionStatus>(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])

export const isRunning = (status: string | null | undefined): boolean => status != null && RUNNING.has(status)
