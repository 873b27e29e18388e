import type { AgentEvent, MessageWithParts, PartRecord, SequencedEvent, TaskCard } from '../../../src-shared'
import type { Store } from '../../store'
import { agentAt, depthOf, type MatrixCase } from './matrix-table'

/** One level of a case's chain as stored: its transcript, and (below the root) its task part and card in the level above. */
export interface StoredLevel {
  sessionId: string
  messages: MessageWithParts[]
  part?: PartRecord
  card?: TaskCard
}

const taskParts = (messages: MessageWithParts[]) => messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool-task'))

/**
 * Follows a case down from its root: level k's task part is the one calling level k+1's agent in level k's
 * transcript (`pick`: the first such call, or the last — a resume is a second call to the same child). An
 * inspectable level's transcript is its own session; an opaque one's is nested in its card.
 */
export function readChain(store: Store, rootId: string, c: MatrixCase, pick: 'first' | 'last' = 'first'): StoredLevel[] {
  const levels: StoredLevel[] = [{ sessionId: rootId, messages: store.transcript.listMessages(rootId) }]
  for (let k = 1; k <= depthOf(c); k++) {
    const above = levels[k - 1]
    const calls = taskParts(above.messages).filter((p) => (p.data.subagent as TaskCard | undefined)?.agentType === agentAt(c, k))
    const part = pick === 'first' ? calls[0] : calls.at(-1)
    if (!part) throw new Error(`${c.name}: level ${k - 1} (${above.sessionId}) has no task call to ${agentAt(c, k)}`)
    const card = part.data.subagent as TaskCard
    const messages = card.inspectable ? store.transcript.listMessages(card.taskId) : (card.transcript ?? [])
    levels.push({ sessionId: card.taskId, messages, part, card })
  }
  return levels
}

/** Every task card stored anywhere below a root (in stored sessions and, recursively, in nested transcripts). */
export function storedCards(store: Store, rootId: string): TaskCard[] {
  const out: TaskCard[] = []
  const visit = (messages: MessageWithParts[]) => {
    for (const part of taskParts(messages)) {
      const card = part.data.subagent as TaskCard | undefined
      if (!card) continue
      out.push(card)
      if (card.transcript) visit(card.transcript)
    }
  }
  for (const id of storedTree(store, rootId)) visit(store.transcript.listMessages(id))
  return out
}

/** A root and its stored descendant sessions. */
export function storedTree(store: Store, rootId: string): string[] {
  const ids = [rootId]
  for (let i = 0; i < ids.length; i++) ids.push(...store.sessions.listSessions({ parentId: ids[i], includeArchived: true, limit: 10_000 }).map((s) => s.id))
  return ids
}

type CardView = Omit<TaskCard, 'transcript'>

/**
 * The task cards a viewer subscribed to the root's stream ends up showing, folded from the events the way the UI
 * folds them: `task_update` merges into the card; `part_updated` (restart reconciliation, nested copies) replaces it,
 * including the cards nested in its transcript.
 */
export function viewerCards(events: AgentEvent[]): Map<string, CardView> {
  const cards = new Map<string, CardView>()
  const seed = (part: PartRecord) => {
    const card = part.data.subagent as TaskCard | undefined
    if (!card) return
    const { transcript, ...view } = card
    cards.set(card.taskId, view)
    for (const m of transcript ?? []) for (const p of m.parts) seed(p)
  }
  for (const event of events) {
    let e = event
    while (e.type === 'subagent_event') e = e.event
    if (e.type === 'task_update') cards.set(e.task.taskId, { ...cards.get(e.task.taskId), ...e.task })
    else if (e.type === 'part_updated') seed(e.part)
  }
  return cards
}

export const streamOf = (events: SequencedEvent[], rootId: string): AgentEvent[] => events.filter((e) => e.stream === rootId).map((e) => e.event)

/** The child of depth `depth` is running, according to the root's stream. */
export function leafRunning(events: AgentEvent[], depth: number): boolean {
  const views = viewerCards(events)
  return [...views.values()].some((v) => v.depth === depth && v.status === 'running')
}

/** The root session's own last status change (not its children's). */
export function rootStatus(events: AgentEvent[]): string | undefined {
  return events.filter((e): e is Extract<AgentEvent, { type: 'status_change' }> => e.type === 'status_change').at(-1)?.status
}

export const TERMINAL = new Set(['completed', 'failed', 'aborted'])

/** What is still running or waiting anywhere in a store: every list must be empty once a case has settled. */
export function leftovers(store: Store, rootIds: string[]): Record<string, string[]> {
  const sessions = rootIds.flatMap((r) => storedTree(store, r).map((id) => store.sessions.getSession(id)!))
  const busy = sessions.filter((s) => !['idle', 'aborted', 'error'].includes(s.status)).map((s) => `${s.id} ${s.status}`)
  const openParts = store.transcript.listOpenToolParts().filter((p) => sessions.some((s) => s.id === p.sessionId)).map((p) => `${p.id} ${p.type} ${p.toolState}`)
  const jobs = store.queue.listJobs({ status: 'running' }).filter((j) => rootIds.includes(j.rootSessionId)).map((j) => `${j.id} ${j.agentType}`)
  const queued = sessions.flatMap((s) => store.queue.listQueue(s.id, 'queued')).map((q) => `${q.id} ${q.text}`)
  const cards = rootIds.flatMap((r) => storedCards(store, r)).filter((c) => !TERMINAL.has(c.status)).map((c) => `${c.taskId} ${c.agentType} ${c.status}`)
  const nestedOpen = rootIds
    .flatMap((r) => storedCards(store, r))
    .flatMap((c) => (c.transcript ?? []).flatMap((m) => m.parts))
    .filter((p) => p.toolState === 'input-streaming' || p.toolState === 'input-available' || p.toolState === 'approval-requested')
    .map((p) => `${p.id} ${p.type} ${p.toolState}`)
  const approvals = store.approvals.listApprovals({ status: 'pending' }).filter((a) => rootIds.includes(a.rootSessionId)).map((a) => a.id)
  return { busy, openParts, nestedOpen, jobs, queued, cards, approvals }
}
