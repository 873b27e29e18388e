import { z } from 'zod'
import { lazy } from './lazy'
import { BudgetView } from './budget'
import { ISOLATIONS, TaskContainer } from './containers'

export const SessionStatus = lazy(() =>
  z.enum([
    'idle',
    'busy',
    'retrying',
    'waiting_on_approval',
    'waiting_on_user',
    'error',
    'aborted',
  ])
)
export type SessionStatus = z.infer<typeof SessionStatus>

export const TokenUsage = lazy(() =>
  z.object({
    prompt: z.number().default(0),
    completion: z.number().default(0),
    reasoning: z.number().default(0),
    cacheRead: z.number().default(0),
    cacheWrite: z.number().default(0),
    total: z.number().default(0),
  })
)
export type TokenUsage = z.infer<typeof TokenUsage>

/**
 * Per-call controls of one `task` call, as they were applied: the model it ran on when the call chose one
 * (`provider/model`, the alias resolved), the turn cap, the timeout, the label shown instead of the description,
 * and what happens to an inspectable child's session when it ends.
 */
export const TaskOptions = lazy(() =>
  z.object({
    label: z.string().optional(),
    model: z.string().optional(),
    maxTurns: z.number().int().optional(),
    timeoutSeconds: z.number().optional(),
    cleanup: z.enum(['keep', 'delete']).optional(),
    isolation: z.enum(ISOLATIONS).optional(),
  })
)
export type TaskOptions = z.infer<typeof TaskOptions>

/** `metadata_json.subagent` of a child session (and of an opaque child's nested record). */
export const SubagentMeta = lazy(() =>
  z.object({
    agentType: z.string(),
    parentSessionId: z.string(),
    depth: z.number().int(),
    background: z.boolean(),
    inspectable: z.boolean(),
    /** agent names from the root down to this child (its ancestors' rules bound it however it is reached) */
    agentPath: z.array(z.string()).optional(),
    /** what the calling agent asked for this task beyond the agent's own settings (see TaskOptions) */
    options: TaskOptions.optional(),
  })
)
export type SubagentMeta = z.infer<typeof SubagentMeta>

export const ModelRef = lazy(() => z.object({ provider: z.string(), model: z.string() }))
export type ModelRef = z.infer<typeof ModelRef>

export const SessionRecord = lazy(() =>
  z.object({
    id: z.string(),
    agent: z.string(),
    title: z.string(),
    workspaceRoot: z.string(),
    model: ModelRef.nullable(),
    parentId: z.string().nullable(),
    parentMessageId: z.string().nullable(),
    status: SessionStatus,
    metadata: z.record(z.string(), z.unknown()),
    /** the session's own model calls */
    usage: TokenUsage,
    costUsd: z.number(),
    /** every descendant's model calls (inspectable and opaque subagents, at any depth) */
    subagentUsage: TokenUsage.optional(),
    subagentCostUsd: z.number().optional(),
    /** tokens (own and subagents') of models whose price is unknown: when > 0 the cost is a lower bound */
    unpricedTokens: z.number().optional(),
    createdAt: z.number(),
    updatedAt: z.number(),
    archivedAt: z.number().nullable(),
  })
)
export type SessionRecord = z.infer<typeof SessionRecord>

export const MessageRole = lazy(() => z.enum(['user', 'assistant', 'system']))
export type MessageRole = z.infer<typeof MessageRole>

export const ToolState = lazy(() =>
  z.enum([
    'input-streaming',
    'input-available',
    'approval-requested',
    'output-available',
    'output-error',
  ])
)
export type ToolState = z.infer<typeof ToolState>

export const PartRecord = lazy(() =>
  z.object({
    id: z.string(),
    messageId: z.string(),
    sessionId: z.string(),
    index: z.number().int(),
    /** `text`, `reasoning`, `tool-<name>`, `data-<name>` */
    type: z.string(),
    data: z.record(z.string(), z.unknown()),
    toolCallId: z.string().nullable(),
    toolState: ToolState.nullable(),
  })
)
export type PartRecord = z.infer<typeof PartRecord>

/**
 * Media a tool returned besides its text (an MCP server's image), kept in the tool part's `metadata.attachments`.
 * The model receives it where its provider takes images in tool results; elsewhere the text names it.
 */
export const ToolAttachment = lazy(() =>
  z.object({
    type: z.literal('image'),
    mediaType: z.string(),
    /** base64 */
    data: z.string(),
  })
)
export type ToolAttachment = z.infer<typeof ToolAttachment>

export const MessageRecord = lazy(() =>
  z.object({
    id: z.string(),
    sessionId: z.string(),
    role: MessageRole,
    metadata: z.record(z.string(), z.unknown()),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
)
export type MessageRecord = z.infer<typeof MessageRecord>

export const MessageWithParts = lazy(() => MessageRecord.extend({ parts: z.array(PartRecord) }))
export type MessageWithParts = z.infer<typeof MessageWithParts>

/** Live state of one `task` call, kept in the task part's data as `subagent`. */
export const TaskStatus = lazy(() => z.enum(['queued', 'running', 'completed', 'failed', 'aborted']))
export type TaskStatus = z.infer<typeof TaskStatus>

/**
 * `metadata.task` of the synthetic message that brings a background child's result to its parent: the notice the
 * parent's model reads above the result says which task it is and how it ended.
 */
export const BackgroundNotice = lazy(() =>
  z.object({
    taskId: z.string(),
    agentType: z.string(),
    description: z.string(),
    outcome: z.enum(['completed', 'incomplete', 'failed', 'stopped']),
    /** stopped by the person's Stop (its card's stoppedByUser): shown as a neutral note, not as a failure */
    stoppedByUser: z.boolean().optional(),
  })
)
export type BackgroundNotice = z.infer<typeof BackgroundNotice>


/** A task's git worktree (isolation: worktree): where, on which branch, from which commit, and what became of it. */
export const TaskWorktree = lazy(() =>
  z.object({
    path: z.string(),
    branch: z.string(),
    /** the commit it started from */
    base: z.string(),
    /** the repository it belongs to (its main working tree) */
    repo: z.string(),
    /** active while the child runs; removed when it changed nothing (or by the person); kept otherwise */
    state: z.enum(['active', 'kept', 'removed']),
    /** `git diff --shortstat` against `base`, when kept */
    diffStat: z.string().optional(),
    /** when kept: the worktree may hold changes that are not on its branch (a commit failed, or a restart cut the child short) */
    uncommitted: z.boolean().optional(),
  })
)
export type TaskWorktree = z.infer<typeof TaskWorktree>

/** How a run's tool calls went wrong, counted by the host from its transcript (see countToolCalls in task-card.ts). */
export const ToolCallCounts = lazy(() =>
  z.object({
    /** not run: a deny rule, the person's Deny, a hook's block, an ask in a headless run */
    denied: z.number().int(),
    /** ran (or could not start) and ended in an error; calls cut by a Stop are not counted */
    failed: z.number().int(),
  })
)
export type ToolCallCounts = z.infer<typeof ToolCallCounts>

export const TaskCard = lazy(() =>
  z.object({
    taskId: z.string(),
    agentType: z.string(),
    description: z.string(),
    background: z.boolean(),
    inspectable: z.boolean(),
    depth: z.number().int(),
    status: TaskStatus,
    steps: z.number().int(),
    tokensIn: z.number(),
    tokensOut: z.number(),
    /** of tokensIn: read from / written to the provider's prompt cache (absent: none reported) */
    cacheRead: z.number().optional(),
    cacheWrite: z.number().optional(),
    costUsd: z.number().nullable(),
    startedAt: z.number().nullable(),
    endedAt: z.number().nullable(),
    error: z.string().nullable(),
    /** opaque children only: the child's whole transcript, nested here */
    transcript: z.array(MessageWithParts).optional(),
    /** per-call controls the call set (absent: none) */
    options: TaskOptions.optional(),
    /** a fork of its caller: the caller's conversation, prompt and tools, in the background */
    fork: z.boolean().optional(),
    /** isolation: worktree */
    worktree: TaskWorktree.optional(),
    /** isolation: container — where its commands run */
    container: TaskContainer.optional(),
    /** it stopped before it finished (its step cap, its own timeout, no final answer): why, as the parent read it */
    incomplete: z.string().optional(),
    /** its budget (its own, bounded by every one above it) and what it and its children spent against it */
    budget: BudgetView.optional(),
    /**
     * aborted because the person stopped it — its own Stop, or a Stop of a run above it (also `agentry run` cut by
     * Ctrl-C): an expected end, shown as "Stopped", not as a failure. Absent for every other end (a parent that failed
     * or timed out, its own timeout, the host stopping).
     */
    stoppedByUser: z.boolean().optional(),
    /** its tool calls of this run that were denied (a rule, the person, a hook, a headless ask) and that failed (absent: none counted yet) */
    toolCalls: ToolCallCounts.optional(),
  })
)
export type TaskCard = z.infer<typeof TaskCard>
