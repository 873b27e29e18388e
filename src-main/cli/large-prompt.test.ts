import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentry, buildCli, tempDir, writeFiles } from './testing/cli-process'

/**
 * Issue 28, bug 4: people paste logs. A 200 KB prompt was refused (and crashed a host attached over the bridge); an
 * argument is capped at 128 KB by Linux anyway. Prompts of a few MB are taken whole — piped in, or with `-` — and a
 * message larger than the model's context window is refused before any request, with the sizes.
 */
beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})

function scene(contextWindow?: number) {
  const home = tempDir('cli-big-home')
  const work = tempDir('cli-big-work')
  made.push(home, work)
  const script = path.join(home, 'script.yaml')
  writeFiles(home, { 'script.yaml': { agents: { build: [{ text: 'Read it all.', repeat: true }], '*': [{ text: 'Log', repeat: true }] } } })
  const models = contextWindow ? { models: { x: { contextWindow } } } : {}
  writeFiles(home, { 'config.yaml': { model: 'script/x', providers: { script: { type: 'script', script, ...models } } } })
  const file = (name: string, text: string) => {
    fs.writeFileSync(path.join(home, name), text)
    return path.join(home, name)
  }
  return { home, work, file }
}

/** A log of `kb` kilobytes (ASCII: one character a byte). */
const log = (kb: number) => Array.from({ length: Math.ceil((kb * 1024) / 64) }, (_, i) => `${String(i).padStart(8, '0')} ERROR something failed in module x.y.z\n`.padEnd(64, '.')).join('').slice(0, kb * 1024)

const storedUserText = async (s: ReturnType<typeof scene>, stdout: string): Promise<string> => {
  const id = /session (ses_\w+)/.exec(stdout)?.[1]
  expect(id, stdout).toBeDefined()
  const shown = await agentry(['show', id!, '--json'], { home: s.home, cwd: s.work })
  const messages = (JSON.parse(shown.stdout) as { messages: { role: string; parts: { type: string; data: { text?: string } }[] }[] }).messages
  return messages.find((m) => m.role === 'user')!.parts.map((p) => p.data.text ?? '').join('')
}

describe('large prompts in agentry run', () => {
  it('a 300 KB log piped after the question is sent and stored whole', async () => {
    const s = scene()
    const text = log(300)
    const r = await agentry(['run', 'why does this fail?'], { home: s.home, cwd: s.work, stdinFile: s.file('build.log', text) })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('Read it all.')
    expect(await storedUserText(s, r.stdout + r.stderr)).toBe(`why does this fail?\n\n${text.replace(/\s+$/, '')}`)
  }, 60_000)

  it('`-` takes a 2 MB prompt from stdin; nothing piped to `-` is a one-line usage error', async () => {
    const s = scene()
    const text = log(2048)
    const r = await agentry(['run', '-'], { home: s.home, cwd: s.work, stdinFile: s.file('prompt.txt', text) })
    expect(r.code, r.stderr).toBe(0)
    expect((await storedUserText(s, r.stdout + r.stderr)).length).toBe(text.trim().length)
    const empty = await agentry(['run', '-'], { home: s.home, cwd: s.work, stdinFile: s.file('empty.txt', '') })
    expect(empty.code).toBe(2)
    expect(empty.stderr.trim()).toBe('agentry run -: nothing came on stdin; pipe the prompt in, e.g. agentry run - < prompt.txt')
  }, 60_000)

  it('a message larger than the model context window is refused before any request, with the sizes; no stack trace', async () => {
    const s = scene(20_000)
    const r = await agentry(['run', '-'], { home: s.home, cwd: s.work, stdinFile: s.file('huge.txt', log(200)) })
    expect(r.code).toBe(1)
    expect(r.stdout + r.stderr).toMatch(/Your message is about 5\d,\d{3} tokens, more than script\/x can read at once \(20,000 tokens\): nothing was sent\./)
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /)
    expect(r.stdout).not.toContain('Read it all.')
  }, 60_000)
})
