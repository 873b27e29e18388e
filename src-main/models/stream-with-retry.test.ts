import { APICallError, type LanguageModelV4, type LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { ModelAuthError, ModelStreamError, streamWithRetry } from './index'
import { readAll, textOf, userPrompt } from './testing/test-support'

/**
 * Edge cases of the stream contract that a real HTTP server cannot easily produce: error parts
 * before/after content. The model here is a hand-written LanguageModelV4 (the SDK's interface,
 * not one of our modules), replaying one list of parts per call.
 */
function partsModel(calls: Array<Array<LanguageModelV4StreamPart | 'hang'>>): LanguageModelV4 & { count: number } {
  const model = {
    specificationVersion: 'v4' as const,
    provider: 'fake',
    modelId: 'f',
    supportedUrls: {},
    count: 0,
    doGenerate: () => Promise.reject(new Error('not used')),
    async doStream() {
      const parts = calls[model.count++] ?? []
      let i = 0
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async pull(controller) {
            const next = parts[i++]
            if (next === undefined) return controller.close()
            if (next === 'hang') return new Promise<void>(() => {}) // never resolves: a stalled connection
            controller.enqueue(next)
          },
        }),
      }
    },
  }
  return model
}

const start: LanguageModelV4StreamPart = { type: 'stream-start', warnings: [] }
const text = (delta: string): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta },
]
const finish: LanguageModelV4StreamPart = {
  type: 'finish',
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
}
const overloaded = new APICallError({ message: 'overloaded', url: 'x', requestBodyValues: {}, statusCode: 503 })
const hooks = (retries: number[] = []) => ({ signal: new AbortController().signal, onRetry: (i: { attempt: number }) => retries.push(i.attempt), baseDelayMs: 1 })

describe('streamWithRetry', () => {
  it('retries a transient error part that arrives before any content', async () => {
    const model = partsModel([[start, { type: 'error', error: overloaded }], [start, ...text('hello'), finish]])
    const retries: number[] = []
    const parts = await readAll(await streamWithRetry(model, { prompt: userPrompt('x') }, hooks(retries)))
    expect(textOf(parts)).toBe('hello')
    expect(parts[0]).toEqual(start)
    expect(retries).toEqual([1])
  })

  it('an error part after content surfaces as ModelStreamError, without a retry', async () => {
    const model = partsModel([[start, ...text('partial'), { type: 'error', error: overloaded }], [start, ...text('again'), finish]])
    const retries: number[] = []
    const stream = await streamWithRetry(model, { prompt: userPrompt('x') }, hooks(retries))
    const seen: LanguageModelV4StreamPart[] = []
    const reader = stream.getReader()
    const error = await (async () => {
      for (;;) {
        const r = await reader.read()
        if (r.done) return undefined
        seen.push(r.value)
      }
    })().catch((e: unknown) => e)
    expect(textOf(seen)).toBe('partial')
    expect(ModelStreamError.isInstance(error)).toBe(true)
    expect((error as ModelStreamError).transient).toBe(true)
    expect(retries).toEqual([])
    expect(model.count).toBe(1)
  })

  it('a raw 403 from any model becomes a ModelAuthError naming its provider', async () => {
    const model = partsModel([[{ type: 'error', error: new APICallError({ message: 'forbidden', url: 'x', requestBodyValues: {}, statusCode: 403 }) }]])
    const error = await streamWithRetry(model, { prompt: userPrompt('x') }, hooks()).then(() => undefined, (e: unknown) => e)
    expect(ModelAuthError.isInstance(error)).toBe(true)
    expect((error as Error).message).toMatch(/^provider "fake" rejected the API key \(403\)\./)
  })

  it('abort while the stream is stalled mid-answer errors it with an AbortError promptly', async () => {
    const model = partsModel([[start, ...text('so far'), 'hang']])
    const controller = new AbortController()
    const stream = await streamWithRetry(model, { prompt: userPrompt('x') }, { ...hooks(), signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    const error = await readAll(stream).then(() => undefined, (e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
  })

  it('an already-aborted signal rejects before calling the model', async () => {
    const model = partsModel([[start, ...text('x'), finish]])
    const controller = new AbortController()
    controller.abort()
    const error = await streamWithRetry(model, { prompt: userPrompt('x') }, { ...hooks(), signal: controller.signal }).then(() => undefined, (e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
    expect(model.count).toBe(0)
  })
})

describe('raceAbort', () => {
  it('handles the raced promise even when the signal had already fired (no unhandled rejection, issue 10)', async () => {
    const { raceAbort } = await import('./abort')
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      const controller = new AbortController()
      controller.abort('aborted by user')
      let fail!: (e: Error) => void
      const later = new Promise<never>((_, reject) => (fail = reject))
      await expect(raceAbort(later, controller.signal)).rejects.toMatchObject({ name: 'AbortError' })
      // The stream read it raced errors afterwards (an offline stream errored by the same abort).
      fail(new Error('stream errored'))
      await new Promise((r) => setTimeout(r, 20))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })
})
