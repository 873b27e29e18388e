import { create } from 'zustand'
import { foldRunEvent, type ApprovalRecord, type LeafEvent, type RunMap, type RunNode, type SessionRecord } from '../../src-shared'
import type { UiError } from './ui-error'

/**
 * The run map of the open root conversation (issue 26): seeded from `runs.map`, kept live by folding the root stream's
 * leaf events into it once per frame (events.ts calls `foldRunBatch` from its flush), so a map of hundreds of agents
 * never asks the host again and never renders per event.
 */
type RunMapStore = {
  /** the root conversation the nodes belong to */
  rootId: string | null
  nodes: RunMap
  /** a snapshot is on its way */
  loading: boolean
  /** a snapshot came at least once for this root (until then an empty map means "not known yet") */
  ready: boolean
  error: UiError | null
  /** nodes whose children are hidden, by id */
  collapsed: Record<string, true>
  /** an opaque child shown in place of the transcript; only while the transcript view is still `viewId` */
  shown: { id: string; viewId: string } | null
  /** messages for a run that ended before reading them (message_returned): kept until the person deals with them */
  returned: ReturnedMessage[]
}

export type ReturnedMessage = { id: number; sessionId: string; text: string; reason: string; who: string }

export const useRunMap = create<RunMapStore>(() => ({
  rootId: null,
  nodes: {},
  loading: false,
  ready: false,
  error: null,
  collapsed: {},
  shown: null,
  returned: [],
}))

const FOLDED: ReadonlySet<LeafEvent['type']> = new Set(['task_update', 'tool_call_start', 'tool_call_end', 'turn_complete', 'status_change', 'session_updated'])

// Events folded while a snapshot is on its way: the snapshot may predate them, so they are folded again over it
// (task_update carries the whole card, so folding one twice changes nothing). null: no snapshot awaited.
let replay: LeafEvent[] | null = null

/** A snapshot for `rootId` is being fetched: a different root starts from nothing, the same one keeps what it shows. */
export function beginRunMapLoad(rootId: string): void {
  replay = []
  const same = useRunMap.getState().rootId === rootId
  useRunMap.setState(same ? { loading: true, error: null } : { rootId, nodes: {}, loading: true, ready: false, error: null, collapsed: {}, shown: null })
}

/** The host's snapshot, with whatever arrived meanwhile folded over it. */
export function seedRunMap(rootId: string, nodes: RunNode[]): void {
  if (useRunMap.getState().rootId !== rootId) return
  const map: RunMap = {}
  for (const n of nodes) map[n.id] = n
  const folded = foldInto(map, replay ?? [])
  replay = null
  useRunMap.setState({ nodes: folded, loading: false, ready: true, error: null })
}

export function runMapLoadFailed(rootId: string, error: UiError): void {
  if (useRunMap.getState().rootId !== rootId) return
  replay = null
  useRunMap.setState({ loading: false, error })
}

/** One frame's events of the followed root, folded at once: one store update (one render) per frame at most. */
export function foldRunBatch(rootId: string | null, leaves: LeafEvent[]): void {
  const s = useRunMap.getState()
  if (rootId === null || s.rootId !== rootId) return
  const relevant = leaves.filter((e) => FOLDED.has(e.type))
  if (relevant.length === 0) return
  replay?.push(...relevant)
  const map = foldInto(s.nodes, relevant)
  if (map !== s.nodes) useRunMap.setState({ nodes: map })
}

/**
 * Folds events into a map with one copy per batch, not one per event: the shared fold copies the map it is given,
 * so each event is folded into a map of just the node it is about and the changed node is written into the copy.
 * Returns `map` itself when nothing changed.
 */
function foldInto(map: RunMap, events: LeafEvent[]): RunMap {
  let next: RunMap | null = null
  for (const e of events) {
    const base: RunMap = next ?? map
    const id = e.type === 'task_update' ? e.task.taskId : e.sessionId
    const one: RunMap = base[id] ? { [id]: base[id] } : {}
    const out = e.type === 'session_updated' ? foldRootSession(one, e.session) : foldRunEvent(one, e)
    if (out === one) continue
    next ??= { ...map }
    next[id] = out[id]
  }
  return next ?? map
}

/**
 * The root has no task card: its title and its own spend come with session_updated (children's come with their cards).
 * Renderer-side, beside the shared fold, since only the renderer gets those events for the root.
 */
export function foldRootSession(map: RunMap, session: SessionRecord): RunMap {
  const node = map[session.id]
  if (!node || node.parentId !== null) return map
  const next = { label: session.title || node.label, tokensIn: session.usage.prompt, tokensOut: session.usage.completion, costUsd: session.costUsd }
  if (next.label === node.label && next.tokensIn === node.tokensIn && next.tokensOut === node.tokensOut && next.costUsd === node.costUsd) return map
  return { ...map, [node.id]: { ...node, ...next } }
}

export function toggleRunCollapsed(id: string, collapse?: boolean): void {
  useRunMap.setState((s) => {
    const now = s.collapsed[id] === true
    const next = collapse ?? !now
    if (next === now) return s
    const collapsed = { ...s.collapsed }
    if (next) collapsed[id] = true
    else delete collapsed[id]
    return { collapsed }
  })
}

let nextReturned = 1

/** A message the run never read (it ended first): kept whole, with who it was for, until dismissed. */
export function keepReturnedMessage(sessionId: string, text: string, reason: string, who: string): void {
  useRunMap.setState((s) => ({ returned: [...s.returned, { id: nextReturned++, sessionId, text, reason, who }] }))
}

export function dismissReturned(id: number): void {
  useRunMap.setState((s) => ({ returned: s.returned.filter((r) => r.id !== id) }))
}

/** Pending approvals per node: a node waits on the person while one of its own is pending. */
export function waitingByNode(pending: Record<string, ApprovalRecord>, rootId: string | null): Record<string, number> {
  const out: Record<string, number> = {}
  if (rootId === null) return out
  for (const a of Object.values(pending)) if (a.rootSessionId === rootId) out[a.sessionId] = (out[a.sessionId] ?? 0) + 1
  return out
}
