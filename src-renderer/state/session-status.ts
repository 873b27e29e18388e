import type { SessionStatus } from '../../src-shared'

// One definition of "running" for the app and the shared notification policy.
export { isRunningStatus as isRunning } from '../../src-shared'


/** A session's status in the person's words (the stored names are the host's: idle, busy, waiting_on_approval…). */
const LABEL: Record<SessionStatus, string> = {
  idle: 'ready',
  busy: 'working',
  retrying: 'retrying',
  waiting_on_approval: 'needs your OK',
  waiting_on_user: 'needs your answer',
  error: 'failed',
  aborted: 'stopped',
}

export function statusLabel(status: SessionStatus | 'stopped'): string {
  return status === 'stopped' ? 'stopped' : (LABEL[status] ?? String(status).replaceAll('_', ' '))
}
