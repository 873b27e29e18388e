import type { AgentEvent, SessionRecord } from '../../src-shared'
import type { RunRegistry } from '../runtime'
import type { SessionRunner } from '../sessions'
import type { SessionsRepository } from '../store'

/**
 * Messages sent to a run that ended before its next step (issue 26) must reach someone. An agent's (sessions_send)
 * becomes a turn on that session, as the tool's result promised, when the run ended by itself; otherwise — the
 * person's, or any after a Stop or a host shutdown — it comes back whole as `message_returned` on the conversation's
 * stream. Returns the disposer.
 */
export function returnUnreadMessages(d: {
  runs: Pick<RunRegistry, 'onReturned'>
  sessions: Pick<SessionsRepository, 'getSession'>
  runner: Pick<SessionRunner, 'prompt'>
  publish(session: SessionRecord | undefined, event: AgentEvent): void
  fault(where: string, err: unknown): void
}): () => void {
  const off = d.runs.onReturned((record, unread) => {
    const stopped = record.controller.signal.aborted
    const who = record.label ?? record.agentType
    for (const m of unread) {
      try {
        if (m.from === 'agent' && !stopped && d.sessions.getSession(record.sessionId)) {
          d.runner.prompt({ sessionId: record.sessionId, text: m.text })
          continue
        }
      } catch (err) {
        // The session cannot take a turn now (being deleted, say): the message goes back instead.
        d.fault('a message for a run that had ended', err)
      }
      d.publish(d.sessions.getSession(record.path[0] ?? record.sessionId), {
        type: 'message_returned',
        sessionId: record.sessionId,
        at: Date.now(),
        text: m.text,
        reason: `${who} ${stopped ? 'was stopped' : 'finished'} before its next step, so it never read this message.`,
      })
    }
  })
  return () => void off()
}
