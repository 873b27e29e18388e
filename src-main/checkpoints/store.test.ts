import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fingerprint, personGit, workspaceWithStore, writeFiles } from './testing/workspace'

describe('kept snapshots: keep, kept, keys, forget, prune, sizeBytes', () => {
  it('keys hold snapshots; forget drops a key and what is under it; prune then frees their files', async () => {
    const big = (seed: string) => Array.from({ length: 40_000 }, (_, i) => `${seed} ${i} ${(i * 7919) % 10007}`).join('\n')
    const { ws, store } = await workspaceWithStore({ 'a.txt': 'a0\n' })
    const t0 = await store.snapshot()
    writeFiles(ws, { 'big.txt': big('one') })
    const t1 = await store.snapshot()
    writeFiles(ws, { 'big.txt': big('two') })
    const t2 = await store.snapshot()
    await store.keep('ses_1/turn-1/before', t0)
    await store.keep('ses_1/turn-1/after', t1)
    await store.keep('ses_10/turn-1/after', t2)
    expect(await store.kept('ses_1/turn-1/after')).toBe(t1)
    expect(await store.kept('ses_1/turn-9')).toBeUndefined()
    expect(await store.keys('ses_1')).toEqual([
      { key: 'ses_1/turn-1/after', tree: t1 },
      { key: 'ses_1/turn-1/before', tree: t0 },
    ])
    expect((await store.keys()).map((k) => k.key)).toEqual(['ses_1/turn-1/after', 'ses_1/turn-1/before', 'ses_10/turn-1/after'])

    // Everything kept survives a prune.
    await store.prune()
    expect((await store.changes(t0, t1)).map((c) => c.path)).toEqual(['big.txt'])
    expect(await store.sizeBytes()).toBeGreaterThan(100_000)

    // "ses_1" is not a prefix of "ses_10".
    expect(await store.forget('ses_1')).toBe(2)
    expect((await store.keys()).map((k) => k.key)).toEqual(['ses_10/turn-1/after'])
    expect(await store.forget('ses_1')).toBe(0)
    // Move the workspace (and so the shadow index) off t1's content, then prune: t1's big file is gone.
    writeFiles(ws, { 'big.txt': null })
    await store.snapshot()
    await store.forget('ses_10')
    const { beforeBytes, afterBytes } = await store.prune()
    expect(afterBytes).toBeLessThan(beforeBytes / 2)
    expect(await store.sizeBytes()).toBe(afterBytes)
    await expect(store.changes(t0, t1)).rejects.toThrow(/checkpoints: git diff-tree failed/)
  })

  it('refuses keys that are not plain names', async () => {
    const { store } = await workspaceWithStore({ 'a.txt': 'a\n' })
    const t = await store.snapshot()
    for (const key of ['', '../x', 'a/../b', 'a b', '-x', 'a//b', 'x.lock', 'refs/heads/../x', 'a\nb']) {
      await expect(store.keep(key, t), key).rejects.toThrow(/is not a usable key/)
    }
    await expect(store.keep('ok', 'not-a-tree')).rejects.toThrow(/is not a snapshot id/)
  })
})

describe('a workspace that is the person\'s repository', () => {
  it('its .git stays byte-identical through snapshots, keep, changes, restore, forget and prune', async () => {
    const { ws, store } = await workspaceWithStore({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'c.txt': 'c0\n' })
    personGit(ws, 'init', '-q', '-b', 'main')
    personGit(ws, 'add', '-A')
    personGit(ws, 'commit', '-qm', 'start')
    personGit(ws, 'branch', 'feature')
    writeFiles(ws, { 'a.txt': 'stashed\n' })
    personGit(ws, 'stash', '-q')
    writeFiles(ws, { 'b.txt': 'staged\n', 'c.txt': 'unstaged\n', 'd.txt': 'untracked\n' })
    personGit(ws, 'add', 'b.txt')
    const dotGit = path.join(ws, '.git')
    const gitBefore = fingerprint(dotGit)
    const statusBefore = personGit(ws, 'status', '--porcelain')

    const t0 = await store.snapshot()
    writeFiles(ws, { 'b.txt': 'agent\n', 'e.txt': 'agent made\n' })
    const t1 = await store.snapshot()
    await store.keep('s/1/before', t0)
    await store.keep('s/1/after', t1)
    expect((await store.changes(t0, t1)).map((c) => `${c.status} ${c.path}`)).toEqual(['modified b.txt', 'added e.txt'])
    expect((await store.restore(t0, { expected: t1 })).ok).toBe(true)
    await store.forget('s')
    await store.prune()

    expect(fingerprint(dotGit)).toEqual(gitBefore)
    expect(personGit(ws, 'status', '--porcelain')).toBe(statusBefore)
    expect(personGit(ws, 'stash', 'list')).toMatch(/^stash@\{0\}/)
    expect(personGit(ws, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/feature\nrefs/heads/main\nrefs/stash\n')
    // The shadow store holds no ref of the person's and they hold none of ours.
    expect(fs.existsSync(path.join(dotGit, 'refs', 'checkpoints'))).toBe(false)
  })
})
