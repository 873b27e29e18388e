import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AgentInfo, Config, type AgentEvent, type MessageWithParts } from '../../src-shared'
import { createFileKeyStore, resolveModel } from '../models'
import { startScriptedChatServer, type ChatServerScript, type ScriptedChatServer } from '../models/testing'
import { waitFor } from '../testing/harness'
import { BUILTIN_TOOLS, type ToolDef } from '../tools'
import { makeContext, type TestContext } from '../tools/testing/test-context'
import { runTurn, type RunContext } from './run-turn'
import { estimateOutputTokens, outputCutAt, RepeatedCalls, stableJson } from './runaway'
import { appendTextMessage, NestedTranscript } from './transcript'

/**
 * The runaway guards (issue 25) over real HTTP: the real openai-compatible provider against a loopback server that
 * writes forever, answers slowly, or calls the same tool again and again.
 */

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

type ChatRequest = { messages: { role: string }[]; max_tokens?: number }

async function serve(script: ChatServerScript): Promise<ScriptedChatServer> {
  const server = await startScriptedChatServer(script)
  cleanups.push(() => server.close())
  return server
}

/** A loop context on a fresh in-memory transcript holding one user prompt, the model at `server`. */
function context(server: ScriptedChatServer, o: Omit<Partial<RunContext>, 'agent'> & { agent?: Partial<AgentInfo> } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-runaway-'))
  const tool: TestContext = makeContext({ files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } })
  cleanups.push(() => {
    tool.cleanup()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  const config = Config.parse({ providers: { loop: { type: 'openai-compatible', baseURL: server.url, apiKey: 'k' } } })
  const model = resolveModel({ provider: 'loop', model: 'm' }, { config, configDir: dir, keys: createFileKeyStore(dir), env: {}, agentName: 'build' })
  const events: AgentEvent[] = []
  const emit = (e: AgentEvent) => events.push(e)
  const transcript = new NestedTranscript('ses_runaway', [], () => undefined, () => undefined)
  appendTextMessage(transcript, emit, 'user', 'go')
  const { agent, ...rest } = o
  const ctx: RunContext = {
    agent: AgentInfo.parse({ name: 'build', description: 'test agent', prompt: '', source: { kind: 'builtin' }, ...agent }),
    model,
    transcript,
    tools: [],
    system: 'You are a test agent.',
    signal: new AbortController().signal,
    maxSteps: 10,
    emit,
    setStatus: () => undefined,
    toolContext: () => tool,
    retryDelayMs: 1,
    ...rest,
  }
  return { ctx, events, messages: (): MessageWithParts[] => transcript.history() }
}

const assistantText = (messages: MessageWithParts[]) =>
  messages
    .filter((m) => m.role === 'assistant' && !m.metadata.notice)
    .flatMap((m) => m.parts)
    .filter((p) => p.type === 'text')
    .map((p) => String(p.data.text))
    .join('')
const notices = (messages: MessageWithParts[]) => messages.filter((m) => m.metadata.notice).map((m) => m.metadata.error as { code: string; message: string })
const toolParts = (messages: MessageWithParts[]) => messages.flatMap((m) => m.parts).filter((p) => p.type.startsWith('tool-'))

const WORDS = 'lorem ipsum dolor sit amet '

describe('output cap, counted on our side', () => {
  it('cuts a never-ending answer past cap × 1.25 + 512: the request is closed, not retried, what streamed is kept', async () => {
    const server = await serve([{ forever: { chunk: WORDS } }])
    const { ctx, events, messages } = context(server, { outputTokenCap: 300 })
    const r = await runTurn(ctx)
    expect(r.finishReason).toBe('error')
    expect(r.error).toMatch(
      /^the model kept writing past its output limit \(~\d+ tokens, limit 300: the agent's maxOutputTokens, else runaway\.maxOutputTokens in config\.yaml\); its answer was cut$/,
    )
    const estimate = Number(/~(\d+) tokens/.exec(r.error!)![1])
    expect(estimate).toBeGreaterThan(outputCutAt(300))
    expect(estimate).toBeLessThan(outputCutAt(300) + 20)
    // The HTTP request was aborted (the server saw its client go), and nothing asked again.
    await waitFor(() => server.interrupted.includes(0))
    expect(server.requests).toHaveLength(1)
    // The runaway cap is ours: the provider is not sent it (only an agent's own maxOutputTokens is).
    expect((server.requests[0] as ChatRequest).max_tokens).toBeUndefined()
    // The answer as far as it went stays in the transcript, followed by the error.
    const kept = assistantText(messages())
    expect(kept.startsWith(WORDS.repeat(10))).toBe(true)
    expect(estimateOutputTokens(kept.length)).toBeGreaterThan(outputCutAt(300))
    expect(notices(messages())).toEqual([{ code: 'runaway', message: r.error }])
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1)
  })

  it('does not cut an answer under cap × 1.25 that the provider did not stop', async () => {
    const text = WORDS.repeat(Math.floor((300 * 1.25 * 4) / WORDS.length)) // ~375 tokens for a cap of 300
    const server = await serve([{ text }])
    const { ctx, messages } = context(server, { outputTokenCap: 300 })
    const r = await runTurn(ctx)
    expect(r.finishReason).toBe('stop')
    expect(r.text).toBe(text)
    expect(notices(messages())).toEqual([])
  })

  it("tells the provider only the agent's own maxOutputTokens, never the runaway default (models differ in what they accept)", async () => {
    const server = await serve([{ text: 'one' }, { text: 'two' }, { text: 'three' }])
    await runTurn(context(server, { outputTokenCap: 300 }).ctx)
    await runTurn(context(server, { outputTokenCap: 300, agent: { maxOutputTokens: 200 } }).ctx)
    await runTurn(context(server).ctx)
    expect((server.requests as ChatRequest[]).map((r) => r.max_tokens)).toEqual([undefined, 200, undefined])
  })
})

describe('request duration', () => {
  it('stops an answer still streaming after requestMs, without retrying it', async () => {
    const server = await serve([{ forever: { chunk: 'tick ', everyMs: 50 } }])
    const { ctx, messages } = context(server, { requestMs: 400 })
    const started = Date.now()
    const r = await runTurn(ctx)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(r.finishReason).toBe('error')
    expect(r.error).toBe("the model's answer took longer than 0.4 s (runaway.requestSeconds in config.yaml); it was stopped")
    await waitFor(() => server.interrupted.includes(0))
    expect(server.requests).toHaveLength(1)
    expect(assistantText(messages())).toMatch(/^(tick ){3,}$/)
    expect(notices(messages())).toEqual([{ code: 'runaway', message: r.error }])
  })

  it('times each request on its own: one that ends in time runs, a later one still streaming is stopped', async () => {
    const server = await serve([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }], chunkDelayMs: 40 }, // about 200 ms
      { forever: { chunk: 'tick ', everyMs: 50 } },
    ])
    const { ctx, messages } = context(server, { requestMs: 600, tools: BUILTIN_TOOLS.filter((t) => t.name === 'read_file') })
    const started = Date.now()
    const r = await runTurn(ctx)
    expect(r).toMatchObject({ finishReason: 'error', steps: 1, error: expect.stringMatching(/^the model's answer took longer than 0\.6 s/) })
    // Longer than one limit in all: the second request had a fresh one.
    expect(Date.now() - started).toBeGreaterThanOrEqual(750)
    expect(toolParts(messages()).map((p) => p.toolState)).toEqual(['output-available'])
    expect(server.requests).toHaveLength(2)
  })
})

describe('repeated tool calls', () => {
  /** read_file, counting how many times it really ran */
  function countingReadFile() {
    const real = BUILTIN_TOOLS.find((t) => t.name === 'read_file')!
    const runs: unknown[] = []
    const tool: ToolDef = { ...real, execute: (input, tctx) => (runs.push(input), real.execute(input, tctx)) }
    return { tool, runs }
  }

  it('stops before running the call that makes the limit, giving it a tool error and the turn an error', async () => {
    const call = { name: 'read_file', arguments: { path: 'a.txt' } }
    const server = await serve({ respond: () => ({ toolCalls: [call] }) })
    const { tool, runs } = countingReadFile()
    const { ctx, messages } = context(server, { repeatedCallLimit: 3, tools: [tool] })
    const r = await runTurn(ctx)
    const error = 'stopped: it called read_file with the same arguments 3 times in a row (runaway.repeatedCalls in config.yaml); change the approach or ask for help'
    expect(r).toMatchObject({ finishReason: 'error', error, steps: 3 })
    expect(runs).toHaveLength(2)
    expect(server.requests).toHaveLength(3)
    const parts = toolParts(messages())
    expect(parts.map((p) => p.toolState)).toEqual(['output-available', 'output-available', 'output-error'])
    expect(parts[2].data.error).toBe(
      'Not run: you called read_file with the same arguments 3 times in a row (runaway.repeatedCalls in config.yaml); change the approach or ask for help.',
    )
    expect(notices(messages())).toEqual([{ code: 'runaway', message: error }])
  })

  it('counts the calls of one step in order, and answers every call of the stopping step', async () => {
    const server = await serve([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'b.txt' } }, { name: 'read_file', arguments: { path: 'a.txt' } }] },
      // Same arguments in another key order, then a call to a tool that does not exist: none of them runs.
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt', offset: 1 } }, { name: 'read_file', arguments: { offset: 1, path: 'a.txt' } }, { name: 'nope', arguments: {} }] },
    ])
    const { tool, runs } = countingReadFile()
    const { ctx, messages } = context(server, { repeatedCallLimit: 2, tools: [tool] })
    const r = await runTurn(ctx)
    expect(r.finishReason).toBe('error')
    expect(r.error).toMatch(/^stopped: it called read_file with the same arguments 2 times in a row/)
    expect(runs).toEqual([{ path: 'b.txt' }, { path: 'a.txt' }])
    expect(toolParts(messages()).map((p) => p.toolState)).toEqual(['output-available', 'output-available', 'output-error', 'output-error', 'output-error'])
  })

  it('lets alternating calls run: only the same call in a row counts', async () => {
    const paths = ['a.txt', 'b.txt', 'a.txt', 'b.txt', 'a.txt', 'a.txt']
    const server = await serve({ respond: (_body, i) => ({ toolCalls: [{ name: 'read_file', arguments: { path: paths[i] } }] }) })
    const { tool, runs } = countingReadFile()
    const { ctx } = context(server, { repeatedCallLimit: 2, tools: [tool] })
    const r = await runTurn(ctx)
    expect(r).toMatchObject({ finishReason: 'error', steps: 6, error: expect.stringMatching(/^stopped: it called read_file with the same arguments 2 times/) })
    expect(runs).toHaveLength(5)
  })
})

describe('estimates and signatures', () => {
  it('estimates output tokens as characters / 4, rounded up', () => {
    expect([0, 1, 4, 5, 8, 4000].map(estimateOutputTokens)).toEqual([0, 1, 1, 2, 2, 1000])
  })

  it('cuts at a quarter plus 512 tokens above the cap', () => {
    expect(outputCutAt(300)).toBe(887)
    expect(outputCutAt(32_000)).toBe(40_512)
  })

  it('signs arguments with their keys sorted, at every depth, arrays kept in order', () => {
    expect(stableJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}')
    expect(stableJson({ a: 1, b: 2 })).toBe(stableJson({ b: 2, a: 1 }))
    expect(stableJson('x')).toBe('"x"')
    expect(stableJson(undefined)).toBe('undefined')
  })

  it('counts the same call in a row, and starts over after another one; no limit, no stop', () => {
    const r = new RepeatedCalls(3)
    const a = { toolName: 'read_file', input: { path: 'a' } }
    const b = { toolName: 'read_file', input: { path: 'b' } }
    expect(r.record([a, a])).toBeUndefined()
    expect(r.record([b])).toBeUndefined()
    expect(r.record([a, a])).toBeUndefined()
    expect(r.record([{ toolName: 'grep', input: { path: 'a' } }])).toBeUndefined()
    expect(r.record([a, a, a])).toMatch(/read_file with the same arguments 3 times/)
    const off = new RepeatedCalls(undefined)
    for (let i = 0; i < 10; i++) expect(off.record([a])).toBeUndefined()
  })
})
