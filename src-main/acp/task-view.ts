import type { ToolCallContent, ToolCallStatus } from '@agentclientprotocol/sdk/unstable'
import type { TaskCard } from '../../src-shared'
import { taskStatusText, toolCallCountsText } from '../../src-shared/task-card'
import { formatDuration } from '../../src-shared/duration'
import { fenced, text } from './tool-view'

/**
 * A `task` call (a subagent) in an editor: one tool call whose content is the child's card (agent, status, steps,
 * tokens, time), what it is doing while it runs, and its final answer. Inspectable children are named, so the person
 * can open them in the Agentry app or with `agentry show`.
 */

export type TaskCardSummary = Omit<TaskCard, 'transcript'>

/** What is known about a task call: its card, the tool's own result, and — in the background — the delivered result. */
export interface TaskSource {
  card?: TaskCardSummary
  state: 'running' | 'ok' | 'error'
  output?: string
  error?: string
  /** a background child's result, delivered later as a message to the parent */
  backgroundResult?: string
}

const TERMINAL = new Set(['completed', 'failed', 'aborted'])

export function isBackground(s: TaskSource): boolean {
  return Boolean(s.card?.background) || /^\{"task_id":/.test(s.output ?? '')
}

/** A blocking task ends with its tool call; a background one when its card says so (its tool call returns at once). */
export function taskStatus(s: TaskSource): ToolCallStatus {
  if (s.state === 'error') return 'failed'
  if (!isBackground(s)) return s.state === 'ok' ? 'completed' : 'in_progress'
  const status = s.card?.status
  if (!status || !TERMINAL.has(status)) return 'in_progress'
  return status === 'completed' ? 'completed' : 'failed'
}

function plural(n: number, one: string): string {
  return `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`
}

/** `general · completed · 1 denied · 3 steps · 1,234 tokens · 2.1s` ("stopped by you" for the person's Stop), then where to open an inspectable child. */
export function cardLine(card: TaskCardSummary): string {
  const calls = toolCallCountsText(card.toolCalls)
  const parts = [card.agentType, taskStatusText(card) + (card.background ? ' in the background' : ''), ...(calls ? [calls] : []), plural(card.steps, 'step'), plural(card.tokensIn + card.tokensOut, 'token')]
  if (card.startedAt && card.endedAt) parts.push(formatDuration(card.endedAt - card.startedAt))
  const line = parts.join(' · ')
  if (!card.inspectable) return line
  return `${line}\nChild session \`${card.taskId}\`: open it under this conversation in the Agentry app, or run \`agentry show ${card.taskId}\`.`
}

/** The answer inside `<task_result …>` / `<task_error …>` (the text the parent model receives), without the tags. */
export function resultBody(raw: string): { answer: string; stats?: string; failed: boolean } {
  const error = /^<task_error[^>]*>([\s\S]*?)<\/task_error>/.exec(raw.trim())
  if (error) return { answer: error[1], failed: true }
  const result = /^<task_result[^>]*>\n?([\s\S]*?)\n?<\/task_result>\n?([\s\S]*)$/.exec(raw.trim())
  if (result) return { answer: result[1], stats: result[2].trim() || undefined, failed: false }
  return { answer: raw, failed: false }
}

/** The task_id a delivered background result names. */
export function resultTaskId(raw: string): string | undefined {
  return /^<task_(?:result|error)[^>]*\btask_id="([^"]+)"/.exec(raw.trim())?.[1]
}

/** The content once the task is done (or as far as it is stored): card, then the child's answer or the failure. */
export function taskContent(s: TaskSource): ToolCallContent[] {
  const out: ToolCallContent[] = []
  if (s.card) out.push(text(cardLine(s.card)))
  const raw = isBackground(s) ? s.backgroundResult : s.state === 'error' ? s.error : s.output
  if (raw) {
    const body = resultBody(raw)
    out.push(text(body.failed ? `Failed: ${body.answer}` : body.answer))
  } else if (s.state === 'error' && s.card?.error) {
    out.push(text(`Failed: ${s.card.error}`))
  } else if (isBackground(s) && taskStatus(s) === 'in_progress') {
    out.push(text('Running in the background; its result will appear here.'))
  }
  return out
}

/** While the child runs: its card, what it did so far (nested children indented), and the tail of what it is writing. */
export function taskProgressContent(card: TaskCardSummary | undefined, lines: string[], writing: string): ToolCallContent[] {
  const out: ToolCallContent[] = []
  if (card) out.push(text(cardLine(card)))
  if (lines.length) out.push(text(fenced(lines.join('\n'))))
  if (writing.trim()) out.push(text(writing.length > 600 ? `…${writing.slice(-600)}` : writing))
  return out
}
