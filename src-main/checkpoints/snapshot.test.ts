import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCheckpoints, storeDir } from './index'
import { personGit, tempDir, workspaceWithStore, writeFiles } from './testing/workspace'

/** The paths a snapshot holds, read from the store (not from our own API, so a wrong parse cannot hide them). */
function pathsIn(dataDir: string, ws: string, tree: string): string[] {
  const gitDir = path.join(storeDir(dataDir, ws), 'git')
  return personGit(ws, `--git-dir=${gitDir}`, 'ls-tree', '-r', '-z', '--name-only', tree).split('\0').filter(Boolean).sort()
}

describe('snapshot()', () => {
  it('records the files in a shadow store in the data dir; an unchanged workspace gives the same id, a change a new one', async () => {
    const { ws, dataDir, store } = await workspaceWithStore({ 'a.txt': 'one\n', 'src/b.ts': 'export {}\n' })
    const first = await store.snapshot()
    expect(first).toMatch(/^[0-9a-f]{40}$/)
    expect(store.dir).toBe(storeDir(dataDir, ws))
    expect(store.dir.startsWith(path.join(dataDir, 'checkpoints') + path.sep)).toBe(true)
    expect(path.basename(store.dir)).toMatch(/^[0-9a-f]{16}$/)
    expect(pathsIn(dataDir, ws, first)).toEqual(['a.txt', 'src/b.ts'])
    expect(await store.snapshot()).toBe(first)
    writeFiles(ws, { 'a.txt': 'two\n' })
    const second = await store.snapshot()
    expect(second).not.toBe(first)
    // The workspace is not a repository and did not become one.
    expect(fs.existsSync(path.join(ws, '.git'))).toBe(false)
  })

  it('leaves out .gitignore\'d folders (every level) and the repository\'s .git/info/exclude, and never .git', async () => {
    const { ws, dataDir, store } = await workspaceWithStore({
      '.gitignore': 'node_modules/\n',
      'node_modules/x/index.js': 'x\n',
      'pkg/.gitignore': '*.log\n',
      'pkg/run.log': 'log\n',
      'pkg/keep.txt': 'keep\n',
      'secret.env': 'TOKEN=1\n',
    })
    personGit(ws, 'init', '-q')
    fs.appendFileSync(path.join(ws, '.git', 'info', 'exclude'), 'secret.env\n')
    const tree = await store.snapshot()
    expect(pathsIn(dataDir, ws, tree)).toEqual(['.gitignore', 'pkg/.gitignore', 'pkg/keep.txt'])
  })

  it('a file ignored after it was recorded leaves the next snapshot (ignores as they are now)', async () => {
    const { ws, dataDir, store } = await workspaceWithStore({ 'a.txt': 'a\n', 'build/out.js': 'x\n' })
    expect(pathsIn(dataDir, ws, await store.snapshot())).toEqual(['a.txt', 'build/out.js'])
    writeFiles(ws, { '.gitignore': 'build/\n' })
    expect(pathsIn(dataDir, ws, await store.snapshot())).toEqual(['.gitignore', 'a.txt'])
  })

  it('two stores open on one workspace (a host and a CLI) never hand out a stale id', async () => {
    const { ws, dataDir, store } = await workspaceWithStore({ 'a.txt': 'a0\n' })
    const other = await openCheckpoints({ dataDir, workspace: ws })
    const t0 = await store.snapshot()
    writeFiles(ws, { 'a.txt': 'a1\n' })
    const t1 = await other.snapshot()
    expect(t1).not.toBe(t0)
    // `store` finds nothing to add (the other one added it), yet its last id is stale.
    expect(await store.snapshot()).toBe(t1)
  })

  it('info/exclude changed later: the next snapshot follows it', async () => {
    const { ws, dataDir, store } = await workspaceWithStore({ 'a.txt': 'a\n', 'b.log': 'b\n' })
    personGit(ws, 'init', '-q')
    expect(pathsIn(dataDir, ws, await store.snapshot())).toEqual(['a.txt', 'b.log'])
    fs.appendFileSync(path.join(ws, '.git', 'info', 'exclude'), '*.log\n')
    expect(pathsIn(dataDir, ws, await store.snapshot())).toEqual(['a.txt'])
  })

  it('a workspace inside a repository (a sub-folder) uses that repository\'s info/exclude', async () => {
    const repo = tempDir('repo')
    personGit(repo, 'init', '-q')
    fs.appendFileSync(path.join(repo, '.git', 'info', 'exclude'), '*.tmp\n')
    writeFiles(repo, { 'sub/a.txt': 'a\n', 'sub/b.tmp': 'b\n' })
    const dataDir = tempDir('data')
    const store = await openCheckpoints({ dataDir, workspace: path.join(repo, 'sub') })
    expect(pathsIn(dataDir, path.join(repo, 'sub'), await store.snapshot())).toEqual(['a.txt'])
  })

  it('records a nested repository with a commit as a pointer (mode 160000), leaves out one without a commit, and never their files', async () => {
    const { ws, dataDir, store } = await workspaceWithStore({ 'top.txt': 't\n', 'lib/x.txt': 'x\n', 'fresh/y.txt': 'y\n' })
    personGit(path.join(ws, 'lib'), 'init', '-q')
    personGit(path.join(ws, 'lib'), 'add', '-A')
    personGit(path.join(ws, 'lib'), 'commit', '-qm', 'lib')
    personGit(path.join(ws, 'fresh'), 'init', '-q')
    const tree = await store.snapshot()
    expect(pathsIn(dataDir, ws, tree)).toEqual(['lib', 'top.txt'])
    const gitDir = path.join(store.dir, 'git')
    expect(personGit(ws, `--git-dir=${gitDir}`, 'ls-tree', tree, 'lib')).toMatch(/^160000 commit [0-9a-f]{40}\tlib\n$/)
  })

  it('two workspaces get separate stores; the same folder by another path (a symlink) gets the same one', async () => {
    const a = await workspaceWithStore({ 'f.txt': 'a\n' })
    const dataDir = a.dataDir
    const b = tempDir('ws-b')
    writeFiles(b, { 'f.txt': 'b\n' })
    const storeB = await openCheckpoints({ dataDir, workspace: b })
    expect(storeB.dir).not.toBe(a.store.dir)
    const treeA = await a.store.snapshot()
    const treeB = await storeB.snapshot()
    expect(treeA).not.toBe(treeB)
    // B's store does not hold A's snapshot.
    await expect(storeB.changes(treeA, treeB)).rejects.toThrow(/checkpoints: git diff-tree failed/)
    const link = path.join(tempDir('links'), 'to-a')
    fs.symlinkSync(a.ws, link)
    expect((await openCheckpoints({ dataDir, workspace: link })).dir).toBe(a.store.dir)
  })

  it('a missing workspace or git says what to do', async () => {
    await expect(openCheckpoints({ dataDir: tempDir('data'), workspace: '/nonexistent/agentry-ws' })).rejects.toThrow(/^checkpoints: cannot open the workspace \/nonexistent\/agentry-ws \(ENOENT\); check that the folder exists$/)
    const { store } = await workspaceWithStore({ 'a.txt': 'a\n' })
    const saved = process.env.PATH
    process.env.PATH = tempDir('empty-path')
    try {
      await expect(store.snapshot()).rejects.toThrow(/^checkpoints need git on PATH; install git/)
    } finally {
      process.env.PATH = saved
    }
  })

  it('an inherited GIT_DIR / GIT_INDEX_FILE (a hook\'s environment) does not leak into the store\'s git', async () => {
    const { ws, store } = await workspaceWithStore({ 'a.txt': 'a\n' })
    const decoy = tempDir('decoy')
    personGit(decoy, 'init', '-q')
    const saved = { GIT_DIR: process.env.GIT_DIR, GIT_INDEX_FILE: process.env.GIT_INDEX_FILE }
    process.env.GIT_DIR = path.join(decoy, '.git')
    process.env.GIT_INDEX_FILE = path.join(decoy, '.git', 'index')
    try {
      await store.snapshot()
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
    expect(fs.existsSync(path.join(decoy, '.git', 'index'))).toBe(false)
    expect(fs.readdirSync(path.join(decoy, '.git', 'objects')).sort()).toEqual(['info', 'pack'])
    expect(fs.existsSync(path.join(ws, '.git'))).toBe(false)
  })
})
