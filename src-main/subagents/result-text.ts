import { formatDuration, type TokenUsage } from '../../src-shared'

/**
 * What a parent's model reads about its children: results, errors, the background launch. These strings are an API
 * a model consumes (docs/prompts.md; the contract suite snapshots them): change them as you would an API.
 */

/**
 * `runtime 12.4s · tokens 1234 in / 210 out · cache 900 read / 100 write · cost $0.0031 · session ses_…` — the cache
 * part when the provider reported prompt-cache use, cost only when the model's pricing is known, the session for a
 * child that keeps one (so the parent can read it with sessions_history).
 */
export function statsLine(ms: number, usage: TokenUsage, costUsd: number | null, sessionId?: string): string {
  const parts = [`runtime ${formatDuration(ms)}`, `tokens ${usage.prompt} in / ${usage.completion} out`]
  if (usage.cacheRead || usage.cacheWrite) parts.push(`cache ${usage.cacheRead} read / ${usage.cacheWrite} write`)
  if (costUsd !== null) parts.push(`cost $${costUsd.toFixed(4)}`)
  if (sessionId) parts.push(`session ${sessionId}`)
  return parts.join(' · ')
}

export function taskResult(agent: string, taskId: string, text: string, stats: string, incomplete?: string): string {
  if (incomplete === undefined) return `<task_result agent="${agent}" task_id="${taskId}">\n${text}\n</task_result>\n${stats}`
  const body = text.trim() ? `${incomplete}\n${text}` : incomplete
  return `<task_result agent="${agent}" task_id="${taskId}" status="incomplete">\n${body}\n</task_result>\n${stats}`
}

/** `why` = "budget": it stopped at a budget (the attribute lets a model tell that from a failure without reading on). */
export function taskError(agent: string, taskId: string, reason: string, why?: 'budget'): string {
  return `<task_error agent="${agent}" task_id="${taskId}"${why ? ` reason="${why}"` : ''}>${reason}</task_error>`
}

/** What the child did before it stopped, in a sentence: files it changed, commands it ran. */
export interface Activity {
  changed: string[]
  commands: number
  calls: number
}

export function activitySentence(a: Activity): string {
  if (a.calls === 0) return 'It had made no tool calls.'
  const did: string[] = []
  if (a.changed.length) did.push(`changed ${listed(a.changed)}`)
  if (a.commands) did.push(`ran ${a.commands} command${a.commands === 1 ? '' : 's'}`)
  const calls = `It had made ${a.calls} tool call${a.calls === 1 ? '' : 's'}`
  return did.length ? `${calls} and ${did.join(' and ')}, so files may have changed.` : `${calls} and changed no files.`
}

function listed(paths: string[]): string {
  const shown = paths.slice(0, 5).join(', ')
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown
}

/**
 * The first line of an incomplete result: why it stopped, what it had done, how to go on. `resumable` is false for a
 * fork (a fork is started anew, never resumed).
 */
export function incompleteNote(why: string, activity: Activity | undefined, taskId: string, resumable: boolean): string {
  const how = resumable ? ` To continue it, call task with task_id "${taskId}" and what to do next.` : ' To go on, start a new fork with what is left.'
  return `[Incomplete: ${why}.${activity ? ` ${activitySentence(activity)}` : ''}${how}]`
}

/** The tool result of a background launch: who, what, and that the result comes by itself. */
export function backgroundStarted(agent: string, taskId: string, description: string): string {
  return [
    `Started in the background: task_id ${taskId} (${agent}, "${description}").`,
    'Its result will arrive by itself as a notice in this conversation when it ends. Do not poll for it or guess what it will say: go on with work that does not depend on it, or end your turn.',
  ].join('\n')
}
