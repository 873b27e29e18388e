import { describe, expect, it } from 'vitest'
import { Config, type TokenUsage } from '../../src-shared'
import { DEFAULT_CONTEXT_WINDOW, modelInfo } from './index'

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
