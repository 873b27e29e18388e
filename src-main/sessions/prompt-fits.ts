import type { MessageWithParts, ModelRef } from '../../src-shared'
import { buildPrompt, estimateTokens } from '../loop'

/**
 * A message the person sent that alone is larger than the model's context window: no request could ever carry it
 * (compaction summarizes older messages, never the new one), so the turn ends before any request, saying the sizes
 * and what to do. Only when the window is known (config.yaml or the price table): otherwise the provider decides.
 */
export function promptTooLong(history: MessageWithParts[], model: ModelRef, info: { contextWindow: number; contextWindowKnown: boolean }): string | undefined {
  if (!info.contextWindowKnown) return undefined
  const last = history.findLast((m) => m.role === 'user' && !m.metadata.synthetic && !m.metadata.hiddenAt)
  if (!last) return undefined
  const tokens = estimateTokens(buildPrompt('', [last]))
  if (tokens <= info.contextWindow) return undefined
  const n = (v: number) => v.toLocaleString('en-US')
  return `Your message is about ${n(tokens)} tokens, more than ${model.provider}/${model.model} can read at once (${n(info.contextWindow)} tokens): nothing was sent. Shorten it, or save it as a file in the workspace and ask for the parts that matter to be read.`
}
