/**
 * Every file of the commands corpus (`test-corpora/commands/`: real Claude Code and opencode command collections,
 * byte for byte) copied into the folder its host reads, then discovered by the real loader. Per collection: how many
 * load (≥ 99%; the rest with a one-line error naming file and line), and each loaded command keeps its author's
 * intent — description, argument hint, agent, model, subtask, the template — compared with what a strict YAML
 * parser reads from the same file where it can.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { discoverCommands } from './discover'

const CORPUS = fileURLToPath(new URL('../../test-corpora/commands/', import.meta.url))
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-commands-corpus-')))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

function markdown(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.md')).sort()
}

const collections = fs.readdirSync(CORPUS).filter((c) => fs.statSync(path.join(CORPUS, c)).isDirectory()).sort()

describe.each(collections)('commands corpus: %s', (collection) => {
  const host = collection.startsWith('claude-') ? 'claude' : 'opencode'
  const workdir = path.join(root, collection)
  const folder = host === 'claude' ? path.join(workdir, '.claude', 'commands') : path.join(workdir, '.opencode', 'command')
  const files = markdown(path.join(CORPUS, collection))
  for (const rel of files) {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true })
    fs.copyFileSync(path.join(CORPUS, collection, rel), path.join(folder, rel))
  }
  const set = discoverCommands({ home: path.join(root, 'home'), dataDir: path.join(root, 'data'), workdir, trusted: true })
  const loaded = set.commands.filter((c) => c.source === 'workspace')

  it('loads at least 99% of the files; each failure is one line naming the file', () => {
    const rate = loaded.length / files.length
    console.log(`${collection}: ${loaded.length}/${files.length} loaded (${(rate * 100).toFixed(1)}%), ${loaded.filter((c) => c.warnings.length).length} with warnings, ${set.errors.length} errors${set.errors.map((e) => `\n  ${e.file}:${e.line ?? ''} ${e.field ?? ''}: ${e.reason}`).join('')}`)
    expect(files.length).toBeGreaterThan(10)
    expect(rate).toBeGreaterThanOrEqual(0.99)
    expect(loaded.length + set.errors.length).toBe(files.length)
    for (const e of set.errors) expect(e.reason).not.toMatch(/\n/)
  })

  it('keeps what the author wrote: name from the path, description, argument hint, agent, model, subtask, template', () => {
    for (const rel of files) {
      const name = rel.replace(/\.md$/, '').split(path.sep).join(':')
      const command = set.byName.get(name)
      if (!command) continue
      const text = fs.readFileSync(path.join(CORPUS, collection, rel), 'utf8')
      const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*\r?\n?([\s\S]*)$/.exec(text)
      if (!m) {
        expect(command.template, rel).toBe(text.trim())
        continue
      }
      let strict: Record<string, unknown> | undefined
      try {
        strict = (YAML.parse(m[1]) ?? {}) as Record<string, unknown>
      } catch {
        strict = undefined
      }
      expect(command.template, rel).toBe(m[2].replace(/\r\n/g, '\n').trim())
      if (!strict) continue
      if (typeof strict.description === 'string' && strict.description.trim()) expect(command.description, rel).toBe(strict.description.trim())
      if (typeof strict.agent === 'string') expect(command.agent, rel).toBe(strict.agent)
      if (typeof strict.model === 'string') expect(command.model, rel).toBe(strict.model)
      if (typeof strict.subtask === 'boolean') expect(command.subtask, rel).toBe(strict.subtask)
      const hint = /^argument-hint:[ \t]*(.*?)[ \t]*$/m.exec(m[1])?.[1]
      if (hint) expect(command.argumentHint, rel).toBe(hint.startsWith('[') ? hint : String(strict['argument-hint']))
    }
  })
})
