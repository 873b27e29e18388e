import { randomUUID } from 'node:crypto'
import type {
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider'
import { sleep, throwIfAborted } from './abort'

/** One reply of an offline model (script or demo), before it is turned into stream parts. */
export interface OfflineReply {
  reasoning?: string
  text?: string
  toolCalls?: Array<{ id?: string; name: string; input: unknown }>
  finish?: LanguageModelV4FinishReason['unified']
  usage: { input: number; output: number }
  chunkDelayMs?: number
}

/** Splits after spaces so the chunks re-join to the exact text ("a b" → "a ", "b"). */
export function textChunks(text: string): string[] {
  return text.split(/(?<= )/).filter((chunk) => chunk !== '')
}

export function toUsage(usage: { input: number; output: number }): LanguageModelV4Usage {
  return {
    inputTokens: { total: usage.input, noCache: usage.input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: usage.output, text: usage.output, reasoning: 0 },
  }
}

function* replyParts(reply: OfflineReply, modelId: string): Generator<{ part: LanguageModelV4StreamPart; delay: boolean }> {
  const now = (part: LanguageModelV4StreamPart) => ({ part, delay: false })
  const chunk = (part: LanguageModelV4StreamPart) => ({ part, delay: true })
  yield now({ type: 'stream-start', warnings: [] })
  yield now({ type: 'response-metadata', id: `offline-${randomUUID()}`, modelId, timestamp: new Date() })
  if (reply.reasoning) {
    yield now({ type: 'reasoning-start', id: 'reasoning-0' })
    for (const delta of textChunks(reply.reasoning)) yield chunk({ type: 'reasoning-delta', id: 'reasoning-0', delta })
    yield now({ type: 'reasoning-end', id: 'reasoning-0' })
  }
  if (reply.text) {
    yield now({ type: 'text-start', id: 'text-0' })
    for (const delta of textChunks(reply.text)) yield chunk({ type: 'text-delta', id: 'text-0', delta })
    yield now({ type: 'text-end', id: 'text-0' })
  }
  for (const call of reply.toolCalls ?? []) {
    // Ids must be unique across a whole session, even across process restarts.
    const id = call.id ?? `call_${randomUUID().replaceAll('-', '').slice(0, 16)}`
    const input = JSON.stringify(call.input ?? {})
    yield now({ type: 'tool-input-start', id, toolName: call.name })
    yield chunk({ type: 'tool-input-delta', id, delta: input })
    yield now({ type: 'tool-input-end', id })
    yield now({ type: 'tool-call', toolCallId: id, toolName: call.name, input })
  }
  const unified = reply.finish ?? (reply.toolCalls?.length ? 'tool-calls' : 'stop')
  yield now({ type: 'finish', usage: toUsage(reply.usage), finishReason: { unified, raw: unified } })
}

/**
 * Streams a reply part by part, waiting `chunkDelayMs` before each delta. An abort errors the
 * stream with an AbortError at once, the way an aborted fetch body does for HTTP providers.
 */
export function offlineStream(reply: OfflineReply, modelId: string, signal?: AbortSignal): LanguageModelV4StreamResult {
  const parts = replyParts(reply, modelId)
  const delayMs = reply.chunkDelayMs ?? 0
  const stream = new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      try {
        throwIfAborted(signal)
        const next = parts.next()
        if (next.done) return controller.close()
        if (next.value.delay && delayMs > 0) await sleep(delayMs, signal)
        controller.enqueue(next.value.part)
      } catch (e) {
        controller.error(e)
      }
    },
    cancel() {
      parts.return(undefined)
    },
  })
  return { stream }
}

/** doGenerate for offline models: the same reply, collected instead of streamed. */
export async function collectGenerate(result: LanguageModelV4StreamResult): Promise<LanguageModelV4GenerateResult> {
  const content: LanguageModelV4Content[] = []
  let finishReason: LanguageModelV4FinishReason = { unified: 'other', raw: undefined }
  let usage = toUsage({ input: 0, output: 0 })
  const texts = new Map<string, { type: 'text' | 'reasoning'; text: string }>()
  const reader = result.stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    switch (value.type) {
      case 'text-start':
      case 'reasoning-start': {
        const entry = { type: value.type === 'text-start' ? ('text' as const) : ('reasoning' as const), text: '' }
        texts.set(value.id, entry)
        content.push(entry)
        break
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const entry = texts.get(value.id)
        if (entry) entry.text += value.delta
        break
      }
      case 'tool-call':
        content.push(value)
        break
      case 'finish':
        finishReason = value.finishReason
        usage = value.usage
        break
      case 'error':
        throw value.error
    }
  }
  return { content, finishReason, usage, warnings: [] }
}
