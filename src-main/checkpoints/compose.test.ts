import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fingerprint, read, workspaceWithStore, writeFiles } from './testing/workspace'

describe('compose and restorePaths: each file to its own before', () => {
  it('composes a snapshot from another with paths set or removed, without touching the shadow index', async () => {
    const { ws, store } = await workspaceWithStore({ 'a.txt': 'a0\n', 'dir/b.txt': 'b0\n', 'c.txt': 'c0\n' })
    const s0 = await store.snapshot()
    writeFiles(ws, { 'a.txt': 'a1\n', 'dir/b.txt': null, 'new.txt': 'n\n' })
    const s1 = await store.snapshot()
    const a0 = (await store.entries(s0, ['a.txt'])).get('a.txt')!
    // s1 with a.txt as in s0, new.txt removed, and a file where the folder `dir` was
    const composed = await store.compose(s1, [
      { path: 'a.txt', entry: a0 },
      { path: 'new.txt', entry: null },
      { path: 'dir', entry: a0 },
    ])
    const got = await store.entries(composed, ['a.txt', 'new.txt', 'dir', 'c.txt'])
    expect(got.get('a.txt')).toEqual(a0)
    expect(got.has('new.txt')).toBe(false)
    expect(got.get('dir')).toEqual(a0)
    expect(got.has('c.txt')).toBe(true)
    // the next snapshot still sees the disk as it is (the shadow index was not replaced)
    expect(await store.snapshot()).toBe(s1)
  })

  it('restorePaths puts each file back to its own entry and keeps what the person did to other files', async () => {
    const { ws, store } = await workspaceWithStore({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'mine.txt': 'm0\n' })
    const t1before = await store.snapshot()
    writeFiles(ws, { 'a.txt': 'a1\n' }) // turn 1
    const t1after = await store.snapshot()
    writeFiles(ws, { 'mine.txt': 'm1 by the person\n' }) // between turns
    const t2before = await store.snapshot()
    writeFiles(ws, { 'b.txt': null, 'c.txt': 'c2\n' }) // turn 2
    const t2after = await store.snapshot()
    const [a0, a1] = [(await store.entries(t1before, ['a.txt'])).get('a.txt')!, (await store.entries(t1after, ['a.txt'])).get('a.txt')!]
    const b0 = (await store.entries(t2before, ['b.txt'])).get('b.txt')!
    const c2 = (await store.entries(t2after, ['c.txt'])).get('c.txt')!
    const r = await store.restorePaths([
      { path: 'a.txt', expected: a1, target: a0 },
      { path: 'b.txt', expected: null, target: b0 },
      { path: 'c.txt', expected: c2, target: null },
    ])
    expect(r).toMatchObject({ ok: true, conflicts: [] })
    expect(read(ws, 'a.txt')).toBe('a0\n')
    expect(read(ws, 'b.txt')).toBe('b0\n')
    expect(fs.existsSync(path.join(ws, 'c.txt'))).toBe(false)
    expect(read(ws, 'mine.txt')).toBe('m1 by the person\n')
  })

  it('restorePaths refuses, writing nothing, when one file is not as expected', async () => {
    const { ws, store } = await workspaceWithStore({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' })
    const before = await store.snapshot()
    writeFiles(ws, { 'a.txt': 'a1\n', 'b.txt': 'b1\n' })
    const after = await store.snapshot()
    writeFiles(ws, { 'b.txt': 'b2 by the person\n' })
    const print = fingerprint(ws)
    const e0 = await store.entries(before, ['a.txt', 'b.txt'])
    const e1 = await store.entries(after, ['a.txt', 'b.txt'])
    const r = await store.restorePaths(['a.txt', 'b.txt'].map((p) => ({ path: p, expected: e1.get(p)!, target: e0.get(p)! })))
    expect(r.ok).toBe(false)
    expect(r.conflicts).toEqual([expect.objectContaining({ path: 'b.txt', reason: 'changed since' })])
    expect(fingerprint(ws)).toEqual(print)
  })
})
