import type { ToolCallCounts } from './session'

// Text for text clients, free of zod: `agentry show` loads it before any schema (see cli/start-graph.test.ts).

/** "1 denied · 2 failed" (the parts that are not zero), or '' when none: what a collapsed card or a map row says. */
export function toolCallCountsText(c: ToolCallCounts | undefined): string {
  if (!c) return ''
  return [c.denied ? `${c.denied} denied` : '', c.failed ? `${c.failed} failed` : ''].filter(Boolean).join(' · ')
}

/** A card's status in words for text clients (`agentry show`, an editor over ACP): the person's Stop says so. */
export function taskStatusText(card: { status: string; stoppedByUser?: boolean }): string {
  return card.status === 'aborted' && card.stoppedByUser ? 'stopped by you' : card.status
}
