import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { Config } from '../../src-shared'
import { createHarness, type Harness } from '../testing/harness'
import { createFileKeyStore, ModelStreamError, resolveModel, streamWithRetry } from './index'
import { readAll, tempDir, textOf, userPrompt } from './testing/test-support'

/**
 * Servers that misbehave in time, over real HTTP with the real openai-compatible provider: one that never answers,
 * one that stalls after three chunks, one that sends keep-alive comments forever and never an answer.
 */
type Behaviour = 'silent' | 'stall-after-3' | 'pings-forever' | 'answer'

interface StuckServer {
  url: string
  requests: number
  close(): Promise<void>
}

const servers: StuckServer[] = []
let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
  for (const s of servers.splice(0)) await s.close()
})

const chunk = (text: string) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`
const finish = () =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`

/** `plan[i]` is how the i-th request is treated (the last entry repeats). */
async function startServer(plan: Behaviour[]): Promise<StuckServer> {
  const timers = new Set<NodeJS.Timeout>()
  const sockets = new Set<import('node:net').Socket>()
  let requests = 0
  const server = http.createServer((req, res) => {
    const behaviour = plan[Math.min(requests, plan.length - 1)]
    requests++
    req.resume()
    if (behaviour === 'silent') return // accept, never answer
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    if (behaviour === 'answer') {
      res.end(chunk('on time') + finish())
      return
    }
    if (behaviour === 'stall-after-3') {
      res.write(chunk('one ') + chunk('two ') + chunk('three'))
      return // and then nothing, connection left open
    }
    const ping = setInterval(() => res.write(': keep-alive\n\n'), 20)
    timers.add(ping)
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const stuck: StuckServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get requests() {
      return requests
    },
    close: async () => {
      for (const t of timers) clearInterval(t)
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  servers.push(stuck)
  return stuck
}

function modelAt(url: string) {
  const config = Config.parse({ providers: { slow: { type: 'openai-compatible', baseURL: url, apiKey: 'k' } } })
  const dir = tempDir()
  return resolveModel({ provider: 'slow', model: 'm' }, { config, configDir: dir, keys: createFileKeyStore(dir), env: {}, agentName: 'build' })
}

function stream(url: string, o: { firstByteMs?: number; idleMs?: number; maxRetries?: number; retries?: string[]; signal?: AbortSignal }) {
  return streamWithRetry(modelAt(url), { prompt: userPrompt('hello') }, {
    signal: o.signal ?? new AbortController().signal,
    onRetry: (info) => o.retries?.push(info.error),
    baseDelayMs: 1,
    maxRetries: o.maxRetries ?? 1,
    firstByteMs: o.firstByteMs,
    idleMs: o.idleMs,
  })
}

describe('model time limits over real HTTP', () => {
  it.each<[Behaviour, string]>([
    ['silent', 'never answers'],
    ['pings-forever', 'sends keep-alive comments forever and never an answer'],
  ])('a server that %s fails each attempt after the first-byte limit, is retried, then names the provider and the setting', async (behaviour) => {
    const server = await startServer([behaviour])
    const retries: string[] = []
    const error = await stream(server.url, { firstByteMs: 300, retries }).then(() => undefined, (e: unknown) => e)
    expect(ModelStreamError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe(
      'provider "slow" did not start answering within 0.3 s (timeouts.firstByteSeconds in config.yaml), 2 attempts. Check that the server is up, or raise the timeout.',
    )
    expect(retries).toEqual(['provider "slow" did not start answering within 0.3 s'])
    expect(server.requests).toBe(2)
  })

  it('a timed-out attempt is retried and the next answer goes through', async () => {
    const server = await startServer(['silent', 'answer'])
    const parts = await readAll(await stream(server.url, { firstByteMs: 300 }))
    expect(textOf(parts)).toBe('on time')
    expect(server.requests).toBe(2)
  })

  it('a stream that stalls mid-answer fails after the idle limit and keeps what arrived', async () => {
    const server = await startServer(['stall-after-3'])
    const reader = (await stream(server.url, { idleMs: 300 })).getReader()
    let text = ''
    let failure: unknown
    for (;;) {
      try {
        const { done, value } = await reader.read()
        if (done) break
        if (value.type === 'text-delta') text += value.delta
      } catch (e) {
        failure = e
        break
      }
    }
    expect(text).toBe('one two three')
    expect(ModelStreamError.isInstance(failure)).toBe(true)
    expect((failure as Error).message).toBe(
      'provider "slow" stopped sending mid-answer: nothing for 0.3 s (timeouts.idleSeconds in config.yaml). The partial answer is kept; try again.',
    )
  })

  it("the person's abort still reads as an abort, not as a timeout", async () => {
    const server = await startServer(['silent'])
    const controller = new AbortController()
    const pending = stream(server.url, { firstByteMs: 10_000, signal: controller.signal }).then(() => undefined, (e: unknown) => e)
    setTimeout(() => controller.abort('stopped by the user'), 50)
    const error = (await pending) as Error
    expect(error.name).toBe('AbortError')
  })

  it('config timeouts reach a real run: the turn ends with an error naming the provider and the setting, the session idle', async () => {
    const server = await startServer(['silent'])
    harness = await createHarness({
      config: { model: 'slow/m', providers: { slow: { type: 'openai-compatible', baseURL: server.url, apiKey: 'k' } }, timeouts: { firstByteSeconds: 0.2 } },
    })
    const result = await harness.run('hello')
    expect(result.final?.finishReason).toBe('error')
    const error = result.events.find((e) => e.type === 'error')
    expect(error?.type === 'error' && error.message).toMatch(/^provider "slow" did not start answering within 0\.2 s \(timeouts\.firstByteSeconds in config\.yaml\), 4 attempts/)
    expect(harness.host.store.sessions.getSession(result.sessionId)?.status).not.toBe('busy')
  })
})
