import { whereOf, type MessageWithParts, type RunNode, type SessionRecord, type TaskCard } from '../../src-shared'
import { HostError } from '../../src-shared'
import { budgetOf } from './budget-of'
import { isToolPart, toolNameOf } from '../loop'
import type { RunRegistry } from '../runtime'
import type { SessionsRepository, TranscriptRepository } from '../store'

export interface RunMapDeps {
  sessions: Pick<SessionsRepository, 'getSession'>
  transcript: Pick<TranscriptRepository, 'listMessages'>
  runs: Pick<RunRegistry, 'get'>
}

/**
 * The run map's snapshot (`runs.map`): the root, then every task card found in its transcript and, below each, in the
 * child's own transcript (stored for inspectable children, nested in the card for opaque ones), overlaid with what the
 * run registry knows of the runs in flight (their live totals and budgets). A child continued later (`task_id`)
 * appears once, as its latest card says.
 */
export function buildRunMap(d: RunMapDeps, rootSessionId: string): RunNode[] {
  const root = d.sessions.getSession(rootSessionId)
  if (!root) throw new HostError('not_found', `No session ${rootSessionId}. It may have been deleted; reload the session list.`)
  if (root.parentId !== null) throw new HostError('invalid_request', `Session ${rootSessionId} is a subagent's; the run map belongs to its conversation's root (${rootOf(d, root)}).`)
  const nodes = new Map<string, RunNode>()
  const messages = d.transcript.listMessages(root.id)
  nodes.set(root.id, rootNode(d, root, messages))
  const visit = (ownerId: string, list: MessageWithParts[], seen: Set<string>) => {
    for (const message of list) {
      for (const part of message.parts) {
        const card = part.data.subagent as TaskCard | undefined
        if (!card || typeof card.taskId !== 'string' || seen.has(card.taskId)) continue
        const below = card.inspectable ? d.transcript.listMessages(card.taskId) : (card.transcript ?? [])
        nodes.set(card.taskId, childNode(d, ownerId, card, below))
        // A child's own transcript repeats no card above it; `seen` only guards against a malformed loop.
        visit(card.taskId, below, new Set([...seen, card.taskId]))
      }
    }
  }
  visit(root.id, messages, new Set([root.id]))
  return [...nodes.values()]
}

function rootOf(d: RunMapDeps, s: SessionRecord): string {
  let at = s
  for (let i = 0; i < 100 && at.parentId; i++) at = d.sessions.getSession(at.parentId) ?? at
  return at.id
}

function rootNode(d: RunMapDeps, root: SessionRecord, messages: MessageWithParts[]): RunNode {
  const run = d.runs.get(root.id)
  return {
    id: root.id,
    parentId: null,
    depth: 0,
    agentType: root.agent,
    label: root.title || 'Untitled conversation',
    status: run ? 'running' : 'idle',
    background: false,
    fork: false,
    inspectable: true,
    startedAt: run?.startedAt ?? root.createdAt,
    endedAt: null,
    steps: run?.totals.steps ?? 0,
    tokensIn: root.usage.prompt,
    tokensOut: root.usage.completion,
    costUsd: root.costUsd,
    ...budgetOf(root.metadata.budget ? run?.budget?.() : undefined),
    currentTool: run ? runningTool(messages) : null,
  }
}

function childNode(d: RunMapDeps, parentId: string, card: TaskCard, below: MessageWithParts[]): RunNode {
  const run = d.runs.get(card.taskId)
  // A card stored before the host last stopped may still say running: only the registry knows what runs now.
  const live = run?.kind === 'task'
  const status = live ? (card.status === 'queued' ? 'queued' : 'running') : card.status === 'running' || card.status === 'queued' ? 'aborted' : card.status
  const budget = (live && run.budget?.()) || card.budget
  return {
    id: card.taskId,
    parentId,
    depth: card.depth,
    agentType: card.agentType,
    label: card.options?.label ?? card.description,
    status,
    background: card.background,
    fork: card.fork === true,
    inspectable: card.inspectable,
    startedAt: card.startedAt,
    endedAt: card.endedAt,
    steps: live ? Math.max(card.steps, run.totals.steps) : card.steps,
    tokensIn: live ? Math.max(card.tokensIn, run.totals.usage.prompt) : card.tokensIn,
    tokensOut: live ? Math.max(card.tokensOut, run.totals.usage.completion) : card.tokensOut,
    costUsd: live ? run.totals.costUsd : card.costUsd,
    ...budgetOf(budget),
    ...(card.stoppedByUser ? { stoppedByUser: true } : {}),
    ...(card.toolCalls ? { toolCalls: card.toolCalls } : {}),
    ...whereOf(card),
    currentTool: live ? runningTool(below) : null,
  }
}

/** The tool a transcript's last message is running (its last tool part still without a result). */
function runningTool(messages: MessageWithParts[]): string | null {
  const last = messages.at(-1)
  if (!last || last.role !== 'assistant') return null
  const open = [...last.parts].reverse().find((p) => isToolPart(p) && (p.toolState === 'input-available' || p.toolState === 'approval-requested'))
  return open ? toolNameOf(open) : null
}

/**
 * What a background task's card says beyond its job row (`tasks.list`): stopped by the person, its denied and failed
 * tool calls. The card is the task part in its caller's stored transcript (`parents` caches each caller's messages).
 */
export function backgroundCardFacts(
  d: Pick<RunMapDeps, 'transcript'>,
  job: { parentSessionId: string; toolCallId: string },
  parents: Map<string, MessageWithParts[]>,
): Pick<TaskCard, 'stoppedByUser' | 'toolCalls'> {
  let messages = parents.get(job.parentSessionId)
  if (!messages) parents.set(job.parentSessionId, (messages = d.transcript.listMessages(job.parentSessionId)))
  for (let i = messages.length - 1; i >= 0; i--) {
    const part = messages[i].parts.find((p) => p.toolCallId === job.toolCallId && p.type === 'tool-task')
    if (!part) continue
    const card = part.data.subagent as TaskCard | undefined
    return { ...(card?.stoppedByUser ? { stoppedByUser: true } : {}), ...(card?.toolCalls ? { toolCalls: card.toolCalls } : {}) }
  }
  return {}
}
