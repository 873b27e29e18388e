import type { MessageWithParts, SessionRecord } from '../../src-shared'
import { lastPersonMessage, type Transcript } from './transcript-model'
import { useAgents } from './agents-store'
import { useSessions } from './sessions-store'
import { useTranscript } from './transcript-store'

/** The agent a session's last message went to: a per-message override, else the session's own agent. */
export function lastAgentOf(t: Transcript | undefined): string | null {
  if (!t) return null
  for (let i = t.messageIds.length - 1; i >= 0; i--) {
    const m: MessageWithParts | undefined = t.messages.get(t.messageIds[i])
    if (m?.role !== 'user' || m.metadata.synthetic === true) continue
    return typeof m.metadata.agent === 'string' ? m.metadata.agent : null
  }
  return null
}

/**
 * The agent the host switched the session to (an approved plan_exit: `build`), when that happened after the
 * person's last message — so it beats the agent that message went to.
 */
export function switchedAgentOf(session: Pick<SessionRecord, 'metadata'> | undefined, t: Transcript | undefined): string | null {
  const active = session?.metadata.activeAgent
  if (typeof active !== 'string') return null
  const since = session?.metadata.activeAgentSince
  const lastAt = lastPersonMessage(t)?.createdAt
  return typeof since !== 'number' || lastAt === undefined || since >= lastAt ? active : null
}

/**
 * The agent chip follows the session on screen (a root or an inspectable child): what the person picked there,
 * else the agent the host switched it to since the last message (plan → build), else the agent its last message
 * went to, else the session's agent. With no session open: the workspace default.
 */
export function useChipAgent(): string | null {
  const viewId = useTranscript((s) => s.viewId)
  const picked = useAgents((s) => (viewId ? s.perSession[viewId] : undefined))
  const fallback = useAgents((s) => s.selected)
  const last = useTranscript((s) => (viewId ? lastAgentOf(s.transcripts[viewId]) : null))
  const session = useSessions((s) => (viewId ? s.byId[viewId] : undefined))
  const fetched = useTranscript((s) => (viewId && s.viewSession?.id === viewId ? s.viewSession : undefined))
  const switched = useTranscript((s) => (viewId ? switchedAgentOf(session ?? fetched, s.transcripts[viewId]) : null))
  if (!viewId) return fallback
  return picked ?? switched ?? last ?? session?.agent ?? fetched?.agent ?? fallback
}

/** The same, read once (for sending). */
export function chipAgentNow(): string | null {
  const { viewId, transcripts, viewSession } = useTranscript.getState()
  const { perSession, selected } = useAgents.getState()
  if (!viewId) return selected
  const session = useSessions.getState().byId[viewId] ?? (viewSession?.id === viewId ? viewSession : undefined)
  return perSession[viewId] ?? switchedAgentOf(session, transcripts[viewId]) ?? lastAgentOf(transcripts[viewId]) ?? session?.agent ?? selected
}
