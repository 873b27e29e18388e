import { z } from 'zod'
import { lazy } from './lazy'
import { ApprovalRecord } from './approval'
import { MessageRecord, PartRecord, SessionRecord, SessionStatus, TaskCard, TokenUsage } from './session'

const base = { sessionId: z.string(), at: z.number() }

export const StatusChangeEvent = lazy(() =>
  z.object({
    type: z.literal('status_change'),
    ...base,
    status: SessionStatus,
    reason: z.string().optional(),
    /** `retrying`: the request that failed, the next attempt (`attempt` of `of`) and when it starts */
    retry: z.object({ attempt: z.number().int(), of: z.number().int(), delayMs: z.number(), error: z.string() }).optional(),
  })
)
export const MessageCreatedEvent = lazy(() =>
  z.object({
    type: z.literal('message_created'),
    ...base,
    message: MessageRecord,
  })
)
export const ContentDeltaEvent = lazy(() =>
  z.object({
    type: z.literal('content_delta'),
    ...base,
    messageId: z.string(),
    partId: z.string(),
    partType: z.enum(['text', 'reasoning']),
    delta: z.string(),
  })
)
export const ToolCallStartEvent = lazy(() =>
  z.object({
    type: z.literal('tool_call_start'),
    ...base,
    messageId: z.string(),
    partId: z.string(),
    toolCallId: z.string(),
    toolName: z.string(),
    input: z.unknown(),
  })
)
export const ToolCallEndEvent = lazy(() =>
  z.object({
    type: z.literal('tool_call_end'),
    ...base,
    messageId: z.string(),
    partId: z.string(),
    toolCallId: z.string(),
    toolName: z.string(),
    ok: z.boolean(),
    output: z.string(),
    durationMs: z.number(),
    /** what the tool reported besides its output (bash: exit code, `sandbox` state; edits: the diff) */
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
)
export const TaskUpdateEvent = lazy(() =>
  z.object({
    type: z.literal('task_update'),
    ...base,
    messageId: z.string(),
    partId: z.string(),
    toolCallId: z.string(),
    task: TaskCard.omit({ transcript: true }),
  })
)
export const TurnCompleteEvent = lazy(() =>
  z.object({
    type: z.literal('turn_complete'),
    ...base,
    messageId: z.string().nullable(),
    finishReason: z.enum(['stop', 'max_steps', 'aborted', 'error', 'budget']),
    usage: TokenUsage,
    text: z.string(),
    /** prompt + answer tokens of the turn's last model step: how full the context window is now */
    contextTokens: z.number().optional(),
  })
)
export const ErrorEvent = lazy(() =>
  z.object({
    type: z.literal('error'),
    ...base,
    code: z.string(),
    message: z.string(),
  })
)
/** A pending approval, as stored: the same record `approvals.list` answers. */
export const ToolApprovalRequiredEvent = lazy(() =>
  z.object({
    type: z.literal('tool_approval_required'),
    ...base,
    approval: ApprovalRecord,
  })
)
export const ToolApprovalResolvedEvent = lazy(() =>
  z.object({
    type: z.literal('tool_approval_resolved'),
    ...base,
    approvalId: z.string(),
    outcome: z.enum(['approved', 'denied', 'cancelled']),
  })
)
export const MessageQueuedEvent = lazy(() =>
  z.object({
    type: z.literal('message_queued'),
    ...base,
    queueId: z.string(),
    text: z.string(),
    /** true when the queued entry was removed (started or cancelled) */
    removed: z.boolean().optional(),
  })
)
/** Messages were hidden (retry, regenerate, edit): kept in the store, no longer part of the transcript. */
export const MessagesHiddenEvent = lazy(() =>
  z.object({
    type: z.literal('messages_hidden'),
    ...base,
    messageIds: z.array(z.string()),
    reason: z.enum(['retried', 'edited', 'undone']),
  })
)
/**
 * A message the person (or an agent) sent to a running session could not be delivered: the run ended before its next
 * step. The text comes back whole so nothing is lost; the app puts it where the person can send it again.
 */
export const MessageReturnedEvent = lazy(() =>
  z.object({
    type: z.literal('message_returned'),
    ...base,
    text: z.string(),
    /** why it was not delivered, in words */
    reason: z.string(),
  })
)
export const SessionCreatedEvent = lazy(() =>
  z.object({ type: z.literal('session_created'), ...base, session: SessionRecord })
)
export const SessionUpdatedEvent = lazy(() =>
  z.object({ type: z.literal('session_updated'), ...base, session: SessionRecord })
)
export const PartUpdatedEvent = lazy(() => z.object({ type: z.literal('part_updated'), ...base, part: PartRecord }))

const leafEvents = [
  StatusChangeEvent,
  MessageCreatedEvent,
  ContentDeltaEvent,
  ToolCallStartEvent,
  ToolCallEndEvent,
  TaskUpdateEvent,
  TurnCompleteEvent,
  ErrorEvent,
  ToolApprovalRequiredEvent,
  ToolApprovalResolvedEvent,
  MessageQueuedEvent,
  MessagesHiddenEvent,
  MessageReturnedEvent,
  SessionCreatedEvent,
  SessionUpdatedEvent,
  PartUpdatedEvent,
] as const

export type LeafEvent = z.infer<(typeof leafEvents)[number]>

export type SubagentEvent = {
  type: 'subagent_event'
  /** the child's session id (also for opaque children, whose session has no row) */
  sessionId: string
  at: number
  agentType: string
  event: AgentEvent
}

/** Everything a subscriber can see. `subagent_event` wraps a child's event, recursively. */
export type AgentEvent = LeafEvent | SubagentEvent

export const SubagentEventSchema: z.ZodType<SubagentEvent> = z.lazy(() =>
  z.object({
    type: z.literal('subagent_event'),
    ...base,
    agentType: z.string(),
    event: AgentEventSchema,
  }),
)

export const AgentEventSchema: z.ZodType<AgentEvent> = z.lazy(() =>
  z.discriminatedUnion('type', [...leafEvents, SubagentEventSchema as never]),
) as z.ZodType<AgentEvent>

/** An event as delivered to subscribers: stamped with its root stream and a monotonic seq. */
export type SequencedEvent = { seq: number; stream: string; event: AgentEvent }
