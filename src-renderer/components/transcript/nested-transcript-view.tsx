import { useTranscript } from '../../state/transcript-store'
import { MessageView } from './message-view'

/** A child's transcript drawn inside its parent's card (not virtualized: it lives inside one row). */
export function NestedTranscriptView({ sessionId }: { sessionId: string }) {
  const ids = useTranscript((s) => s.transcripts[sessionId]?.messageIds)
  if (!sessionId || !ids) return <div className="muted small pad">Waiting for the subagent to start…</div>
  if (ids.length === 0) return <div className="muted small pad">No messages yet.</div>
  return (
    <div className="nested-transcript">
      {ids.map((id) => (
        <MessageView key={id} sessionId={sessionId} messageId={id} nested />
      ))}
    </div>
  )
}
