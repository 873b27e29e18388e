import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { diffLines } from 'diff'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig, writeConfigValue, writeProviderEntry } from './index'

let dataDir: string
let file: string

beforeEach(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-write-'))
  dataDir = path.join(root, 'data')
  file = path.join(dataDir, 'config.yaml')
})
afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }))

describe('writeConfigValue', () => {
  it('creates the data dir and file on first write, readable by loadConfig', () => {
    writeConfigValue(dataDir, { model: 'mock/m', providers: { mock: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1' } } })
    const r = loadConfig(dataDir)
    expect(r.issues).toEqual([])
    expect(r.config.model).toBe('mock/m')
    expect(r.config.providers.mock).toEqual({ type: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1' })
    expect(fs.readdirSync(dataDir)).toEqual(['config.yaml'])
  })

  it('the read-only commands switch (Settings → Sandbox) is written and read back (issue 28)', () => {
    writeConfigValue(dataDir, { sandbox: { readOnlyAutoAllow: false } })
    expect(loadConfig(dataDir).config.sandbox).toEqual({ enabled: true, writable: [], readOnlyAutoAllow: false })
  })

  it('merges into the existing file and keeps the user comments', () => {
    fs.mkdirSync(dataDir)
    fs.writeFileSync(
      file,
      `# my settings
model: anthropic/claude # the good one
providers:
  anthropic: { type: anthropic }
  old: { type: openai }
subagents:
  maxDepth: 3 # deep enough
`,
    )
    writeConfigValue(dataDir, {
      providers: { local: { type: 'ollama', baseURL: 'http://127.0.0.1:11434' }, old: null },
      subagents: { maxConcurrent: 2 },
    })
    const text = fs.readFileSync(file, 'utf8')
    expect(text).toContain('# my settings')
    expect(text).toContain('# the good one')
    expect(text).toContain('# deep enough')
    const r = loadConfig(dataDir)
    expect(r.config.model).toBe('anthropic/claude')
    expect(Object.keys(r.config.providers)).toEqual(['anthropic', 'local'])
    expect(r.config.subagents).toMatchObject({ maxDepth: 3, maxConcurrent: 2 })
  })

  it('removes the model with null and fills an empty section', () => {
    fs.mkdirSync(dataDir)
    fs.writeFileSync(file, 'model: a/b\nproviders:\n')
    writeConfigValue(dataDir, { model: null, providers: { a: { type: 'anthropic' } } })
    const r = loadConfig(dataDir)
    expect(r.issues).toEqual([])
    expect(r.config.model).toBeUndefined()
    expect(r.config.providers).toEqual({ a: { type: 'anthropic' } })
  })

  it('rejects an invalid patch, naming the field, and leaves the file alone', () => {
    fs.mkdirSync(dataDir)
    fs.writeFileSync(file, 'model: a/b\n')
    expect(() => writeConfigValue(dataDir, { subagents: { maxDepth: 0 } })).toThrow('subagents.maxDepth: must be at least 1')
    expect(() => writeConfigValue(dataDir, { model: 'nomodel' })).toThrow('model: must be "provider/model"')
    expect(fs.readFileSync(file, 'utf8')).toBe('model: a/b\n')
  })

  it('refuses to overwrite a file it cannot parse', () => {
    fs.mkdirSync(dataDir)
    fs.writeFileSync(file, 'model: [a\n')
    expect(() => writeConfigValue(dataDir, { model: 'x/y' })).toThrow(/Cannot update .*config\.yaml: YAML syntax error at line \d+:\d+.*left unchanged/)
    expect(fs.readFileSync(file, 'utf8')).toBe('model: [a\n')
  })
})

describe('providers edited in place (Settings › Providers): a commented config round-trips with only the intended change', () => {
  const original = `# Agentry settings — edited by hand and by the app
model: local/qwen   # what new sessions use

providers:
  # my laptop's llama.cpp server
  local:
    type: openai-compatible
    baseURL: http://127.0.0.1:8080/v1   # port from ~/bin/serve.sh
    models:
      qwen: { contextWindow: 32768 }   # measured
  anthropic: { type: anthropic }   # key in the keychain

subagents:
  maxDepth: 3   # deep enough
`
  /** The lines removed and added, in order: what a person would see in `git diff`. */
  const changes = (before: string, after: string) =>
    diffLines(before, after)
      .filter((c) => c.added || c.removed)
      .map((c) => `${c.added ? '+' : '-'}${c.value}`)

  const cases: [string, () => void, string[]][] = [
    [
      'a new provider is appended under providers:',
      () => writeProviderEntry(dataDir, 'router', { type: 'openai-compatible', baseURL: 'https://openrouter.ai/api/v1' }),
      ['+  router:\n    type: openai-compatible\n    baseURL: https://openrouter.ai/api/v1\n'],
    ],
    [
      "an edit changes only that value, keeping the line's comment and the entry's other settings",
      () => writeProviderEntry(dataDir, 'local', { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9090/v1' }),
      ['-    baseURL: http://127.0.0.1:8080/v1   # port from ~/bin/serve.sh\n', '+    baseURL: http://127.0.0.1:9090/v1 # port from ~/bin/serve.sh\n'],
    ],
    [
      'a flow-style entry stays on its line',
      () => writeProviderEntry(dataDir, 'anthropic', { type: 'anthropic', baseURL: 'https://proxy.example/v1' }),
      ['-  anthropic: { type: anthropic }   # key in the keychain\n', '+  anthropic: { type: anthropic, baseURL: https://proxy.example/v1 } # key in the keychain\n'],
    ],
    ['removing one leaves its neighbours and their comments', () => writeConfigValue(dataDir, { providers: { anthropic: null } }), ['-  anthropic: { type: anthropic }   # key in the keychain\n']],
  ]
  it.each(cases)('%s', (_name, change, expected) => {
    fs.mkdirSync(dataDir)
    fs.writeFileSync(file, original)
    change()
    const after = fs.readFileSync(file, 'utf8')
    expect(changes(original, after)).toEqual(expected)
    expect(loadConfig(dataDir).issues).toEqual([])
  })

  it('refuses an edit that would leave the entry invalid, and leaves the file alone', () => {
    fs.mkdirSync(dataDir)
    fs.writeFileSync(file, 'providers:\n  x: { type: openai, bogus: 1 }\n')
    expect(() => writeProviderEntry(dataDir, 'x', { type: 'openai' })).toThrow(/providers\.x: unknown setting "bogus"|providers\.x.*bogus/)
    expect(fs.readFileSync(file, 'utf8')).toBe('providers:\n  x: { type: openai, bogus: 1 }\n')
  })
})
