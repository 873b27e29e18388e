import { z } from 'zod'
import { lazy } from './lazy'
import { BudgetView } from './budget'
import { ToolCallCounts, type TaskCard } from './session'
import type { LeafEvent } from './events'

/**
 * The run map (issue 26): every agent a conversation started, as one tree — the root, its children, theirs. The host
 * answers `runs.map` with a snapshot built from the stored transcripts and what runs now; clients keep it live by
 * folding the root stream's events into it (`foldRunEvent`), so a map of hundreds of nodes never asks the host again.
 */
export const RunNodeStatus = lazy(() => z.enum(['idle', 'queued', 'running', 'completed', 'failed', 'aborted']))
export type RunNodeStatus = z.infer<typeof RunNodeStatus>

export const RunNode = lazy(() =>
  z.object({
    /** the run's session id (a child's task id; opaque children too, which have no session row) */
    id: z.string(),
    /** the caller's session id; null for the conversation's root */
    parentId: z.string().nullable(),
    /** 0 for the root */
    depth: z.number().int(),
    agentType: z.string(),
    /** what it is doing: a task's label or description; the root's title */
    label: z.string(),
    status: RunNodeStatus,
    background: z.boolean(),
    fork: z.boolean(),
    /** has a session of its own (open it); opaque children are shown nested in their parent's transcript */
    inspectable: z.boolean(),
    startedAt: z.number().nullable(),
    endedAt: z.number().nullable(),
    steps: z.number().int(),
    tokensIn: z.number(),
    tokensOut: z.number(),
    costUsd: z.number().nullable(),
    budget: BudgetView.optional(),
    /** the tool it is running now (null: thinking, waiting or done) */
    currentTool: z.string().nullable(),
    /** its card's: aborted by the person's Stop (shown as stopped, not failed) */
    stoppedByUser: z.boolean().optional(),
    /** its card's: its tool calls that were denied and that failed */
    toolCalls: ToolCallCounts.optional(),
    /** where it works when not beside its caller (issue 29): its own container (the image) and/or worktree (the branch) */
    where: z.object({ container: z.string().optional(), worktree: z.string().optional() }).optional(),
  })
)
export type RunNode = z.infer<typeof RunNode>

export type RunMap = Record<string, RunNode>

/**
 * Applies one event of a root stream (a leaf, unwrapped from its subagent_event envelopes) to a map. Returns the same
 * object when nothing changed, else a new map with the changed node replaced — cheap enough to run per event.
 */
export function foldRunEvent(map: RunMap, e: LeafEvent): RunMap {
  switch (e.type) {
    case 'task_update': {
      const t = e.task
      const before = map[t.taskId]
      const node: RunNode = {
        id: t.taskId,
        parentId: e.sessionId,
        depth: t.depth,
        agentType: t.agentType,
        label: t.options?.label ?? t.description,
        status: t.status,
        background: t.background,
        fork: t.fork === true,
        inspectable: t.inspectable,
        startedAt: t.startedAt,
        endedAt: t.endedAt,
        steps: t.steps,
        tokensIn: t.tokensIn,
        tokensOut: t.tokensOut,
        costUsd: t.costUsd,
        ...(t.budget ? { budget: t.budget } : {}),
        ...(t.stoppedByUser ? { stoppedByUser: true } : {}),
        ...(t.toolCalls ? { toolCalls: t.toolCalls } : {}),
        ...whereOf(t),
        currentTool: t.status === 'running' ? (before?.currentTool ?? null) : null,
      }
      return { ...map, [node.id]: node }
    }
    case 'tool_call_start':
      return patch(map, e.sessionId, { currentTool: e.toolName })
    case 'tool_call_end':
      return map[e.sessionId]?.currentTool === e.toolName ? patch(map, e.sessionId, { currentTool: null }) : map
    case 'turn_complete':
      return patch(map, e.sessionId, { currentTool: null })
    case 'status_change': {
      const node = map[e.sessionId]
      // A root's own turn: busy/idle. A child's status comes with its card.
      if (!node || node.parentId !== null) return map
      return patch(map, e.sessionId, { status: e.status === 'idle' || e.status === 'error' || e.status === 'aborted' ? 'idle' : 'running', ...(e.status === 'idle' ? { currentTool: null } : {}) })
    }
    default:
      return map
  }
}

function patch(map: RunMap, id: string, fields: Partial<RunNode>): RunMap {
  const node = map[id]
  if (!node) return map
  for (const [k, v] of Object.entries(fields)) if (node[k as keyof RunNode] !== v) return { ...map, [id]: { ...node, ...fields } }
  return map
}

/**
 * The map in tree order (each node followed by its children, in the order they were called: the snapshot's order, then
 * the order new ones arrived): what a tree view lists. Not by start time — a queued child has none yet, and would jump
 * up the list when it starts.
 */
export function runMapOrder(map: RunMap): RunNode[] {
  const children = new Map<string | null, RunNode[]>()
  for (const n of Object.values(map)) {
    const parent = n.parentId !== null && map[n.parentId] ? n.parentId : null
    const list = children.get(parent) ?? []
    list.push(n)
    children.set(parent, list)
  }
  const out: RunNode[] = []
  const walk = (parent: string | null) => {
    for (const n of children.get(parent) ?? []) {
      out.push(n)
      walk(n.id)
    }
  }
  walk(null)
  return out
}

/** A card's container and worktree as a run map node's `where` (absent: it works where its caller works). */
export function whereOf(card: Pick<TaskCard, 'container' | 'worktree'>): Pick<RunNode, 'where'> {
  if (!card.container && !card.worktree) return {}
  return { where: { ...(card.container ? { container: card.container.image } : {}), ...(card.worktree ? { worktree: card.worktree.branch } : {}) } }
}
