import type { TaskCard } from './session'

/** A task card before anything has run: counters at zero, no times, no error. (No zod here: the UI imports it.) */
export function newTaskCard(
  fields: Pick<TaskCard, 'taskId' | 'agentType' | 'description' | 'background' | 'inspectable' | 'depth' | 'status'>,
): TaskCard {
  return { ...fields, steps: 0, tokensIn: 0, tokensOut: 0, costUsd: null, startedAt: null, endedAt: null, error: null }
}
