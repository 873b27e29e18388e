import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../testing/harness'
import { FileFinder } from './file-finder'

/**
 * The composer's `@` finder over the bridge (issue 28): `files.find` lists a workspace's files — .gitignore
 * respected, .git and node_modules skipped, nothing outside the workspace — fuzzy-ranked, and cached briefly.
 */
let h: Harness | undefined
const temps: string[] = []
afterEach(async () => {
  await h?.close()
  h = undefined
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true })
})

function tree(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'finder-')))
  temps.push(root)
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
    fs.writeFileSync(path.join(root, rel), text)
  }
  return root
}

const paths = (r: { files: { path: string }[] }) => r.files.map((f) => f.path)

describe('files.find', () => {
  it('ranks a subsequence match: `cmpsr` finds src/composer.tsx first, with the matched characters', async () => {
    h = await createHarness({
      files: {
        'src/composer.tsx': 'x',
        'src/components/composer/composer-help.test.tsx': 'x',
        'src/compare-users.ts': 'x',
        'docs/compressor.md': 'x',
        'README.md': 'x',
      },
    })
    const r = await h.host.api.calls['files.find']({ workspaceRoot: h.workdir, query: 'cmpsr' })
    expect(paths(r)[0]).toBe('src/composer.tsx')
    expect(paths(r)).not.toContain('README.md')
    expect(r.files[0].positions.map((i) => 'src/composer.tsx'[i]).join('')).toBe('cmpsr')
    expect(r.truncated).toBe(false)
    // By session: its workspace.
    const { session } = await h.host.api.calls['sessions.create']({ workspaceRoot: h.workdir })
    const bySession = await h.host.api.calls['files.find']({ sessionId: session.id, query: 'readme', limit: 3 })
    expect(paths(bySession)).toEqual(['README.md'])
  })

  it('respects .gitignore (root and nested), skips .git and node_modules, and lists nothing outside the workspace', async () => {
    const outside = tree({ 'secret-notes.md': 'x' })
    h = await createHarness({
      files: {
        '.gitignore': 'dist/\n*.log\n',
        'src/app.ts': 'x',
        'dist/app.js': 'x',
        'debug.log': 'x',
        'pkg/.gitignore': 'generated.ts\n',
        'pkg/generated.ts': 'x',
        'pkg/kept.ts': 'x',
        '.git/config': 'x',
        'node_modules/app/index.js': 'x',
      },
    })
    fs.symlinkSync(path.join(outside, 'secret-notes.md'), path.join(h.workdir, 'notes-link.md'))
    const all = paths(await h.host.api.calls['files.find']({ workspaceRoot: h.workdir, query: '', limit: 200 }))
    expect(all.sort()).toEqual(['.gitignore', 'pkg/.gitignore', 'pkg/kept.ts', 'src/app.ts'])
    expect(paths(await h.host.api.calls['files.find']({ workspaceRoot: h.workdir, query: 'app' }))).toEqual(['src/app.ts'])
    expect(paths(await h.host.api.calls['files.find']({ workspaceRoot: h.workdir, query: 'secret' }))).toEqual([])
  })

  it('refuses a call naming neither or both of workspaceRoot and sessionId, and a folder that does not exist', async () => {
    h = await createHarness({})
    const { BridgeCalls } = await import('../../src-shared')
    expect(BridgeCalls['files.find'].input.safeParse({ query: 'a' }).success).toBe(false)
    expect(BridgeCalls['files.find'].input.safeParse({ query: 'a', workspaceRoot: '/x', sessionId: 's' }).success).toBe(false)
    await expect(h.host.api.calls['files.find']({ workspaceRoot: path.join(h.workdir, 'nope'), query: 'a' })).rejects.toThrow(/does not exist/)
  })
})

describe('FileFinder', () => {
  it('walks a workspace once while its listing is fresh, and again after it expires', async () => {
    const root = tree({ 'a.ts': 'x' })
    let now = 0
    const finder = new FileFinder({ ttlMs: 1000, now: () => now })
    expect(paths(await finder.find(root, 'b', 10))).toEqual([])
    fs.writeFileSync(path.join(root, 'b.ts'), 'x')
    now = 500
    expect(paths(await finder.find(root, 'b', 10))).toEqual([])
    now = 1500
    expect(paths(await finder.find(root, 'b', 10))).toEqual(['b.ts'])
  })

  it('caps the files walked and says the list was cut', async () => {
    const root = tree(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, 'x'])))
    const finder = new FileFinder({ maxFiles: 10 })
    const r = await finder.find(root, 'f', 50)
    expect(r.files).toHaveLength(10)
    expect(r.truncated).toBe(true)
  })
})
