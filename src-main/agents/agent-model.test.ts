import { describe, expect, it } from 'vitest'
import { Config, DEFAULT_MODEL_ALIASES } from '../../src-shared'
import { resolveAgentModel } from './index'

const withAnthropic = Config.parse({ providers: { anthropic: { type: 'anthropic' } } })
const bare = Config.parse({})

describe('resolveAgentModel', () => {
  it.each(Object.entries(DEFAULT_MODEL_ALIASES))('the default alias %s → %s, when an anthropic provider is configured', (alias, target) => {
    const r = resolveAgentModel(alias, withAnthropic)
    expect(r).toMatchObject({ spec: alias, ref: target, via: 'alias', detail: `alias "${alias}" (default models.aliases) → ${target}` })
    expect(r.modelRef).toEqual({ provider: 'anthropic', model: target.slice('anthropic/'.length) })
    expect(r.warning).toBeUndefined()
  })

  it.each(Object.keys(DEFAULT_MODEL_ALIASES))('the alias %s without an anthropic provider: inherits, and the warning says how to map it', (alias) => {
    const r = resolveAgentModel(alias, bare)
    expect(r).toMatchObject({ ref: null, via: 'unresolved' })
    expect(r.modelRef).toBeUndefined()
    expect(r.warning).toBe(
      `alias "${alias}" (default models.aliases) → ${DEFAULT_MODEL_ALIASES[alias]}, but no "anthropic" provider is configured: runs on the inherited model instead. To use it, add a provider of type anthropic under providers: in config.yaml, or map it in config.yaml: models: { aliases: { "${alias}": provider/model } }`,
    )
  })

  it('finds a provider by type when it has another name', () => {
    const config = Config.parse({ providers: { work: { type: 'anthropic', apiKey: 'x' } } })
    expect(resolveAgentModel('opus', config)).toMatchObject({ ref: `work/${DEFAULT_MODEL_ALIASES.opus.split('/')[1]}`, modelRef: { provider: 'work' } })
  })

  it('uses config.yaml aliases over the defaults (and is case-insensitive)', () => {
    const config = Config.parse({ providers: { local: { type: 'ollama' } }, models: { aliases: { sonnet: 'local/qwen3', 'opencode/grok-code': 'local/grok' } } })
    expect(resolveAgentModel('Sonnet', config)).toMatchObject({ ref: 'local/qwen3', via: 'alias', detail: 'alias "sonnet" (models.aliases in config.yaml) → local/qwen3' })
    // the defaults stay underneath
    expect(resolveAgentModel('haiku', config).via).toBe('unresolved')
    // an opencode provider/model can be mapped too
    expect(resolveAgentModel('opencode/grok-code', config)).toMatchObject({ ref: 'local/grok', via: 'alias' })
  })

  it.each([
    ['inherit', bare, { ref: null, via: 'inherit' }],
    ['claude-sonnet-4-20250514', withAnthropic, { ref: 'anthropic/claude-sonnet-4-20250514', via: 'inferred' }],
    ['gpt-5.1-codex-mini', Config.parse({ providers: { openai: { type: 'openai' } } }), { ref: 'openai/gpt-5.1-codex-mini', via: 'inferred' }],
    ['anthropic/claude-haiku-4-5', withAnthropic, { ref: 'anthropic/claude-haiku-4-5', via: 'explicit' }],
    ['demo/demo', bare, { ref: 'demo/demo', via: 'explicit' }],
    ['script/x', bare, { ref: 'script/x', via: 'explicit' }],
  ])('%s → %j', (spec, config, expected) => {
    const r = resolveAgentModel(spec, config)
    expect(r).toMatchObject(expected)
    expect(r.warning).toBeUndefined()
  })

  it.each([
    ['opencode/grok-code', 'no "opencode" provider is configured', 'add a provider named "opencode" under providers:'],
    ['openai/gpt-5.1-codex-mini', 'no "openai" provider is configured', 'add a provider of type openai under providers:'],
    ['claude-sonnet-4-20250514', 'no "anthropic" provider is configured', 'add a provider of type anthropic'],
    ['gemini-pro', 'is neither "provider/model" nor an alias in models.aliases', 'models: { aliases: { "gemini-pro": provider/model } }'],
  ])('%s cannot be used here: inherits, warning', (spec, what, fix) => {
    const r = resolveAgentModel(spec, bare)
    expect(r).toMatchObject({ ref: null, via: 'unresolved' })
    expect(r.warning).toContain(what)
    expect(r.warning).toContain(fix)
  })
})
