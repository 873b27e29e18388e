import type { SessionUpdate, StateUpdate, SubagentUpdate } from '@agentclientprotocol/sdk/unstable'
import type { MessageRecord, TaskStatus } from '../../src-shared'
import type { TaskCardSummary } from './task-view'
import { textChunk } from './view'

/**
 * A subagent as an ACP child session (the Subagent Sessions RFD, ACP v1 with `clientCapabilities.subagents`): what
 * its parent says of it in `subagent_update` (title, description, where it works, its current work state) and how a
 * message sent to it reads in its own session. Pure: the session keeps what was sent and asks for the difference.
 */

export type FinishReason = 'stop' | 'max_steps' | 'aborted' | 'error' | 'budget'

/** What is known of a child's current work: its card's status, how its last turn ended, the approvals it waits on. */
export interface ChildWork {
  status?: TaskStatus
  /** its turn's own end (turn_complete), more precise than the card's status */
  finish?: FinishReason
  error?: string | null
  /** approvals of its own that wait on the person */
  asking: number
  card?: TaskCardSummary
}

/** The fields of `subagent_update` this agent keeps current (others are never sent). */
export interface ChildShown {
  title: string
  description?: string
  cwd?: string
  state?: StateUpdate
}

/** `Explore the repo · explore`: the task's label (else its description), then the agent that runs it. */
export function childTitle(card: Pick<TaskCardSummary, 'description' | 'agentType' | 'options' | 'fork'>): string {
  const name = (card.options?.label ?? card.description).trim()
  const agent = card.fork ? `${card.agentType} (fork)` : card.agentType
  return name ? `${name} · ${agent}` : agent
}

/** The state a child is in now; undefined while it waits for a slot (not started: nothing to confirm yet). */
export function childState(w: ChildWork): StateUpdate | undefined {
  if (!w.status || w.status === 'queued') return undefined
  if (w.status === 'running') return w.asking > 0 ? { state: 'requires_action' } : { state: 'running' }
  return idleState(w)
}

/**
 * A child that ended is idle (the RFD has no "stopped": the parent may message it again), with why. Its turn's own
 * end says it best; a child stopped before its turn began (aborted in the queue) has only its card. A budget stop is
 * a limit on its requests, as the root's prompt reports it.
 */
function idleState(w: ChildWork): StateUpdate {
  const reason = w.finish ?? (w.status === 'completed' ? 'stop' : w.status === 'aborted' ? 'aborted' : 'error')
  const usage = w.card && {
    inputTokens: w.card.tokensIn,
    outputTokens: w.card.tokensOut,
    totalTokens: w.card.tokensIn + w.card.tokensOut,
    ...(w.card.cacheRead ? { cachedReadTokens: w.card.cacheRead } : {}),
    ...(w.card.cacheWrite ? { cachedWriteTokens: w.card.cacheWrite } : {}),
  }
  const withUsage = usage ? { usage } : {}
  switch (reason) {
    case 'stop':
      return { state: 'idle', stopReason: 'end_turn', ...withUsage }
    case 'max_steps':
    case 'budget':
      return { state: 'idle', stopReason: 'max_turn_requests', ...withUsage }
    case 'aborted':
      return { state: 'idle', stopReason: 'cancelled', ...withUsage }
    default:
      return { state: 'idle', stopReason: 'error', error: { code: -32603, message: w.error || 'The subagent failed.' }, ...withUsage }
  }
}

/** What the parent shows of a child now. */
export function childShown(card: TaskCardSummary | undefined, agentType: string, w: ChildWork): ChildShown {
  const shown: ChildShown = card ? { title: childTitle(card), description: card.description } : { title: agentType }
  // A child in a worktree of its own works there (isolation: worktree); otherwise where its parent works.
  if (card?.worktree && card.worktree.state !== 'removed') shown.cwd = card.worktree.path
  const state = childState(w)
  if (state) shown.state = state
  return shown
}

/**
 * The `subagent_update` that brings the client from `sent` to `now`: only changed fields (the update patches), the
 * whole set on the first one (it announces the child, with the one mutation a client may make: cancel its work).
 * Undefined when nothing changed.
 */
export function subagentPatch(childId: string, sent: ChildShown | undefined, now: ChildShown): SessionUpdate | undefined {
  const patch: SubagentUpdate = { sessionId: childId }
  if (!sent) patch.capabilities = { cancel: {} }
  if (now.title !== sent?.title) patch.title = now.title
  if (now.description !== undefined && now.description !== sent?.description) patch.description = now.description
  if (now.cwd !== undefined && now.cwd !== sent?.cwd) patch.cwd = now.cwd
  if (now.state && JSON.stringify(now.state) !== JSON.stringify(sent?.state)) patch.state = now.state
  if (sent && Object.keys(patch).length === 1) return undefined
  return { sessionUpdate: 'subagent_update', ...patch }
}

/**
 * A message that arrives in a child's session. Its task prompt (and a later one that resumes it) comes from its
 * parent: a `session_message` from the parent to the child. A message the person sent it while it ran (steering) is
 * the person's own; one another agent sent it names no sender (the host does not keep which agent it was).
 */
export function incomingMessage(parentId: string, childId: string, m: Pick<MessageRecord, 'id' | 'metadata'>, text: string): SessionUpdate {
  if (m.metadata.steered === 'person') return textChunk('user', text, m.id)
  const sender = m.metadata.steered ? {} : { senderSessionId: parentId }
  return { sessionUpdate: 'session_message', messageId: m.id, ...sender, recipientSessionId: childId, content: [{ type: 'text', text }] }
}
