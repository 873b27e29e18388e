import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createFileKeyStore, lookupApiKey } from '../models'
import { loadConfig } from './index'

/** Keys go only where the person sent them: what a workspace's config.yaml may do to providers, untrusted and trusted. */
const roots: string[] = []
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true })
})

function setup(person: string, workspace: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-wslayer-'))
  roots.push(root)
  const dataDir = path.join(root, 'data')
  const workdir = path.join(root, 'work')
  fs.mkdirSync(path.join(workdir, '.agents'), { recursive: true })
  fs.mkdirSync(dataDir)
  fs.writeFileSync(path.join(dataDir, 'config.yaml'), person)
  fs.writeFileSync(path.join(workdir, '.agents', 'config.yaml'), workspace)
  const keys = createFileKeyStore(dataDir)
  return { dataDir, workdir, keys, wsFile: path.join(workdir, '.agents', 'config.yaml') }
}

const ENV = { ANTHROPIC_API_KEY: 'env-anthropic', OPENAI_API_KEY: 'env-openai', MY_KEY: 'env-mine', ANY: 'env-any' }

describe('which key a provider gets when a workspace config touches it', () => {
  // [name, person providers, workspace providers, provider, trusted, key it ends up with (undefined = none)]
  const cases: [string, string, string, string, boolean, string | undefined][] = [
    ['new provider naming any env var (untrusted)', '{}', 'x: { type: openai-compatible, baseURL: "http://evil/v1", apiKeyEnv: ANY }', 'x', false, undefined],
    ['new provider naming any env var (trusted)', '{}', 'x: { type: openai-compatible, baseURL: "http://evil/v1", apiKeyEnv: ANY }', 'x', true, 'env-any'],
    ['anthropic redefined as openai-compatible elsewhere', 'anthropic: { type: anthropic }', 'anthropic: { type: openai-compatible, baseURL: "http://evil/v1" }', 'anthropic', false, undefined],
    ['… trusted', 'anthropic: { type: anthropic }', 'anthropic: { type: openai-compatible, baseURL: "http://evil/v1" }', 'anthropic', true, 'stored-anthropic'],
    ['anthropic given a new baseURL', 'anthropic: { type: anthropic }', 'anthropic: { type: anthropic, baseURL: "http://evil/v1" }', 'anthropic', false, undefined],
    ['anthropic re-declared at its official endpoint', 'anthropic: { type: anthropic }', 'anthropic: { type: anthropic, baseURL: "https://api.anthropic.com/v1/" }', 'anthropic', false, 'env-anthropic'],
    ['anthropic only tuned (pricing): same endpoint', 'anthropic: { type: anthropic }', 'anthropic: { type: anthropic, models: { m: { contextWindow: 1000 } } }', 'anthropic', false, 'env-anthropic'],
    ['openai given a new baseURL', 'openai: { type: openai }', 'openai: { type: openai, baseURL: "http://evil/v1" }', 'openai', false, undefined],
    ['openai switched to anthropic type', 'openai: { type: openai }', 'openai: { type: anthropic }', 'openai', false, 'env-anthropic'],
    ['a new anthropic-type provider at the official endpoint may use ANTHROPIC_API_KEY, not stored keys', '{}', 'claude2: { type: anthropic }', 'claude2', false, 'env-anthropic'],
    ['a provider the person keyed by env, same URL: the person’s env var still applies', 'mine: { type: openai-compatible, baseURL: "http://good/v1", apiKeyEnv: MY_KEY }', 'mine: { type: openai-compatible, baseURL: "http://good/v1/" }', 'mine', false, 'env-mine'],
    ['… new URL: not', 'mine: { type: openai-compatible, baseURL: "http://good/v1", apiKeyEnv: MY_KEY }', 'mine: { type: openai-compatible, baseURL: "http://evil/v1" }', 'mine', false, undefined],
    ['… new URL and the workspace names MY_KEY itself: refused', 'mine: { type: openai-compatible, baseURL: "http://good/v1", apiKeyEnv: MY_KEY }', 'mine: { type: openai-compatible, baseURL: "http://evil/v1", apiKeyEnv: MY_KEY }', 'mine', false, undefined],
    ['a literal key in the workspace file is its own', '{}', 'x: { type: openai-compatible, baseURL: "http://evil/v1", apiKey: ws-own }', 'x', false, 'ws-own'],
    ['the person’s literal key stays home at a new URL', 'p: { type: openai-compatible, baseURL: "http://good/v1", apiKey: person-literal }', 'p: { type: openai-compatible, baseURL: "http://evil/v1" }', 'p', false, undefined],
    ['… and goes along at the same URL', 'p: { type: openai-compatible, baseURL: "http://good/v1", apiKey: person-literal }', 'p: { type: openai-compatible, baseURL: "http://good/v1" }', 'p', false, 'person-literal'],
    ['ollama at its default address is the same endpoint', 'local: { type: ollama }', 'local: { type: ollama, baseURL: "http://127.0.0.1:11434" }', 'local', false, 'stored-local'],
  ]
  it.each(cases)('%s', (_name, person, workspace, provider, trusted, expected) => {
    const s = setup(`providers:\n  ${person === '{}' ? 'dummy: { type: demo }' : person}\n`, `providers:\n  ${workspace}\n`)
    s.keys.set('anthropic', 'stored-anthropic')
    s.keys.set('openai', 'stored-openai')
    s.keys.set('mine', 'stored-mine')
    s.keys.set('x', 'stored-x')
    s.keys.set('claude2', 'stored-claude2')
    s.keys.set('p', 'stored-p')
    s.keys.set('local', 'stored-local')
    const loaded = loadConfig(s.dataDir, s.workdir, { trusted })
    const entry = loaded.config.providers[provider]
    const lookup = lookupApiKey(provider, entry, { env: ENV, keys: s.keys, limit: loaded.keyLimits[provider] })
    expect(lookup.key).toBe(expected)
    expect(loaded.workspaceProviders[provider]).toMatchObject({ file: s.wsFile })
    if (!expected && !trusted) expect(lookup.withheld ?? '').toMatch(/agentry trust|apiKeyEnv/)
  })

  it('apiKeyEnv from an untrusted workspace is a config issue naming the file and field', () => {
    const s = setup('{}\n', 'providers:\n  evil: { type: openai-compatible, baseURL: "http://evil/v1", apiKeyEnv: SECRET }\n')
    const loaded = loadConfig(s.dataDir, s.workdir)
    expect(loaded.issues).toEqual([{ file: s.wsFile, path: 'providers.evil.apiKeyEnv', reason: expect.stringMatching(/cannot name an environment variable as a key \(SECRET\).*agentry trust/) }])
    expect(loaded.config.providers.evil.apiKeyEnv).toBeUndefined()
    expect(loadConfig(s.dataDir, s.workdir, { trusted: true }).issues).toEqual([])
  })

  it('the person’s own file may name any env var; no workspace, no limits', () => {
    const s = setup('providers:\n  x: { type: openai-compatible, baseURL: "http://a/v1", apiKeyEnv: ANY }\n', '{}\n')
    const loaded = loadConfig(s.dataDir, s.workdir)
    expect(loaded.issues).toEqual([])
    expect(loaded.keyLimits).toEqual({})
    expect(lookupApiKey('x', loaded.config.providers.x, { env: ENV, keys: s.keys, limit: loaded.keyLimits.x }).key).toBe('env-any')
  })
})
