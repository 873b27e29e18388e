import { buildPrompt, estimateTokens } from '../loop'
import { newId } from '../store'
import type { RunLevel } from '../runtime'
import type { RunnerDeps } from './runner'
import { clipMiddle } from './clip-middle'
import { helperModel } from './helper-model'

const THRESHOLD = 0.8
const KEEP_RECENT = 6

/**
 * When the conversation nears the model's context window, the hidden `compaction` agent summarizes everything
 * but the recent tail into a marker message. The model then sees summary + tail; the user still sees it all.
 */
export async function maybeCompact(deps: Pick<RunnerDeps, 'subagents'>, level: RunLevel, limit: number): Promise<boolean> {
  const history = level.transcript.history()
  if (estimateTokens(buildPrompt('', history)) < limit * THRESHOLD) return false
  const visible = history.filter((m) => !m.metadata.hiddenAt)
  if (visible.length <= KEEP_RECENT) return false
  const older = visible.slice(0, -KEEP_RECENT)
  const conversation = buildPrompt('', older)
    .slice(1)
    .map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`)
    .join('\n')
  const result = await deps.subagents.runHelper(level, 'compaction', clipMiddle(conversation), helperModel(level))
  if (result.finishReason === 'error' || !result.text.trim()) return false
  const marker = level.transcript.createMessage('assistant', {
    compaction: { summary: result.text.trim(), upToMessageId: older[older.length - 1].id },
    synthetic: true,
  })
  const part = { id: newId('prt'), messageId: marker.id, sessionId: level.sessionId, index: 0, type: 'data-compaction', data: { summary: result.text.trim(), messages: older.length }, toolCallId: null, toolState: null }
  level.transcript.upsertPart(part)
  level.emit({ type: 'message_created', sessionId: level.sessionId, at: Date.now(), message: marker })
  level.emit({ type: 'part_updated', sessionId: level.sessionId, at: Date.now(), part })
  return true
}
