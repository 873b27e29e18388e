import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProviderConfig } from '../../src-shared'
import { createFileKeyStore, listProviderModels, type KeyStore } from './index'
import { startScriptedChatServer, type ScriptedChatServer } from './testing'
import { tempDir } from './testing/test-support'

/** The real file key store, in a temp data dir, holding these keys. */
function keyStoreWith(keys: Record<string, string>): KeyStore {
  const store = createFileKeyStore(tempDir())
  for (const [provider, key] of Object.entries(keys)) store.set(provider, key)
  return store
}

let openai: ScriptedChatServer
let locked: ScriptedChatServer
let broken: ScriptedChatServer
let anthropic: { url: string; seen: http.IncomingHttpHeaders[]; close(): Promise<void> }

/** Anthropic's models API on loopback: two pages (has_more / after_id), `x-api-key` required. */
async function startAnthropicLike(): Promise<typeof anthropic> {
  const seen: http.IncomingHttpHeaders[] = []
  const pages: Record<string, unknown> = {
    first: { data: [{ id: 'claude-b', display_name: 'Claude B' }], has_more: true, last_id: 'claude-b' },
    'claude-b': { data: [{ id: 'claude-a', display_name: 'Claude A' }], has_more: false, last_id: 'claude-a' },
  }
  const server = http.createServer((req, res) => {
    seen.push(req.headers)
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.headers['x-api-key'] !== 'sk-ant' || req.headers['anthropic-version'] === undefined) {
      res.writeHead(401).end('{}')
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(pages[url.searchParams.get('after_id') ?? 'first']))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise((r) => server.close(() => r())) }
}

beforeAll(async () => {
  openai = await startScriptedChatServer([], { models: ['qwen-coder', 'llama-3'] })
  locked = await startScriptedChatServer([], { models: ['secret-model'], key: 'sk-right' })
  broken = await startScriptedChatServer([], { models: { status: 500 } })
  anthropic = await startAnthropicLike()
})
afterAll(async () => {
  await Promise.all([openai.close(), locked.close(), broken.close(), anthropic.close()])
})

const host = (u: string) => u.replace(/\/v1$/, '')

describe('listProviderModels: the model picker and the Settings test, against loopback servers', () => {
  const cases: [string, () => ProviderConfig, Record<string, string>, { models?: string[]; message?: RegExp }][] = [
    ['openai-compatible /v1/models', () => ({ type: 'openai-compatible', baseURL: openai.url }), {}, { models: ['llama-3', 'qwen-coder'] }],
    ['ollama, given the server address (its OpenAI API is under /v1)', () => ({ type: 'ollama', baseURL: host(openai.url) }), {}, { models: ['llama-3', 'qwen-coder'] }],
    ['openai with a base URL and a stored key', () => ({ type: 'openai', baseURL: locked.url }), { p: 'sk-right' }, { models: ['secret-model'] }],
    ['a rejected key', () => ({ type: 'openai-compatible', baseURL: locked.url }), { p: 'sk-wrong' }, { message: /rejected the key \(401\)/ }],
    ['anthropic, every page', () => ({ type: 'anthropic', baseURL: anthropic.url }), { p: 'sk-ant' }, { models: ['claude-a', 'claude-b'] }],
    ['anthropic without a key', () => ({ type: 'anthropic', baseURL: anthropic.url }), {}, { message: /No key for "p"\. Set ANTHROPIC_API_KEY or add one/ }],
    ['a server error', () => ({ type: 'openai-compatible', baseURL: broken.url }), {}, { message: /answered 500 at http:\/\/127\.0\.0\.1:\d+\/v1\/models/ }],
    ['nothing listening', () => ({ type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' }), {}, { message: /Could not reach "p" at http:\/\/127\.0\.0\.1:9\/v1\/models/ }],
    ['openai-compatible without a base URL', () => ({ type: 'openai-compatible' }), {}, { message: /has no baseURL/ }],
    ['a script provider takes any name', () => ({ type: 'script' }), {}, { models: [] }],
  ]
  it.each(cases)('%s', async (_name, entry, keys, expected) => {
    const r = await listProviderModels('p', entry(), { env: {}, keys: keyStoreWith(keys) })
    if (expected.models) {
      expect(r).toMatchObject({ ok: true })
      expect(r.ok && r.models.map((m) => m.id)).toEqual(expected.models)
    } else {
      expect(r.ok).toBe(false)
      expect(!r.ok && r.message).toMatch(expected.message ?? /./)
    }
  })

  it('sends a draft key instead of the stored one, and a withheld key not at all', async () => {
    const entry: ProviderConfig = { type: 'openai-compatible', baseURL: locked.url }
    expect((await listProviderModels('p', entry, { env: {}, keys: keyStoreWith({ p: 'sk-wrong' }), key: 'sk-right' })).ok).toBe(true)
    const before = locked.modelRequests.length
    const r = await listProviderModels('p', { type: 'openai', baseURL: locked.url }, {
      env: {},
      keys: keyStoreWith({ p: 'sk-right' }),
      limit: { store: false, defaultEnv: false, reason: 'the workspace points it at a new URL' },
    })
    expect(r).toEqual({ ok: false, message: '"p" has no key it may use: the workspace points it at a new URL.' })
    expect(locked.modelRequests.length).toBe(before)
  })

  it('names display names where the provider gives them', async () => {
    const r = await listProviderModels('p', { type: 'anthropic', baseURL: anthropic.url }, { env: {}, keys: keyStoreWith({ p: 'sk-ant' }) })
    expect(r.ok && r.models).toEqual([
      { id: 'claude-a', name: 'Claude A' },
      { id: 'claude-b', name: 'Claude B' },
    ])
  })
})
