import fs from 'node:fs'
import path from 'node:path'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { Config } from '../../src-shared'
import { createFileKeyStore, ModelConfigError, ModelStreamError, parseScript, resolveModel, streamWithRetry } from './index'
import { aliasBomb } from '../config/testing/yaml-bombs'
import { readAll, tempDir, textOf, toolCallsOf, afterTools, userPrompt } from './testing/test-support'

function writeScript(yaml: string): string {
  const file = path.join(tempDir(), 'script.yaml')
  fs.writeFileSync(file, yaml)
  return file
}

function scriptModel(file: string, agentName = 'build'): LanguageModelV4 {
  const dir = tempDir()
  return resolveModel(
    { provider: 'script', model: 'test' },
    { config: Config.parse({}), configDir: dir, keys: createFileKeyStore(dir), env: { AGENTRY_SCRIPT: file }, agentName },
  )
}

async function streamOf(model: LanguageModelV4, prompt = userPrompt('hi'), signal?: AbortSignal) {
  const { stream } = await model.doStream({ prompt, abortSignal: signal })
  return readAll(stream)
}

const BASIC = `
agents:
  build:
    - text: "Looking around the repo."
      tools:
        - { name: list_dir, input: { path: "." } }
        - { name: read_file, input: { path: "README.md" } }
    - text: "Done."
  explore:
    - match: "auth"
      text: "Found auth in src/auth.ts"
    - text: "Nothing special."
  "*":
    - text: "fallback reply"
usage: { input: 10, output: 5 }
`

describe('script model', () => {
  it('streams text split on spaces, then tool calls, in order', async () => {
    const model = scriptModel(writeScript(BASIC))
    const parts = await streamOf(model)
    const deltas = parts.filter((p) => p.type === 'text-delta').map((p) => (p.type === 'text-delta' ? p.delta : ''))
    expect(deltas).toEqual(['Looking ', 'around ', 'the ', 'repo.'])
    expect(toolCallsOf(parts).map((c) => [c.name, c.input])).toEqual([
      ['list_dir', { path: '.' }],
      ['read_file', { path: 'README.md' }],
    ])
    const finish = parts.at(-1)
    expect(finish?.type === 'finish' && finish.finishReason.unified).toBe('tool-calls')
    expect(finish?.type === 'finish' && finish.usage.inputTokens.total).toBe(10)
    // The next call for the same agent consumes the next reply.
    expect(textOf(await streamOf(model))).toBe('Done.')
  })

  it('chooses the first unused reply whose match is in the last user message', async () => {
    const file = writeScript(BASIC)
    const explore = scriptModel(file, 'explore')
    expect(textOf(await streamOf(explore, userPrompt('list the files')))).toBe('Nothing special.')
    expect(textOf(await streamOf(explore, userPrompt('where is the auth code?')))).toBe('Found auth in src/auth.ts')
  })

  it('gives every agent without its own list a pass through "*"', async () => {
    const file = writeScript(BASIC)
    expect(textOf(await streamOf(scriptModel(file, 'title')))).toBe('fallback reply')
    expect(textOf(await streamOf(scriptModel(file, 'summary')))).toBe('fallback reply')
  })

  it('tracks consumed replies per file across model instances', async () => {
    const file = writeScript(BASIC)
    await streamOf(scriptModel(file, 'build'))
    expect(textOf(await streamOf(scriptModel(file, 'build')))).toBe('Done.')
  })

  it('reports an exhausted agent with the file, the agent and the call number', async () => {
    const file = writeScript(BASIC)
    const model = scriptModel(file, 'build')
    await streamOf(model)
    await streamOf(model)
    const error = await model.doStream({ prompt: userPrompt('again') }).then(() => undefined, (e: unknown) => e)
    expect(ModelConfigError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe(`script ${file}: no reply left for agent "build" (call #3). Add another entry under agents.build.`)
  })

  it('supports step and repeat so parallel subagents each get a two-step answer', async () => {
    const file = writeScript(`
agents:
  explore:
    - { step: 1, repeat: true, tools: [ { name: list_dir, input: { path: "." } } ] }
    - { step: 2, repeat: true, text: "Listed." }
`)
    const model = scriptModel(file, 'explore')
    for (let i = 0; i < 3; i++) expect(toolCallsOf(await streamOf(model))[0].name).toBe('list_dir')
    const step2 = afterTools('survey', [{ id: 'c1', name: 'list_dir', input: { path: '.' }, output: 'a.txt' }])
    expect(textOf(await streamOf(model, step2))).toBe('Listed.')
  })

  it('streams reasoning and honours finish: length', async () => {
    const model = scriptModel(writeScript(`agents: { build: [ { reasoning: "think first", text: "cut off", finish: length } ] }`))
    const parts = await streamOf(model)
    expect(parts.filter((p) => p.type === 'reasoning-delta').map((p) => (p.type === 'reasoning-delta' ? p.delta : '')).join('')).toBe('think first')
    const finish = parts.at(-1)
    expect(finish?.type === 'finish' && finish.finishReason.unified).toBe('length')
  })

  it('waits delayMs and chunkDelayMs, and an abort during the delay rejects promptly', async () => {
    const file = writeScript(`agents: { build: [ { text: "a b c", delayMs: 60, chunkDelayMs: 20 }, { text: "slow", delayMs: 10000 } ] }`)
    const model = scriptModel(file)
    const t0 = Date.now()
    expect(textOf(await streamOf(model))).toBe('a b c')
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100)

    const controller = new AbortController()
    setTimeout(() => controller.abort(), 30)
    const t1 = Date.now()
    const error = await model.doStream({ prompt: userPrompt('x'), abortSignal: controller.signal }).then(() => undefined, (e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
    expect(Date.now() - t1).toBeLessThan(8_000) // the abort cut the 10 s delay short
  })

  it('an abort between chunks errors the stream with an AbortError', async () => {
    const model = scriptModel(writeScript(`agents: { build: [ { text: "one two three four five six", chunkDelayMs: 40 } ] }`))
    const controller = new AbortController()
    const { stream } = await model.doStream({ prompt: userPrompt('x'), abortSignal: controller.signal })
    setTimeout(() => controller.abort(), 60)
    const error = await readAll(stream).then(() => undefined, (e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
  })

  it('scripted errors drive the retry logic: 429 is retried, then the next reply streams', async () => {
    const model = scriptModel(writeScript(`
agents:
  build:
    - error: { status: 429, message: "rate limited" }
    - text: "after retry"
`))
    const retries: string[] = []
    const stream = await streamWithRetry(model, { prompt: userPrompt('x') }, {
      signal: new AbortController().signal,
      onRetry: (info) => retries.push(info.error),
      baseDelayMs: 1,
    })
    expect(textOf(await readAll(stream))).toBe('after retry')
    expect(retries).toEqual(['rate limited (HTTP 429)'])
  })

  it('a scripted 400 is not retried', async () => {
    const model = scriptModel(writeScript(`agents: { build: [ { error: { status: 400, message: "bad request" } }, { text: "x" } ] }`))
    const error = await streamWithRetry(model, { prompt: userPrompt('x') }, { signal: new AbortController().signal, onRetry: () => {}, baseDelayMs: 1 }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(ModelStreamError.isInstance(error)).toBe(true)
    expect((error as Error).message).toMatch(/^provider "script" failed: bad request/)
  })

  it('doGenerate returns the same reply as content', async () => {
    const model = scriptModel(writeScript(BASIC))
    const result = await model.doGenerate({ prompt: userPrompt('x') })
    expect(result.content.map((c) => c.type)).toEqual(['text', 'tool-call', 'tool-call'])
    expect(result.content[0]).toMatchObject({ type: 'text', text: 'Looking around the repo.' })
  })
})

describe('the documented example', () => {
  it('parses the example from SCRIPT.md unchanged', () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, 'SCRIPT.md'), 'utf8')
    const example = /```yaml\n([\s\S]*?)```/.exec(doc)?.[1]
    expect(example).toBeDefined()
    const script = parseScript(example ?? '', 'SCRIPT.md')
    expect(Object.keys(script.agents)).toEqual(['build', 'explore', '*'])
  })
})

describe('bad script files', () => {
  const attempt = (yaml: string) => {
    const file = writeScript(yaml)
    try {
      scriptModel(file)
    } catch (e) {
      expect(ModelConfigError.isInstance(e)).toBe(true)
      return { file, message: (e as Error).message }
    }
    throw new Error('expected the script to be rejected')
  }

  it('names the file and the field path of a wrong type', () => {
    const { file, message } = attempt(`agents: { build: [ { text: "ok" }, { tools: [ { name: 5 } ] } ] }`)
    expect(message).toContain(`script ${file}: agents.build[1].tools[0].name:`)
  })

  it('rejects unknown fields (typos) by name', () => {
    const { message } = attempt(`agents: { build: [ { txt: "ok" } ] }`)
    expect(message).toMatch(/agents\.build\[0\]\.txt: unknown key/)
  })

  it('rejects a reply with nothing to say', () => {
    const { message } = attempt(`agents: { build: [ { delayMs: 5 } ] }`)
    expect(message).toContain('agents.build[0]: a reply needs at least one of text, reasoning, tools or error')
  })

  it('reports invalid YAML with its position', () => {
    const { file, message } = attempt(`agents:\n  build: [ { text: "unclosed ]\n`)
    expect(message).toMatch(new RegExp(`^script ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: YAML syntax error at line \\d+`))
  })

  it('refuses an alias bomb and names the file and line, without expanding it', () => {
    const { file, message } = attempt(`${aliasBomb()}agents: {}\n`)
    expect(message).toMatch(new RegExp(`^script ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: YAML refused at line 2:\\d+: aliases`))
  })

  it('reports a missing file and how to fix it', () => {
    const missing = path.join(tempDir(), 'nope.yaml')
    expect(() => scriptModel(missing)).toThrow(`script ${missing}: cannot read the file (ENOENT). Point AGENTRY_SCRIPT`)
  })
})
