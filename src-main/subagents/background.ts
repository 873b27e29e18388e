import type { BackgroundNotice } from '../../src-shared'
import { afterStep, appendTextMessage } from '../loop'
import type { RunLevel } from '../runtime'
import type { SessionsRepository } from '../store'
import type { ChildOutcome } from './child-run'

/** The final text by which a background child declines to announce its result. */
export const ANNOUNCE_SKIP = 'ANNOUNCE_SKIP'

/**
 * A background child ended: its result goes into the parent's conversation as a notice (stored between the parent's
 * model steps, never in the middle of one: loop/step-gate.ts), and a stored parent is woken to react — unless the
 * child had nothing to tell (exactly ANNOUNCE_SKIP: no message, no wake-up; its answer stays in its own transcript),
 * or the person's Stop or the host stopping caused the result (stored for the record; it starts nothing).
 */
export async function deliverBackground(sessions: Pick<SessionsRepository, 'getSession'>, parent: RunLevel, outcome: ChildOutcome, task: Omit<BackgroundNotice, 'outcome'>): Promise<void> {
  if (outcome.ok && outcome.finalText.trim() === ANNOUNCE_SKIP) return
  // The notice the model reads is built from this record (loop/prompt.ts): which task, and how it ended.
  const notice: BackgroundNotice = { ...task, outcome: outcome.ok ? (outcome.incomplete ? 'incomplete' : 'completed') : outcome.aborted ? 'stopped' : 'failed' }
  if (outcome.aborted && outcome.cause.byUser) notice.stoppedByUser = true
  await afterStep(parent.transcript, () => appendTextMessage(parent.transcript, parent.emit, 'assistant', outcome.text, { synthetic: true, agent: parent.agent.name, task: notice }))
  const cause = outcome.aborted ? outcome.cause : undefined
  if (cause?.byUser || cause?.hostStopping) return
  // A stored parent (the root, an inspectable child) can take a turn of its own to react; an opaque one cannot.
  if (sessions.getSession(parent.sessionId)) parent.background.backgroundDone(parent.sessionId)
}
