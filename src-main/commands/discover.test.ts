import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeMatches, discoverCommands } from './discover'
import { listCommands } from './listing'

let root: string
let home: string
let dataDir: string
let workdir: string
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
}
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cmd-discover-'))
  home = path.join(root, 'home')
  dataDir = path.join(root, 'data')
  workdir = path.join(root, 'ws')
  fs.mkdirSync(workdir, { recursive: true })
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

const discover = (trusted = true) => discoverCommands({ home, dataDir, workdir, trusted })

describe('discovery', () => {
  it('finds Claude Code and opencode commands in the person’s folders and the workspace; a subfolder namespaces', () => {
    write(path.join(home, '.claude', 'commands', 'mine.md'), '---\ndescription: Mine\n---\nDo $ARGUMENTS')
    write(path.join(dataDir, 'commands', 'data.md'), 'Plain body, no frontmatter\n')
    write(path.join(workdir, '.claude', 'commands', 'frontend', 'component.md'), '---\ndescription: Make a component\nargument-hint: [name] [kind]\nallowed-tools: Bash(git add:*), Read\nmodel: haiku\n---\nMake $1')
    write(path.join(workdir, '.opencode', 'command', 'test.md'), '---\ndescription: Run tests\nagent: build\nsubtask: true\nmodel: anthropic/claude-sonnet-4\n---\nRun !`npm test`')
    write(path.join(workdir, '.opencode', 'commands', 'x.md'), '---\ndescription: X\n---\nx')
    const set = discover()
    const byName = Object.fromEntries(set.commands.map((c) => [c.name, c]))
    expect(byName.mine).toMatchObject({ source: 'person', description: 'Mine', template: 'Do $ARGUMENTS' })
    expect(byName.data).toMatchObject({ source: 'person', description: 'Plain body, no frontmatter' })
    expect(byName['frontend:component']).toMatchObject({ source: 'workspace', argumentHint: '[name] [kind]', allowedTools: ['Bash(git add:*)', 'Read'], model: 'haiku' })
    expect(byName.test).toMatchObject({ agent: 'build', subtask: true, model: 'anthropic/claude-sonnet-4', template: 'Run !`npm test`' })
    expect(byName.x).toBeDefined()
    expect(set.errors).toEqual([])
    expect(set.commands.slice(0, 5).map((c) => c.source)).toEqual(['builtin', 'builtin', 'builtin', 'builtin', 'builtin'])
  })

  it('workspace commands wait for trust (counted, not offered); the person’s are always there', () => {
    write(path.join(home, '.claude', 'commands', 'mine.md'), 'mine')
    write(path.join(workdir, '.claude', 'commands', 'theirs.md'), 'theirs')
    const set = discover(false)
    expect(set.byName.has('mine')).toBe(true)
    expect(set.byName.has('theirs')).toBe(false)
    expect(listCommands(set).untrusted).toBe(1)
  })

  it('a workspace command replaces the person’s of the same name; a file cannot take a built-in’s name', () => {
    write(path.join(home, '.claude', 'commands', 'review.md'), '---\ndescription: mine\n---\nmine')
    write(path.join(workdir, '.claude', 'commands', 'review.md'), '---\ndescription: theirs\n---\ntheirs')
    write(path.join(workdir, '.claude', 'commands', 'help.md'), 'hijack')
    const set = discover()
    expect(set.byName.get('review')?.description).toBe('theirs')
    expect(set.byName.get('help')?.source).toBe('builtin')
    expect(set.errors).toEqual([{ file: path.join(workdir, '.claude', 'commands', 'help.md'), field: 'name', reason: '/help is a built-in command; rename the file to use it' }])
  })

  it('problems are one line naming the file, field and line; a bad field is dropped, the file still loads', () => {
    write(path.join(workdir, '.claude', 'commands', 'broken.md'), '---\ndescription: [unclosed\n---\nbody')
    write(path.join(workdir, '.claude', 'commands', 'odd.md'), '---\ndescription: ok\nsubtask: maybe\n---\nbody')
    write(path.join(workdir, '.claude', 'commands', 'colon.md'), '---\ndescription: Triggers on: review, audit\n---\nbody')
    const set = discover()
    expect(set.errors).toHaveLength(1)
    expect(set.errors[0]).toMatchObject({ file: path.join(workdir, '.claude', 'commands', 'broken.md'), field: 'frontmatter', line: expect.any(Number) })
    expect(set.byName.get('odd')).toMatchObject({ description: 'ok', warnings: [{ field: 'subtask', line: 3, reason: 'ignored: expected true or false, got "maybe"' }] })
    expect(set.byName.get('colon')).toMatchObject({ description: 'Triggers on: review, audit', warnings: [{ field: 'description', line: 2 }] })
  })

  it('close matches for a typo or a missing namespace', () => {
    expect(closeMatches('reveiw', ['review', 'help', 'frontend:component'])).toEqual(['review'])
    expect(closeMatches('component', ['review', 'frontend:component'])).toEqual(['frontend:component'])
  })
})
