import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Config } from '../../src-shared'
import {
  createFileKeyStore,
  lookupApiKey,
  ModelAuthError,
  ModelConfigError,
  resolveModel,
  type ResolveContext,
} from './index'
import { startScriptedChatServer, type ScriptedChatServer } from './testing'
import { ollamaOpenAIBase } from './resolve-model'
import { readAll, tempDir, textOf, userPrompt } from './testing/test-support'

function ctx(config: unknown, env: NodeJS.ProcessEnv = {}, agentName = 'build'): ResolveContext {
  const dir = tempDir()
  return { config: Config.parse(config), configDir: dir, keys: createFileKeyStore(dir), env, agentName }
}

describe('resolveModel', () => {
  it('names the unknown provider, lists the configured ones and says what to do', () => {
    const c = ctx({ providers: { mock: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1' }, local: { type: 'ollama' } } })
    expect(() => resolveModel({ provider: 'x', model: 'y' }, c)).toThrow(
      "model 'x/y': no provider 'x' in config.yaml (providers: mock, local, demo). Add it under providers: or pick another model.",
    )
    expect(ModelConfigError.isInstance((() => { try { resolveModel({ provider: 'x', model: 'y' }, c) } catch (e) { return e } })())).toBe(true)
  })

  it('fails with ModelAuthError when anthropic or openai has no key anywhere', () => {
    const c = ctx({ providers: { anthropic: { type: 'anthropic' }, openai: { type: 'openai', apiKeyEnv: 'MY_OPENAI' } } })
    const error = (() => { try { resolveModel({ provider: 'anthropic', model: 'claude' }, c) } catch (e) { return e } })()
    expect(ModelAuthError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe('provider "anthropic" has no API key. Set ANTHROPIC_API_KEY or add the key in Settings → Providers.')
    expect(() => resolveModel({ provider: 'openai', model: 'gpt' }, c)).toThrow('Set MY_OPENAI or add the key')
  })

  it('builds anthropic/openai models lazily once a key exists, under our provider name', () => {
    const c = ctx({ providers: { anthropic: { type: 'anthropic' } } }, { ANTHROPIC_API_KEY: 'sk-ant' })
    const model = resolveModel({ provider: 'anthropic', model: 'claude-sonnet-4-5' }, c)
    expect([model.specificationVersion, model.provider, model.modelId]).toEqual(['v4', 'anthropic', 'claude-sonnet-4-5'])
  })

  it('requires baseURL for openai-compatible', () => {
    expect(() => resolveModel({ provider: 'm', model: 'x' }, ctx({ providers: { m: { type: 'openai-compatible' } } }))).toThrow(
      'providers.m.baseURL is required for type openai-compatible',
    )
  })

  it('demo works with no config; script needs AGENTRY_SCRIPT or a script provider', async () => {
    expect(resolveModel({ provider: 'demo', model: 'demo' }, ctx({})).provider).toBe('demo')
    expect(() => resolveModel({ provider: 'script', model: 's' }, ctx({}))).toThrow(
      "model 'script/s': the script provider needs a script file. Set AGENTRY_SCRIPT=<path to a script YAML>",
    )
  })

  it('a configured script provider reads its file relative to the config dir', async () => {
    const c = ctx({ providers: { replay: { type: 'script', script: 'scripts/a.yaml' } } })
    fs.mkdirSync(path.join(c.configDir, 'scripts'))
    fs.writeFileSync(path.join(c.configDir, 'scripts', 'a.yaml'), 'agents: { build: [ { text: "from config dir" } ] }')
    const model = resolveModel({ provider: 'replay', model: 'any' }, c)
    expect(model.provider).toBe('replay')
    expect(textOf(await readAll((await model.doStream({ prompt: userPrompt('x') })).stream))).toBe('from config dir')
  })

  it('points an ollama baseURL at its OpenAI-compatible /v1 root', () => {
    expect(ollamaOpenAIBase('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/v1')
    expect(ollamaOpenAIBase('http://127.0.0.1:11434/api/')).toBe('http://127.0.0.1:11434/v1')
    expect(ollamaOpenAIBase('http://box:11434/v1')).toBe('http://box:11434/v1')
    expect(ollamaOpenAIBase(undefined)).toBe('http://127.0.0.1:11434/v1')
  })
})

describe('API key lookup order: config apiKey → env → key store', () => {
  let server: ScriptedChatServer
  beforeAll(async () => {
    server = await startScriptedChatServer({ respond: () => ({ text: 'ok' }) })
  })
  afterAll(() => server.close())

  async function sentAuthorization(provider: Record<string, unknown>, env: NodeJS.ProcessEnv, stored?: string) {
    const c = ctx({ providers: { mock: { type: 'openai-compatible', baseURL: server.url, ...provider } } }, env)
    if (stored) c.keys.set('mock', stored)
    await readAll((await resolveModel({ provider: 'mock', model: 'm' }, c).doStream({ prompt: userPrompt('x') })).stream)
    return server.headers.at(-1)?.authorization
  }

  it('prefers the config apiKey, then the env var, then the key store; none sends no header', async () => {
    expect(await sentAuthorization({ apiKey: 'from-config', apiKeyEnv: 'MOCK_KEY' }, { MOCK_KEY: 'from-env' }, 'from-store')).toBe('Bearer from-config')
    expect(await sentAuthorization({ apiKeyEnv: 'MOCK_KEY' }, { MOCK_KEY: 'from-env' }, 'from-store')).toBe('Bearer from-env')
    expect(await sentAuthorization({ apiKeyEnv: 'MOCK_KEY' }, { MOCK_KEY: '' }, 'from-store')).toBe('Bearer from-store')
    expect(await sentAuthorization({}, {})).toBeUndefined()
  })

  it('uses the default env var per type and reports where the key came from', () => {
    const keys = createFileKeyStore(tempDir())
    keys.set('openai', 'stored')
    expect(lookupApiKey('openai', { type: 'openai' }, { env: { OPENAI_API_KEY: 'env' }, keys })).toEqual({ key: 'env', source: 'env', envName: 'OPENAI_API_KEY' })
    expect(lookupApiKey('openai', { type: 'openai' }, { env: {}, keys })).toEqual({ key: 'stored', source: 'key-store', envName: 'OPENAI_API_KEY' })
    expect(lookupApiKey('local', { type: 'ollama' }, { env: { OPENAI_API_KEY: 'env' }, keys })).toEqual({ key: undefined, source: 'none', envName: undefined })
  })
})
