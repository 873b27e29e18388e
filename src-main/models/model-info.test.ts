import { describe, expect, it } from 'vitest'
import { Config, type TokenUsage } from '../../src-shared'
import { DEFAULT_CONTEXT_WINDOW, modelInfo } from './index'
import { onLocalNetwork } from './model-info'

const config = Config.parse({
  providers: {
    anthropic: { type: 'anthropic', models: { 'claude-x': { contextWindow: 200000, pricing: { input: 3, output: 15 } }, 'claude-sonnet-4-5': { contextWindow: 50_000 } } },
    openai: { type: 'openai' },
    router: { type: 'openai-compatible', baseURL: 'https://openrouter.ai/api/v1' },
    local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:8080/v1' },
    llama: { type: 'ollama' },
    replay: { type: 'script' },
  },
})
const usage = (prompt: number, completion: number): TokenUsage => ({ prompt, completion, reasoning: 0, cacheRead: 0, cacheWrite: 0, total: prompt + completion })

describe('modelInfo: context window and price', () => {
  it.each([
    // ref, pricing source, context window known, cost of 1M in + 1M out (null = unknown)
    ['anthropic/claude-x', 'config', 200_000, 18],
    ['anthropic/other-model', null, null, null],
    ['openai/gpt-4o', 'table', 128_000, 12.5],
    ['anthropic/claude-sonnet-4-5', 'table', 50_000, null],
    ['router/anthropic/claude-sonnet-4.5', 'table', 1_000_000, null],
    ['local/gpt-4o', null, null, null],
    ['llama/llama3.2', 'free', null, 0],
    ['replay/x', 'free', null, 0],
    ['demo/demo', 'free', null, 0],
    ['nowhere/x', null, null, null],
  ])('%s: price from %s, window %s', async (ref, source, window, cost) => {
    const [provider, ...rest] = ref.split('/')
    const info = await modelInfo({ provider, model: rest.join('/') }, config)
    expect(info.pricingSource).toBe(source)
    expect(info.contextWindow).toBe(window ?? DEFAULT_CONTEXT_WINDOW)
    expect(info.contextWindowKnown).toBe(window !== null)
    if (cost !== null) expect(info.cost(usage(1_000_000, 1_000_000))).toBeCloseTo(cost, 6)
    if (source === null) expect(info.cost(usage(10, 10))).toBeNull()
    else expect(info.cost(usage(10, 10))).not.toBeNull()
  })

  it('applies the table per request: a long prompt costs its tier', async () => {
    const info = await modelInfo({ provider: 'anthropic', model: 'claude-sonnet-4-5' }, config)
    expect(info.pricing).toEqual({ input: 3, output: 15 })
    expect(info.cost(usage(100_000, 0))).toBeCloseTo(0.3, 6)
    // Above 200k input tokens Anthropic bills a higher rate for the whole request.
    expect(info.cost(usage(300_000, 0))).toBeGreaterThan(0.9)
  })
})

describe('a server on this machine or the local network is not looked up in the public price table', () => {
  it.each([
    ['http://127.0.0.1:8080/v1', true],
    ['http://localhost:11434', true],
    ['http://[::1]:8000/v1', true],
    ['http://192.168.1.20:8000/v1', true],
    ['http://10.0.0.5/v1', true],
    ['http://vllm:8000/v1', true],
    ['http://gpu-box.local:8000/v1', true],
    ['http://[::ffff:127.0.0.1]:8000', true],
    ['https://openrouter.ai/api/v1', false],
    ['https://api.groq.com/openai/v1', false],
    ['http://8.8.8.8/v1', false],
  ])('%s: local %s', (url, local) => {
    expect(onLocalNetwork(url)).toBe(local)
  })
})

describe('modelInfo: prompt-cache tokens at configured prices', () => {
  const cached = Config.parse({
    providers: {
      a: { type: 'anthropic', models: { plain: { pricing: { input: 3, output: 15 } }, own: { pricing: { input: 3, output: 15, cacheRead: 1, cacheWrite: 2 } } } },
    },
  })
  it.each([
    // model, prompt (of which cache read / write), completion, expected USD
    ['plain', 1_000_000, 0, 0, 0, 3],
    ['plain', 1_000_000, 800_000, 0, 0, 0.2 * 3 + 0.8 * 0.3],
    ['plain', 1_000_000, 0, 1_000_000, 0, 3.75],
    ['own', 1_000_000, 500_000, 500_000, 1_000_000, 0.5 + 1 + 15],
  ])('%s: %i in (%i read, %i written), %i out', async (model, prompt, read, write, out, expected) => {
    const info = await modelInfo({ provider: 'a', model }, cached)
    expect(info.cost({ prompt, completion: out, reasoning: 0, cacheRead: read, cacheWrite: write, total: prompt + out })).toBeCloseTo(expected, 6)
  })
})
