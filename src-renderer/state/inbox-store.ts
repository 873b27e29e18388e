import { useMemo } from 'react'
import { create } from 'zustand'
import type { ApprovalRecord, SessionRecord, SessionSummary } from '../../src-shared'
import { useApprovals } from './approvals-store'
import { inboxItems, type Conversation, type InboxItem } from './inbox'
import { useSessions } from './sessions-store'

type InboxStore = {
  /**
   * Root sessions of every workspace as the global feed announced them (created, renamed). The sessions store keeps
   * only the open workspace's, and an approval's own title is the one it was asked under.
   */
  conversations: Record<string, Conversation>
}

export const useInbox = create<InboxStore>(() => ({ conversations: {} }))

/** A session record from the global feed (any workspace): only conversations (roots) are kept. */
export function rememberConversation(rec: SessionRecord): void {
  if (rec.parentId !== null) return
  const prev = useInbox.getState().conversations[rec.id]
  if (prev && prev.title === rec.title && prev.workspaceRoot === rec.workspaceRoot) return
  useInbox.setState((s) => ({ conversations: { ...s.conversations, [rec.id]: { workspaceRoot: rec.workspaceRoot, title: rec.title } } }))
}

/** What is known of the conversations the pending approvals belong to (looked up per approval, not per session). */
export function knownConversations(
  pending: Record<string, ApprovalRecord>,
  sessions: Record<string, SessionSummary>,
  remembered: Record<string, Conversation>,
): Record<string, Conversation> {
  const out: Record<string, Conversation> = {}
  for (const a of Object.values(pending)) {
    const s = sessions[a.rootSessionId]
    const c = remembered[a.rootSessionId]
    // The open workspace's list is refreshed on open; an event may be newer. Take a non-empty title from either.
    if (s || c) out[a.rootSessionId] = { workspaceRoot: c?.workspaceRoot ?? s?.workspaceRoot ?? '', title: c?.title || s?.title || '' }
  }
  return out
}

export function useInboxItems(): InboxItem[] {
  const pending = useApprovals((s) => s.pending)
  const sessions = useSessions((s) => s.byId)
  const remembered = useInbox((s) => s.conversations)
  return useMemo(() => inboxItems(pending, knownConversations(pending, sessions, remembered)), [pending, sessions, remembered])
}

/** The badge and window title count: every pending decision, everywhere. */
export function useInboxCount(): number {
  return useApprovals((s) => Object.keys(s.pending).length)
}

/** A conversation's title and workspace, from whatever told us last (a notification says which one finished). */
export function conversationOf(rootSessionId: string): Conversation | null {
  const c = useInbox.getState().conversations[rootSessionId]
  const s = useSessions.getState().byId[rootSessionId]
  if (!c && !s) return null
  return { workspaceRoot: c?.workspaceRoot ?? s?.workspaceRoot ?? '', title: c?.title || s?.title || '' }
}
