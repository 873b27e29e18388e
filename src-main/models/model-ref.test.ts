import { describe, expect, it } from 'vitest'
import { Config } from '../../src-shared'
import { defaultModelRef, ModelConfigError, parseModelRef } from './index'

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
})
