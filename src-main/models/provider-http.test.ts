import { afterEach, describe, expect, it } from 'vitest'
import { Config } from '../../src-shared'
import {
  createFileKeyStore,
  ModelAuthError,
  ModelStreamError,
  resolveModel,
  streamWithRetry,
} from './index'
import { startScriptedChatServer, type ChatServerScript, type ScriptedChatServer } from './testing'
import { readAll, tempDir, textOf, toolCallsOf, tools, userPrompt } from './testing/test-support'

/** The real openai-compatible provider against a loopback chat-completions server: no mocks. */

let server: ScriptedChatServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function modelFor(script: ChatServerScript) {
  server = await startScriptedChatServer(script)
  const config = Config.parse({ providers: { mock: { type: 'openai-compatible', baseURL: server.url, apiKey: 'sk-test' } } })
  const dir = tempDir()
  return resolveModel({ provider: 'mock', model: 'm' }, { config, configDir: dir, keys: createFileKeyStore(dir), env: {}, agentName: 'build' })
}

function run(model: Awaited<ReturnType<typeof modelFor>>, retries: Array<{ attempt: number; delayMs: number; error: string }> = []) {
  return streamWithRetry(model, { prompt: userPrompt('hello'), tools: tools('read_file') }, {
    signal: new AbortController().signal,
    onRetry: (info) => retries.push(info),
    baseDelayMs: 1,
  })
}

describe('openai-compatible provider over real HTTP', () => {
  it('streams SSE text in chunks and reports usage', async () => {
    const model = await modelFor([{ text: 'Hello there from the scripted server.', usage: { prompt: 42, completion: 7 } }])
    const parts = await readAll(await run(model))
    expect(textOf(parts)).toBe('Hello there from the scripted server.')
    expect(parts.filter((p) => p.type === 'text-delta').length).toBeGreaterThan(3)
    const finish = parts.find((p) => p.type === 'finish')
    expect(finish?.type === 'finish' && finish.usage.inputTokens.total).toBe(42)
    expect(finish?.type === 'finish' && finish.finishReason.unified).toBe('stop')
    const body = server?.requests[0] as { model: string; stream: boolean; messages: Array<{ role: string; content: string }> }
    expect(body.model).toBe('m')
    expect(body.stream).toBe(true)
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'hello' })
  })

  it('delivers tool calls with their name and JSON arguments intact', async () => {
    const args = { path: 'src/a "quoted" file.ts', nested: { lines: [1, 2, 3] } }
    const model = await modelFor([{ text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: args }, { name: 'list_dir', arguments: { path: '.' } }] }])
    const parts = await readAll(await run(model))
    const calls = toolCallsOf(parts)
    expect(calls.map((c) => c.name)).toEqual(['read_file', 'list_dir'])
    expect(calls[0].input).toEqual(args)
    expect(calls[1].input).toEqual({ path: '.' })
    const finish = parts.find((p) => p.type === 'finish')
    expect(finish?.type === 'finish' && finish.finishReason.unified).toBe('tool-calls')
    const sent = server?.requests[0] as { tools: Array<{ function: { name: string } }> }
    expect(sent.tools[0].function.name).toBe('read_file')
  })

  it('401 stops at once with a ModelAuthError naming the provider and the key source', async () => {
    const model = await modelFor([{ status: 401 }, { text: 'never reached' }])
    const retries: Array<{ attempt: number; delayMs: number; error: string }> = []
    const error = await run(model, retries).then(() => undefined, (e: unknown) => e)
    expect(ModelAuthError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe(
      'provider "mock" rejected the API key (401). Fix providers.mock.apiKey in config.yaml, or remove it and add the key in Settings → Providers.',
    )
    expect(retries).toEqual([])
    expect(server?.requests).toHaveLength(1)
  })

  it('429 then success is retried and reported through onRetry', async () => {
    const model = await modelFor([{ status: 429 }, { text: 'second time lucky' }])
    const retries: Array<{ attempt: number; delayMs: number; error: string }> = []
    const parts = await readAll(await run(model, retries))
    expect(textOf(parts)).toBe('second time lucky')
    expect(retries).toHaveLength(1)
    expect(retries[0].attempt).toBe(1)
    expect(retries[0].error).toMatch(/429|rate limit/i)
    expect(server?.requests).toHaveLength(2)
  })

  it('honours Retry-After (capped) from a 429', async () => {
    const model = await modelFor([{ status: 429, retryAfter: 0.05 }, { text: 'ok' }])
    const retries: Array<{ attempt: number; delayMs: number; error: string }> = []
    await readAll(await run(model, retries))
    expect(retries[0].delayMs).toBe(50)
  })

  it('500 four times ends in a ModelStreamError after 3 retries', async () => {
    const model = await modelFor([{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { text: 'too late' }])
    const retries: Array<{ attempt: number; delayMs: number; error: string }> = []
    const error = await run(model, retries).then(() => undefined, (e: unknown) => e)
    expect(ModelStreamError.isInstance(error)).toBe(true)
    expect((error as ModelStreamError).statusCode).toBe(500)
    expect((error as Error).message).toMatch(/^provider "mock" failed after 4 attempts: .*Try again later\.$/)
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3])
    expect(retries.map((r) => r.delayMs)).toEqual([1, 4, 16])
    expect(server?.requests).toHaveLength(4)
  })

  it('a connection dropped mid-stream surfaces as ModelStreamError after the partial text', async () => {
    const model = await modelFor([{ text: 'one two three four five six', dropAfterChunks: 3 }, { text: 'not retried' }])
    const stream = await run(model)
    const seen: string[] = []
    const reader = stream.getReader()
    const error = await (async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return undefined
        if (value.type === 'text-delta') seen.push(value.delta)
      }
    })().catch((e: unknown) => e)
    expect(ModelStreamError.isInstance(error)).toBe(true)
    expect((error as Error).message).toMatch(/^provider "mock" stream failed mid-answer/)
    expect(seen.join('')).toBe('one two ')
    expect(server?.requests).toHaveLength(1)
  })

  it('a refused connection is retried as a network error, then fails clearly', async () => {
    const model = await modelFor([])
    await server?.close()
    server = undefined
    const retries: Array<{ attempt: number; delayMs: number; error: string }> = []
    const error = await run(model, retries).then(() => undefined, (e: unknown) => e)
    expect(ModelStreamError.isInstance(error)).toBe(true)
    expect(retries).toHaveLength(3)
    expect((error as Error).message).toMatch(/Cannot connect to API|ECONNREFUSED/)
  })

  it('abort while waiting to retry rejects promptly with an AbortError', async () => {
    server = await startScriptedChatServer([{ status: 503 }, { text: 'late' }])
    const config = Config.parse({ providers: { mock: { type: 'openai-compatible', baseURL: server.url } } })
    const dir = tempDir()
    const model = resolveModel({ provider: 'mock', model: 'm' }, { config, configDir: dir, keys: createFileKeyStore(dir), env: {}, agentName: 'build' })
    const controller = new AbortController()
    const started = Date.now()
    const pending = streamWithRetry(model, { prompt: userPrompt('hi') }, {
      signal: controller.signal,
      baseDelayMs: 5_000,
      onRetry: () => setTimeout(() => controller.abort(), 20),
    })
    const error = await pending.then(() => undefined, (e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
    expect(Date.now() - started).toBeLessThan(4_000) // the abort cut the 5 s backoff short
  })
})

describe('ollama provider over real HTTP (its OpenAI-compatible /v1 API)', () => {
  it('talks to the server address the user configured', async () => {
    server = await startScriptedChatServer([{ text: 'Hi from a local model.' }])
    const address = server.url.replace(/\/v1$/, '')
    const config = Config.parse({ providers: { local: { type: 'ollama', baseURL: address } } })
    const dir = tempDir()
    const model = resolveModel({ provider: 'local', model: 'llama3.1' }, { config, configDir: dir, keys: createFileKeyStore(dir), env: {}, agentName: 'build' })
    const parts = await readAll(await run(model))
    expect(textOf(parts)).toBe('Hi from a local model.')
    expect((server.requests[0] as { model: string }).model).toBe('llama3.1')
  })
})
