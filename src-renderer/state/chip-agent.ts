import type { MessageView, Transcript } from './transcript-model'
import { useAgents } from './agents-store'
import { useSessions } from './sessions-store'
import { useTranscript } from './transcript-store'

/** The agent a session's last message went to: a per-message override, else the session's own agent. */
export function lastAgentOf(t: Transcript | undefined): string | null {
  if (!t) return null
  for (let i = t.messageIds.length - 1; i >= 0; i--) {
    const m: MessageView | undefined = t.messages.get(t.messageIds[i])
    if (m?.role !== 'user' || m.metadata.synthetic === true) continue
    return typeof m.metadata.agent === 'string' ? m.metadata.agent : null
  }
  return null
}

/**
 * The agent chip follows the session on screen (a root or an inspectable child): what the person picked there,
 * else the agent its last message went to, else the session's agent. With no session open: the workspace default.
 */
export function useChipAgent(): string | null {
  const viewId = useTranscript((s) => s.viewId)
  const picked = useAgents((s) => (viewId ? s.perSession[viewId] : undefined))
  const fallback = useAgents((s) => s.selected)
  const last = useTranscript((s) => (viewId ? lastAgentOf(s.transcripts[viewId]) : null))
  const listed = useSessions((s) => (viewId ? s.byId[viewId]?.agent : undefined))
  const fetched = useTranscript((s) => (viewId && s.viewSession?.id === viewId ? s.viewSession.agent : undefined))
  if (!viewId) return fallback
  return picked ?? last ?? listed ?? fetched ?? fallback
}

/** The same, read once (for sending). */
export function chipAgentNow(): string | null {
  const { viewId, transcripts, viewSession } = useTranscript.getState()
  const { perSession, selected } = useAgents.getState()
  if (!viewId) return selected
  return perSession[viewId] ?? lastAgentOf(transcripts[viewId]) ?? useSessions.getState().byId[viewId]?.agent ?? (viewSession?.id === viewId ? viewSession.agent : null) ?? selected
}
