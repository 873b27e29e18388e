import { appendTextMessage, buildPrompt, estimateTokens, type LoopHooks } from '../loop'
import { newId } from '../store'
import type { RunLevel } from '../runtime'
import type { RunnerDeps } from './runner'
import { clipMiddle } from './clip-middle'
import { helperModel } from './helper-model'

const THRESHOLD = 0.8
const KEEP_RECENT = 6

/** What asked for a compaction: the person's `/compact` (with what they typed after it) or the context's limit. */
export type CompactTrigger = { trigger: 'manual'; instructions: string } | { trigger: 'auto' }

/**
 * When the conversation nears the model's context window, the hidden `compaction` agent summarizes everything
 * but the recent tail into a marker message. The model then sees summary + tail; the user still sees it all.
 *
 * PreCompact hooks (issue 27) run once there is something to compact, before the summary is asked for. A manual
 * compaction they block does not happen (`blocked` says why, for the person); an automatic one cannot be blocked —
 * the conversation would no longer fit the model — so the block is said as a notice and the compaction goes on.
 */
export async function maybeCompact(
  deps: Pick<RunnerDeps, 'subagents'>,
  level: RunLevel,
  limit: number,
  o: CompactTrigger & { hooks?: LoopHooks },
): Promise<{ compacted: boolean; blocked?: string }> {
  const history = level.transcript.history()
  if (estimateTokens(buildPrompt('', history)) < limit * THRESHOLD) return { compacted: false }
  const visible = history.filter((m) => !m.metadata.hiddenAt)
  if (visible.length <= KEEP_RECENT) return { compacted: false }
  const older = visible.slice(0, -KEEP_RECENT)
  const pending = o.hooks?.compact?.({ trigger: o.trigger, instructions: o.trigger === 'manual' ? o.instructions : '' })
  if (pending) {
    const hooked = await pending
    for (const n of hooked.notices) appendTextMessage(level.transcript, level.emit, 'assistant', n, { notice: 'hook', compacting: true })
    if (hooked.block && o.trigger === 'manual') return { compacted: false, blocked: hooked.block }
    if (hooked.block) appendTextMessage(level.transcript, level.emit, 'assistant', `Compacted anyway: the conversation no longer fits the model's context, and an automatic compaction cannot be blocked. ${hooked.block}`, { notice: 'hook', compacting: true })
  }
  const conversation = buildPrompt('', older)
    .slice(1)
    .map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`)
    .join('\n')
  const result = await deps.subagents.runHelper(level, 'compaction', clipMiddle(conversation), helperModel(level))
  if (result.finishReason === 'error' || !result.text.trim()) return { compacted: false }
  const marker = level.transcript.createMessage('assistant', {
    compaction: { summary: result.text.trim(), upToMessageId: older[older.length - 1].id },
    synthetic: true,
  })
  const part = { id: newId('prt'), messageId: marker.id, sessionId: level.sessionId, index: 0, type: 'data-compaction', data: { summary: result.text.trim(), messages: older.length }, toolCallId: null, toolState: null }
  level.transcript.upsertPart(part)
  level.emit({ type: 'message_created', sessionId: level.sessionId, at: Date.now(), message: marker })
  level.emit({ type: 'part_updated', sessionId: level.sessionId, at: Date.now(), part })
  return { compacted: true }
}
