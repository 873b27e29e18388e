import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { aliasBomb } from '../config/testing/yaml-bombs'
import { AgentRegistry } from './index'

let root: string
let dataDir: string
let workdir: string
let registry: AgentRegistry

const manifest = (description: string, extra = '') => `---\ndescription: ${description}\n${extra}---\nPrompt for ${description}.\n`

function put(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
  return file
}
const userFile = (name: string) => path.join(dataDir, 'agents', name)
const projectFile = (name: string) => path.join(workdir, '.agents', 'agents', name)
const claudeFile = (name: string) => path.join(workdir, '.claude', 'agents', name)

/** Resolves with the workdirs reported by onChange once `count` calls arrived (or rejects after `ms`). */
function changes(count = 1, ms = 3000): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const seen: string[] = []
    const timer = setTimeout(() => {
      off()
      reject(new Error(`onChange fired ${seen.length} of ${count} times`))
    }, ms)
    const off = registry.onChange((wd) => {
      seen.push(wd)
      if (seen.length < count) return
      clearTimeout(timer)
      off()
      resolve(seen)
    })
  })
}

const settle = () => new Promise((r) => setTimeout(r, 150))

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-agents-')))
  dataDir = path.join(root, 'data')
  workdir = path.join(root, 'work')
  fs.mkdirSync(dataDir)
  fs.mkdirSync(workdir)
  registry = new AgentRegistry({ dataDir })
})
afterEach(() => {
  registry.dispose()
  fs.rmSync(root, { recursive: true, force: true })
})

describe('AgentRegistry.resolve', () => {
  it('gives the built-ins when no folder exists', () => {
    const r = registry.resolve(workdir)
    expect(r.agents.map((a) => a.name)).toEqual(['build', 'plan', 'general', 'explore', 'title', 'summary', 'compaction'])
    expect(r.errors).toEqual([])
    expect(r.byName.get('explore')?.source.kind).toBe('builtin')
  })

  it('lets project replace user replace builtin, by name', () => {
    put(userFile('explore.md'), manifest('user explore'))
    put(userFile('helper.md'), manifest('user helper'))
    put(userFile('reviewer.md'), manifest('user reviewer'))
    put(projectFile('reviewer.md'), manifest('project reviewer', 'mode: subagent\n'))
    put(projectFile('build.md'), manifest('project build', 'mode: primary\n'))
    const r = registry.resolve(workdir)
    expect(r.errors).toEqual([])
    expect(r.byName.get('explore')).toMatchObject({ description: 'user explore', source: { kind: 'user', file: userFile('explore.md') } })
    expect(r.byName.get('helper')?.source.kind).toBe('user')
    expect(r.byName.get('reviewer')).toMatchObject({ description: 'project reviewer', mode: 'subagent', source: { kind: 'project' } })
    expect(r.byName.get('build')).toMatchObject({ description: 'project build', source: { file: projectFile('build.md') } })
    // an override keeps its place; new agents follow in source order
    expect(r.agents.map((a) => a.name)).toEqual(['build', 'plan', 'general', 'explore', 'title', 'summary', 'compaction', 'helper', 'reviewer'])
  })

  it('skips bad files with their errors and keeps loading the rest', () => {
    put(userFile('good.md'), manifest('fine'))
    put(userFile('broken.md'), '---\ndescription: [oops\n---\n')
    put(projectFile('nodesc.md'), '---\nmode: subagent\n---\n')
    put(projectFile('explore.md'), manifest('bad override', 'mode: sometimes\n'))
    const r = registry.resolve(workdir)
    expect(r.agents.map((a) => a.name)).toContain('good')
    expect(r.byName.has('broken')).toBe(false)
    expect(r.byName.has('nodesc')).toBe(false)
    // a failed override leaves the built-in in place
    expect(r.byName.get('explore')?.source.kind).toBe('builtin')
    expect(r.errors.map((e) => [path.basename(e.file), e.field])).toEqual([
      ['broken.md', 'frontmatter'],
      ['explore.md', 'mode'],
      ['nodesc.md', 'description'],
    ])
  })

  it('loads a second file with a used name under its file name, with a warning; errors when that is taken too', () => {
    put(projectFile('a.md'), manifest('first', 'name: twin\n'))
    put(projectFile('b.md'), manifest('second', 'name: twin\n'))
    // x.md claims "y", which y.md (named like its agent) owns: x.md gives way, though it comes first.
    put(projectFile('x.md'), manifest('third', 'name: y\n'))
    put(projectFile('y.md'), manifest('fourth'))
    put(projectFile('sub/y.md'), manifest('fifth'))
    const r = registry.resolve(workdir)
    expect(r.byName.get('twin')?.description).toBe('first')
    expect(r.byName.get('b')).toMatchObject({ description: 'second', displayName: 'twin' })
    expect(r.byName.get('b')?.warnings).toEqual([{ field: 'name', reason: 'the name "twin" is already used by a.md; loaded as "b" (the file name); give it a name: of its own' }])
    expect(r.byName.get('y')?.description).toBe('fifth')
    expect(r.byName.get('x')?.description).toBe('third')
    expect(r.errors).toEqual([{ file: projectFile('y.md'), field: 'name', reason: 'duplicate agent name "y", already defined in sub/y.md: rename one of them' }])
  })

  it('reads subfolders recursively and ignores non-.md files', () => {
    put(projectFile('notes.txt'), 'not an agent')
    put(projectFile('draft.md.bak'), manifest('backup'))
    put(projectFile('nested/deep/inner.md'), manifest('nested'))
    fs.mkdirSync(projectFile('folder.md'))
    put(projectFile('real.md'), manifest('real'))
    const r = registry.resolve(workdir)
    expect(r.errors).toEqual([])
    expect(r.agents.filter((a) => a.source.kind === 'project').map((a) => a.name)).toEqual(['inner', 'real'])
    expect(r.folders).toEqual([{ dir: path.join(workdir, '.agents', 'agents'), kind: 'project', format: 'agentry', status: 'read', files: 2 }])
  })

  it('reads .claude/agents as Claude Code files: subagents unless they say otherwise', () => {
    put(claudeFile('reviewer.md'), manifest('reviews', 'tools: Read, Grep\nmodel: sonnet\n'))
    put(claudeFile('lead.md'), manifest('leads', 'mode: primary\n'))
    const r = registry.resolve(workdir)
    expect(r.byName.get('reviewer')).toMatchObject({ mode: 'subagent', model: 'sonnet', source: { kind: 'project', format: 'claude' } })
    expect(r.byName.get('lead')?.mode).toBe('primary')
  })

  it('reads .opencode/agent and .opencode/agents (recursively) besides the first-wins folder', () => {
    put(projectFile('mine.md'), manifest('mine'))
    put(path.join(workdir, '.opencode', 'agent', 'one.md'), manifest('one', 'tools: { bash: false }\n'))
    put(path.join(workdir, '.opencode', 'agents', 'team', 'two.md'), manifest('two'))
    const r = registry.resolve(workdir)
    expect(r.agents.filter((a) => a.source.kind === 'project').map((a) => [a.name, a.source.format])).toEqual([
      ['mine', 'agentry'],
      ['one', 'opencode'],
      ['two', 'opencode'],
    ])
  })

  it.each([
    ['with files of its own', true],
    ['empty', false],
  ])('reports .claude/agents as shadowed when .agents/agents exists (%s)', (_label, withFiles) => {
    put(claudeFile('a.md'), manifest('a'))
    put(claudeFile('sub/b.md'), manifest('b'))
    fs.mkdirSync(path.join(workdir, '.agents', 'agents'), { recursive: true })
    if (withFiles) put(projectFile('own.md'), manifest('own'))
    const r = registry.resolve(workdir)
    expect(r.byName.has('a')).toBe(false)
    expect(r.folders).toEqual([
      { dir: path.join(workdir, '.agents', 'agents'), kind: 'project', format: 'agentry', status: 'read', files: withFiles ? 1 : 0 },
      { dir: path.join(workdir, '.claude', 'agents'), kind: 'project', format: 'claude', status: 'shadowed', files: 2, shadowedBy: path.join(workdir, '.agents', 'agents') },
    ])
  })

  it('reads the same set of folders in the data dir: agents/, else .claude/agents/, and .opencode/agent(s)/', () => {
    put(path.join(dataDir, '.claude', 'agents', 'c.md'), manifest('claude user agent'))
    put(path.join(dataDir, '.opencode', 'agents', 'o.md'), manifest('opencode user agent'))
    let r = registry.resolve(workdir)
    expect(r.byName.get('c')).toMatchObject({ mode: 'subagent', source: { kind: 'user', format: 'claude' } })
    expect(r.byName.get('o')?.source.kind).toBe('user')
    put(userFile('u.md'), manifest('own user agent'))
    r = registry.resolve(workdir)
    expect(r.byName.has('c')).toBe(false)
    expect(r.byName.has('u')).toBe(true)
    expect(r.folders.find((f) => f.status === 'shadowed')).toMatchObject({ kind: 'user', dir: path.join(dataDir, '.claude', 'agents'), files: 1 })
  })

  it('loads an agent named like a built-in, with a notice; a project agent over a user one says so too', () => {
    put(projectFile('explore.md'), manifest('my explore'))
    put(userFile('helper.md'), manifest('user helper'))
    put(projectFile('helper.md'), manifest('project helper'))
    const r = registry.resolve(workdir)
    expect(r.byName.get('explore')?.warnings).toEqual([{ field: 'name', reason: 'replaces the built-in agent "explore"; rename this file\'s agent to keep both' }])
    expect(r.byName.get('helper')?.warnings).toEqual([{ field: 'name', reason: `replaces the user agent in ${userFile('helper.md')}; rename this file's agent to keep both` }])
  })

  it('disable: true removes an agent (a built-in too, but never the default one) and lists it', () => {
    put(path.join(workdir, '.opencode', 'agent', 'plan.md'), manifest('off', 'disable: true\n'))
    put(path.join(workdir, '.opencode', 'agent', 'build.md'), manifest('off', 'disable: true\n'))
    const r = registry.resolve(workdir)
    expect(r.byName.has('plan')).toBe(false)
    expect(r.byName.get('build')?.source.kind).toBe('builtin')
    expect(r.disabled.map((d) => d.name)).toEqual(['build', 'plan'])
  })

  it('skips a file with an alias bomb, naming its line, and keeps everything else working', () => {
    put(projectFile('bomb.md'), `---\ndescription: boom\n${aliasBomb()}---\n`)
    put(projectFile('fine.md'), manifest('fine'))
    const r = registry.resolve(workdir)
    expect(r.byName.has('fine')).toBe(true)
    expect(r.errors).toEqual([{ file: projectFile('bomb.md'), field: 'frontmatter', line: 4, reason: expect.stringMatching(/^YAML refused at line 4:\d+: aliases/) }])
  })

  it('uses .claude/agents only when .agents/agents does not exist', () => {
    put(claudeFile('claude-only.md'), manifest('from claude'))
    expect(registry.resolve(workdir).byName.get('claude-only')?.source.kind).toBe('project')
    fs.mkdirSync(path.join(workdir, '.agents', 'agents'), { recursive: true })
    // an existing but empty .agents/agents wins: the .claude folder is no longer read
    expect(registry.resolve(workdir).byName.has('claude-only')).toBe(false)
  })

  it('reuses the cached manifests while nothing changed', () => {
    put(projectFile('same.md'), manifest('same'))
    const first = registry.resolve(workdir).byName.get('same')
    expect(registry.resolve(workdir).byName.get('same')).toBe(first)
  })
})

describe('AgentRegistry hot reload', () => {
  it('add, modify and remove take effect on the next resolve', () => {
    registry.resolve(workdir)
    const file = put(projectFile('fresh.md'), manifest('version one'))
    expect(registry.resolve(workdir).byName.get('fresh')?.description).toBe('version one')
    put(file, manifest('version two, longer'))
    expect(registry.resolve(workdir).byName.get('fresh')?.description).toBe('version two, longer')
    fs.rmSync(file)
    expect(registry.resolve(workdir).byName.has('fresh')).toBe(false)
  })

  it('stays correct without watchers (readdir + mtime check)', () => {
    registry.dispose()
    put(userFile('late.md'), manifest('late'))
    expect(registry.resolve(workdir).byName.get('late')?.source.kind).toBe('user')
    fs.rmSync(userFile('late.md'))
    expect(registry.resolve(workdir).byName.has('late')).toBe(false)
  })

  it('notices a same-size rewrite through the watcher', async () => {
    // same length and the same mtime on both versions, so only the watcher can tell them apart
    const when = new Date('2024-01-01T00:00:00Z')
    const file = put(projectFile('quick.md'), manifest('aaaa'))
    fs.utimesSync(file, when, when)
    expect(registry.resolve(workdir).byName.get('quick')?.description).toBe('aaaa')
    await settle()
    const changed = changes()
    fs.writeFileSync(file, manifest('bbbb'))
    fs.utimesSync(file, when, when)
    expect(await changed).toEqual([workdir])
    expect(registry.resolve(workdir).byName.get('quick')?.description).toBe('bbbb')
  })

  it('fires onChange (debounced) with the workdir for project changes', async () => {
    registry.resolve(workdir)
    fs.mkdirSync(path.join(workdir, '.agents', 'agents'), { recursive: true })
    await changes()
    await settle()
    let calls = 0
    const off = registry.onChange(() => calls++)
    for (let i = 0; i < 5; i++) put(projectFile(`burst${i}.md`), manifest(`burst ${i}`))
    // However slow the machine: first the burst is reported, then any late report of it would have arrived.
    const end = Date.now() + 10_000
    while (calls === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
    await settle()
    off()
    expect(calls).toBeGreaterThanOrEqual(1)
    expect(calls).toBeLessThan(5) // five writes, coalesced
    expect(registry.resolve(workdir).agents.filter((a) => a.name.startsWith('burst'))).toHaveLength(5)
  })

  it('switches from .claude/agents to .agents/agents created later, and says so', async () => {
    put(claudeFile('old.md'), manifest('old'))
    expect(registry.resolve(workdir).byName.has('old')).toBe(true)
    const changed = changes()
    put(projectFile('new.md'), manifest('new'))
    expect(await changed).toContain(workdir)
    const r = registry.resolve(workdir)
    expect(r.byName.has('new')).toBe(true)
    expect(r.byName.has('old')).toBe(false)
  })

  it('notifies every resolved workdir when a user agent changes, including a folder created later', async () => {
    const other = path.join(root, 'other')
    fs.mkdirSync(other)
    registry.resolve(workdir)
    registry.resolve(other)
    const changed = changes(2)
    put(userFile('mine.md'), manifest('mine'))
    expect((await changed).sort()).toEqual([other, workdir].sort())
    expect(registry.resolve(other).byName.get('mine')?.source.kind).toBe('user')
  })

  it('notices a file added in a subfolder, and in .opencode/agents', async () => {
    put(projectFile('top.md'), manifest('top'))
    registry.resolve(workdir)
    await settle()
    let changed = changes()
    put(projectFile('team/deep.md'), manifest('deep'))
    expect(await changed).toEqual([workdir])
    expect(registry.resolve(workdir).byName.has('deep')).toBe(true)
    await settle()
    // a second file in that (now watched) subfolder
    changed = changes()
    put(projectFile('team/deeper.md'), manifest('deeper'))
    expect(await changed).toEqual([workdir])
    expect(registry.resolve(workdir).byName.has('deeper')).toBe(true)
    changed = changes()
    put(path.join(workdir, '.opencode', 'agents', 'oc.md'), manifest('oc'))
    expect(await changed).toEqual([workdir])
    expect(registry.resolve(workdir).byName.has('oc')).toBe(true)
  })

  it('notices a watched folder deleted and re-created', async () => {
    put(projectFile('one.md'), manifest('one'))
    registry.resolve(workdir)
    fs.rmSync(path.join(workdir, '.agents'), { recursive: true })
    await changes()
    expect(registry.resolve(workdir).byName.has('one')).toBe(false)
    await settle()
    const changed = changes()
    put(projectFile('two.md'), manifest('two'))
    await changed
    await settle()
    const again = changes()
    put(projectFile('three.md'), manifest('three'))
    await again
    expect(registry.resolve(workdir).agents.filter((a) => a.source.kind === 'project').map((a) => a.name)).toEqual(['three', 'two'])
  })

  it('stops notifying after dispose or unsubscribe', async () => {
    registry.resolve(workdir)
    let calls = 0
    const off = registry.onChange(() => calls++)
    off()
    put(projectFile('x.md'), manifest('x'))
    await settle()
    expect(calls).toBe(0)
    registry.onChange(() => calls++)
    registry.dispose()
    put(projectFile('y.md'), manifest('y'))
    await settle()
    expect(calls).toBe(0)
    expect(registry.resolve(workdir).byName.has('y')).toBe(true)
  })
})
