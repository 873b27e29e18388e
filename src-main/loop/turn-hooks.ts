import type { RunContext } from './run-turn'
import { appendErrorMessage, appendTextMessage } from './transcript'

/**
 * The turn's own hooks (issue 27), through the run's hook port: before the first request and when the model ends
 * its turn. What a hook adds for the model is a user message marked `hook` (the model reads it, the person sees it);
 * what it says to the person only is a notice (never sent).
 */

/** How many times Stop / SubagentStop hooks may send the model back to work in one turn (Claude Code has no cap). */
export const MAX_STOP_CONTINUES = 3

/** A hook's `continue: false`: the turn ends here, its stopReason said to the person (never sent to the model). */
export function haltNotice(ctx: RunContext, text: string): void {
  appendTextMessage(ctx.transcript, ctx.emit, 'assistant', text, { notice: 'hook' })
}

/**
 * UserPromptSubmit / SessionStart / SubagentStart: true when the turn ends before its first request — a hook blocked
 * the prompt (it is kept, never sent) or said `continue: false`.
 */
export async function startHooks(ctx: RunContext): Promise<boolean> {
  const pending = ctx.hooks?.start?.(ctx.transcript.history())
  if (!pending) return false
  const o = await pending
  for (const n of o.notices) appendTextMessage(ctx.transcript, ctx.emit, 'assistant', n, { notice: 'hook' })
  if (o.block) {
    ctx.transcript.updateMessageMetadata(o.block.messageId, { notice: 'hook_blocked' })
    appendErrorMessage(ctx.transcript, ctx.emit, 'hook_blocked', o.block.text)
    return true
  }
  for (const c of o.context) appendTextMessage(ctx.transcript, ctx.emit, 'user', c, { hook: true })
  if (o.halt !== undefined) {
    haltNotice(ctx, o.halt)
    return true
  }
  return false
}

/** Stop / SubagentStop: true when a hook's reason was added and the model should go on. */
export async function stopHooks(ctx: RunContext, text: string, continues: number): Promise<boolean> {
  const pending = ctx.hooks?.stop?.({ text, active: continues > 0 })
  if (!pending) return false
  const o = await pending
  for (const n of o.notices) appendTextMessage(ctx.transcript, ctx.emit, 'assistant', n, { notice: 'hook' })
  // `continue: false` wins over a reason to go on: the turn ends, as it was about to.
  if (o.halt !== undefined) {
    haltNotice(ctx, o.halt)
    return false
  }
  if (!o.reason) return false
  if (continues >= MAX_STOP_CONTINUES) {
    appendTextMessage(ctx.transcript, ctx.emit, 'assistant', `A Stop hook asked the agent to go on ${MAX_STOP_CONTINUES + 1} times in this turn; it ends here (the limit is ${MAX_STOP_CONTINUES}). Its last reason: ${o.reason}`, { notice: 'hook' })
    return false
  }
  appendTextMessage(ctx.transcript, ctx.emit, 'user', o.reason, { hook: true })
  return true
}

