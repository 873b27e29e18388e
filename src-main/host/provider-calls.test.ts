import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ProviderDraft } from '../../src-shared'
import { startScriptedChatServer, type ScriptedChatServer } from '../models/testing'
import { createHarness, type Harness } from '../testing/harness'

let h: Harness | undefined
let srv: ScriptedChatServer | undefined
afterEach(async () => {
  await h?.close()
  await srv?.close()
  h = undefined
  srv = undefined
})

const draft = (d: Partial<ProviderDraft>): ProviderDraft => ({ name: 'local', type: 'openai-compatible', baseURL: '', key: '', ...d })
const configText = (h: Harness) => fs.readFileSync(path.join(h.dataDir, 'config.yaml'), 'utf8')

describe('Settings › Providers: add, edit, remove, test — in the person’s config.yaml', () => {
  it('adds a provider (key into the key store, never into the file), lists its models, edits it, removes it', async () => {
    srv = await startScriptedChatServer([], { models: ['qwen-coder', 'llama'], key: 'sk-local' })
    h = await createHarness()
    const calls = h.host.api.calls
    await calls['providers.save']({ draft: draft({ baseURL: srv.url, key: 'sk-local' }), adding: true })
    expect(configText(h)).toContain(`local:\n    type: openai-compatible\n    baseURL: ${srv.url}\n`)
    expect(configText(h)).not.toContain('sk-local')
    const settings = await calls['settings.get']({})
    expect(settings.providers.find((p) => p.name === 'local')).toMatchObject({ keySource: 'store', personal: { type: 'openai-compatible', baseURL: srv.url } })

    expect((await calls['models.list']({ provider: 'local' })).models.map((m) => m.id)).toEqual(['llama', 'qwen-coder'])
    expect(await calls['providers.test']({ provider: 'local' })).toEqual({ ok: true, message: `"local" answered at ${srv.url}/models: 2 models.` })

    // Edit: a new URL; the saved key is kept.
    await calls['providers.save']({ draft: draft({ baseURL: 'http://127.0.0.1:9/v1' }), adding: false })
    expect(configText(h)).toContain('baseURL: http://127.0.0.1:9/v1')
    expect((await calls['providers.test']({ provider: 'local' })).message).toMatch(/Could not reach "local" at http:\/\/127\.0\.0\.1:9\/v1\/models/)

    await calls['providers.remove']({ provider: 'local' })
    expect(configText(h)).not.toContain('local:')
    expect((await calls['settings.get']({})).providers.map((p) => p.name)).not.toContain('local')
  })

  it('tests a draft before it is saved: with the key typed there; never sends a saved key to a changed URL', async () => {
    srv = await startScriptedChatServer([], { models: ['m'], key: 'sk-right' })
    h = await createHarness()
    const calls = h.host.api.calls
    expect((await calls['providers.test']({ provider: 'fresh', draft: draft({ name: 'fresh', baseURL: srv.url, key: 'sk-right' }) })).ok).toBe(true)
    await calls['providers.save']({ draft: draft({ name: 'saved', type: 'openai', baseURL: 'http://127.0.0.1:9/v1', key: 'sk-right' }), adding: true })
    const before = srv.modelRequests.length
    const moved = await calls['providers.test']({ provider: 'saved', draft: draft({ name: 'saved', type: 'openai', baseURL: srv.url }) })
    expect(moved).toEqual({ ok: false, message: '"saved" has no key it may use: its type or URL changed; paste the key to test with it.' })
    expect(srv.modelRequests.length).toBe(before)
  })

  it.each([
    ['a negative depth', { subagents: { maxDepth: -3 } }, 'subagents.maxDepth', /at least 1/],
    ['a default model whose provider does not exist', { model: 'nowhere/x' }, 'model', /There is no provider "nowhere"/],
  ])('settings.update refuses %s with the field named, leaving config.yaml alone', async (_name, patch, field, reason) => {
    h = await createHarness()
    const before = configText(h)
    // maxDepth −3 does not pass the bridge schema either; here the host's own check is what answers.
    const call = h.host.api.calls['settings.update'](patch as never)
    await expect(call).rejects.toMatchObject({ code: 'config_error', data: { fields: { [field]: expect.stringMatching(reason) } } })
    expect(configText(h)).toBe(before)
  })

  it.each([
    ['no name', draft({ name: '' }), 'name', /Give the provider a name/],
    ['the built-in demo', draft({ name: 'demo' }), 'name', /built-in demo/],
    ['an existing name when adding', draft({ name: 'script' }), 'name', /built-in script/],
    ['an unknown type', draft({ type: 'gemini' }), 'type', /Pick one of/],
    ['openai-compatible without a URL', draft({ baseURL: '' }), 'baseURL', /needs its base URL/],
    ['a URL that is not one', draft({ baseURL: 'localhost:8080' }), 'baseURL', /http:\/\/ or https:\/\//],
  ])('providers.save refuses %s, naming the field', async (_name, d, field, reason) => {
    h = await createHarness()
    const before = configText(h)
    await expect(h.host.api.calls['providers.save']({ draft: d, adding: true })).rejects.toMatchObject({
      code: 'config_error',
      data: { fields: { [field]: expect.stringMatching(reason) } },
    })
    expect(configText(h)).toBe(before)
  })

  it('will not remove the provider the default model uses, nor one only a workspace defines', async () => {
    h = await createHarness()
    await expect(h.host.api.calls['providers.remove']({ provider: 'script' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/default model \(script\/test\) uses "script"/) })
    await expect(h.host.api.calls['providers.remove']({ provider: 'ghost' })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('models.info: context window and price, config overrides first', async () => {
    h = await createHarness({ config: { providers: { anthropic: { type: 'anthropic', models: { 'claude-sonnet-4-5': { pricing: { input: 1, output: 2 } } } } } } })
    expect(await h.host.api.calls['models.info']({ model: 'anthropic/claude-sonnet-4-5' })).toEqual({
      model: 'anthropic/claude-sonnet-4-5',
      contextWindow: 200_000,
      contextWindowKnown: true,
      pricing: { input: 1, output: 2 },
      pricingSource: 'config',
      images: true,
    })
    expect(await h.host.api.calls['models.info']({ model: 'anthropic/claude-haiku-4-5' })).toMatchObject({ pricingSource: 'table', contextWindowKnown: true })
    expect(await h.host.api.calls['models.info']({ model: 'script/test' })).toMatchObject({ pricingSource: 'free', contextWindowKnown: false, contextWindow: 128_000 })
  })
})
