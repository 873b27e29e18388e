import { formatDuration, type TokenUsage } from '../../src-shared'

/** `runtime 12.4s · tokens 1234 in / 210 out · cost $0.0031` — cost only when the model's pricing is known. */
export function statsLine(ms: number, usage: TokenUsage, costUsd: number | null): string {
  const parts = [`runtime ${formatDuration(ms)}`, `tokens ${usage.prompt} in / ${usage.completion} out`]
  if (costUsd !== null) parts.push(`cost $${costUsd.toFixed(4)}`)
  return parts.join(' · ')
}

export function taskResult(agent: string, taskId: string, text: string, stats: string): string {
  return `<task_result agent="${agent}" task_id="${taskId}">\n${text}\n</task_result>\n${stats}`
}

export function taskError(agent: string, taskId: string, reason: string): string {
  return `<task_error agent="${agent}" task_id="${taskId}">${reason}</task_error>`
}
