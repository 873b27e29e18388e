import { describe, expect, it } from 'vitest'
import { Config } from '../../src-shared'
import { contextWindowFor, defaultModelRef, ModelConfigError, parseModelRef, pricingFor } from './index'

describe('model refs', () => {
  it('parses provider/model, keeping slashes in the model id', () => {
    expect(parseModelRef('anthropic/claude-sonnet-4-5')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' })
    expect(parseModelRef('router/meta/llama-3')).toEqual({ provider: 'router', model: 'meta/llama-3' })
  })

  it('names the bad value and shows the expected shape', () => {
    for (const bad of ['claude', '/m', 'p/', 'a b/c']) {
      expect(() => parseModelRef(bad)).toThrow(`invalid model "${bad}": expected "provider/model"`)
    }
    expect(ModelConfigError.isInstance((() => { try { parseModelRef('x') } catch (e) { return e } })())).toBe(true)
  })

  it('defaults to the config model, else demo/demo', () => {
    expect(defaultModelRef(Config.parse({}))).toEqual({ provider: 'demo', model: 'demo' })
    expect(defaultModelRef(Config.parse({ model: 'mock/m' }))).toEqual({ provider: 'mock', model: 'm' })
  })

  it('prices from config, free for offline models, unknown otherwise', () => {
    const config = Config.parse({
      providers: {
        anthropic: { type: 'anthropic', models: { 'claude-x': { contextWindow: 200000, pricing: { input: 3, output: 15 } } } },
        replay: { type: 'script' },
      },
    })
    expect(pricingFor({ provider: 'anthropic', model: 'claude-x' }, config)).toEqual({ input: 3, output: 15 })
    expect(pricingFor({ provider: 'anthropic', model: 'other' }, config)).toBeUndefined()
    expect(pricingFor({ provider: 'demo', model: 'demo' }, config)).toEqual({ input: 0, output: 0 })
    expect(pricingFor({ provider: 'replay', model: 'x' }, config)).toEqual({ input: 0, output: 0 })
    expect(contextWindowFor({ provider: 'anthropic', model: 'claude-x' }, config)).toBe(200000)
    expect(contextWindowFor({ provider: 'anthropic', model: 'other' }, config)).toBe(128000)
  })
})
