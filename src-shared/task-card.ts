import type { MessageWithParts, PartRecord, TaskCard, ToolCallCounts } from './session'

/** A task card before anything has run: counters at zero, no times, no error. (No zod here: the UI imports it.) */
export function newTaskCard(
  fields: Pick<TaskCard, 'taskId' | 'agentType' | 'description' | 'background' | 'inspectable' | 'depth' | 'status'>,
): TaskCard {
  return { ...fields, steps: 0, tokensIn: 0, tokensOut: 0, costUsd: null, startedAt: null, endedAt: null, error: null }
}

/**
 * How one finished tool call went wrong, if it did: `denied` (not run: a deny rule, the person's Deny, a hook's
 * block, an ask in a headless run), `failed` (an error of its own; for a `task` call, a child that failed or was
 * aborted for a reason other than the person's Stop), `stopped` (cut by an abort — never counted as a failure), or
 * null (it worked, or has not ended).
 */
export function toolCallOutcome(part: PartRecord): 'denied' | 'failed' | 'stopped' | null {
  if (!part.type.startsWith('tool-') || part.toolState !== 'output-error') return null
  const meta = part.data.metadata as Record<string, unknown> | undefined
  if (meta?.aborted === true) return 'stopped'
  if (meta?.denied === true || meta?.hookBlocked === true) return 'denied'
  const error = typeof part.data.error === 'string' ? part.data.error : ''
  // Stored before the metadata said so (and the calls a restart resumed as denied).
  if (error.startsWith('Permission denied')) return 'denied'
  if (error.startsWith('Aborted: ')) return 'stopped'
  if (part.type === 'tool-task') {
    const card = part.data.subagent as Partial<TaskCard> | undefined
    if (card?.status === 'aborted') return card.stoppedByUser ? 'stopped' : 'failed'
  }
  return 'failed'
}

/** The denied and failed tool calls among `messages` (a run's own messages). */
export function countToolCalls(messages: readonly MessageWithParts[]): ToolCallCounts {
  const counts: ToolCallCounts = { denied: 0, failed: 0 }
  for (const m of messages) {
    for (const p of m.parts) {
      const outcome = toolCallOutcome(p)
      if (outcome === 'denied') counts.denied++
      else if (outcome === 'failed') counts.failed++
    }
  }
  return counts
}

export { taskStatusText, toolCallCountsText } from './task-card-text'
