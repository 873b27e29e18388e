import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable'
import { foldEvent, type AgentEvent, type ApprovalRecord } from '../../src-shared'
import { childShown, incomingMessage, subagentPatch, type ChildShown, type ChildWork } from './child-view'
import { LiveView } from './live-view'
import type { TaskCardSummary } from './task-view'
import type { ViewOptions } from './view'

interface Child {
  id: string
  parentId: string
  agentType: string
  /** its card (once its parent published one) is `work.card` */
  work: ChildWork
  /** approval ids of its own that wait on the person */
  asking: Set<string>
  /** what the client was last told (subagent_update patches it) */
  sent?: ChildShown
  view: LiveView
}

/**
 * The subagents of one root session as ACP child sessions, for a client that advertised `subagents`. Every child at
 * any depth — stored or opaque — is announced with `subagent_update` on its immediate parent's session before
 * anything else carries its id; its own events then become ordinary `session/update`s on its id (a view of its own,
 * the same LiveView the root uses), and its work state follows its card, its turn's end and the approvals it waits on.
 */
export class ChildSessions {
  private readonly children = new Map<string, Child>()
  /** approval id → the child that asked */
  private readonly askedBy = new Map<string, Child>()

  constructor(
    private readonly root: string,
    private readonly o: ViewOptions,
    /** queued in order with everything else of the connection */
    private readonly send: (sessionId: string, update: SessionUpdate) => void,
  ) {}

  has(sessionId: string): boolean {
    return this.children.has(sessionId)
  }

  parentOf(sessionId: string): string | undefined {
    return this.children.get(sessionId)?.parentId
  }

  /** Call before the event reaches anything else of the session: a child is announced before its first traffic. */
  onEvent(e: AgentEvent): void {
    const { leaf, sessions, agents } = foldEvent(e)
    // Outermost first, so a parent is always announced before its own children.
    sessions.forEach((id, i) => this.ensure(id, i ? sessions[i - 1] : this.root, agents[i]))
    // A card is sent by the child's parent (the session that called `task`), on the parent's own stream.
    if (leaf.type === 'task_update') this.onCard(leaf.sessionId, leaf.task)
    if (leaf.type === 'tool_approval_required') this.approvalOf(leaf.approval)
    if (leaf.type === 'tool_approval_resolved') this.answered(leaf.approvalId)
    const child = this.children.get(sessions[sessions.length - 1] ?? '')
    if (!child) return
    if (leaf.type === 'turn_complete' && leaf.sessionId === child.id) {
      child.work.finish = leaf.finishReason
      // Without a card (a child met in mid-run), its turn's end is the only end it has.
      if (!child.work.card) child.work.status = leaf.finishReason === 'stop' || leaf.finishReason === 'max_steps' ? 'completed' : leaf.finishReason === 'aborted' ? 'aborted' : 'failed'
      this.sync(child)
    }
    child.view.onEvent(leaf)
  }

  /**
   * An approval asked by an announced child: its session, and the view whose tool call it is about. Undefined for
   * the root's own and for a child never announced (one already running when the editor loaded the conversation:
   * nothing says who its parent is) — those ask on the root session, as without child sessions.
   */
  approvalOf(a: ApprovalRecord): LiveView | undefined {
    const child = this.children.get(a.sessionId)
    if (!child) return undefined
    if (!child.asking.has(a.id)) {
      child.asking.add(a.id)
      this.askedBy.set(a.id, child)
      this.sync(child)
    }
    return child.view
  }

  /** The host went away: what any child is doing cannot be seen until it is back (or the run is gone with it). */
  hostLost(reason: string): void {
    for (const child of this.children.values()) {
      child.view.settleOpen(reason)
      const state = child.sent?.state
      if (state && state.state !== 'idle' && state.state !== 'unknown') {
        child.sent = { ...(child.sent as ChildShown), state: { state: 'unknown' } }
        this.send(child.parentId, { sessionUpdate: 'subagent_update', sessionId: child.id, state: { state: 'unknown' } })
      }
    }
  }

  dispose(): void {
    for (const child of this.children.values()) child.view.dispose()
  }

  private answered(approvalId: string): void {
    const child = this.askedBy.get(approvalId)
    if (!child) return
    this.askedBy.delete(approvalId)
    child.asking.delete(approvalId)
    this.sync(child)
  }

  private onCard(parentId: string, card: TaskCardSummary): void {
    const child = this.children.get(card.taskId) ?? this.add(card.taskId, parentId, card.agentType)
    // Resumed (task_id) after it ended: a new run, whose end is its own.
    if (card.status === 'running' && child.work.status !== 'running') child.work.finish = undefined
    Object.assign(child.work, { status: card.status, error: card.error, card })
    this.sync(child)
  }

  /** A child first met by its events (its card came before this connection followed the session). */
  private ensure(id: string, parentId: string, agentType: string): void {
    if (this.children.has(id)) return
    const child = this.add(id, parentId, agentType)
    child.work.status = 'running'
    this.sync(child)
  }

  private add(id: string, parentId: string, agentType: string): Child {
    const child: Child = {
      id,
      parentId,
      agentType,
      work: { asking: 0 },
      asking: new Set(),
      view: new LiveView(id, this.o, (u) => this.send(id, u), () => false, {
        childSessions: true,
        incoming: (m, text) => incomingMessage(parentId, id, m, text),
      }),
    }
    this.children.set(id, child)
    return child
  }

  /** Tell the client what changed (the first time: announce the child, on its immediate parent's session). */
  private sync(child: Child): void {
    child.work.asking = child.asking.size
    const now = childShown(child.work.card, child.agentType, child.work)
    const update = subagentPatch(child.id, child.sent, now)
    if (!update) return
    child.sent = now
    this.send(child.parentId, update)
  }
}
