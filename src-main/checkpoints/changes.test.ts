import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FileChange } from './index'
import { workspaceWithStore, writeFiles } from './testing/workspace'

const byPath = (changes: FileChange[]) => Object.fromEntries(changes.map((c) => [c.path, c]))

describe('changes(fromTree, toTree)', () => {
  it('each status with modes, counts and numbered diff lines', async () => {
    const long = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
    const { ws, store } = await workspaceWithStore({ 'edit.txt': long, 'gone.txt': 'bye\n', 'old-name.txt': 'same content\nfor a rename\n', 'run.sh': '#!/bin/sh\n' })
    const before = await store.snapshot()
    writeFiles(ws, { 'edit.txt': long.replace('line 10\n', 'line ten\n'), 'gone.txt': null, 'new.txt': 'hello\nworld' })
    fs.renameSync(path.join(ws, 'old-name.txt'), path.join(ws, 'new-name.txt'))
    fs.chmodSync(path.join(ws, 'run.sh'), 0o755)
    const after = await store.snapshot()
    const changes = await store.changes(before, after)
    expect(changes.map((c) => [c.status, c.path, c.oldPath ?? null, c.oldMode ?? null, c.newMode ?? null, c.additions, c.deletions])).toEqual([
      ['modified', 'edit.txt', null, '100644', '100644', 1, 1],
      ['deleted', 'gone.txt', null, '100644', null, 0, 1],
      ['renamed', 'new-name.txt', 'old-name.txt', '100644', '100644', 0, 0],
      ['added', 'new.txt', null, null, '100644', 2, 0],
      ['modified', 'run.sh', null, '100644', '100755', 0, 0],
    ])
    const c = byPath(changes)
    expect(c['new-name.txt'].similarity).toBe(100)
    const hunk = c['edit.txt'].hunks[0]
    expect(hunk).toMatchObject({ oldStart: 7, oldLines: 7, newStart: 7, newLines: 7 })
    expect(hunk.lines.filter((l) => l.kind !== 'context')).toEqual([
      { kind: 'delete', text: 'line 10', oldLine: 10 },
      { kind: 'add', text: 'line ten', newLine: 10 },
    ])
    expect(hunk.lines[0]).toEqual({ kind: 'context', text: 'line 7', oldLine: 7, newLine: 7 })
    expect(c['edit.txt'].patch).toMatch(/^diff --git a\/edit\.txt b\/edit\.txt\n/)
    expect(c['new.txt'].hunks[0].lines).toEqual([
      { kind: 'add', text: 'hello', newLine: 1 },
      { kind: 'add', text: 'world', newLine: 2, noNewlineAtEnd: true },
    ])
    expect(c['run.sh'].patch).toMatch(/old mode 100644\nnew mode 100755/)
    expect(changes.every((x) => !x.binary && !x.nested)).toBe(true)
    expect(await store.changes(after, after)).toEqual([])
  })

  it('binary files are named and flagged, without hunks', async () => {
    const { ws, store } = await workspaceWithStore({ 'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]) })
    const before = await store.snapshot()
    writeFiles(ws, { 'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9]) })
    const [c] = await store.changes(before, await store.snapshot())
    expect(c).toMatchObject({ path: 'img.png', status: 'modified', binary: true, hunks: [], additions: 0, deletions: 0 })
    expect(c.patch).toMatch(/Binary files a\/img\.png and b\/img\.png differ/)
  })

  it('symlinks show as mode 120000; a file turned into a symlink is one change with both modes', async () => {
    const { ws, store } = await workspaceWithStore({ 'target.txt': 't\n', 'was-file': 'plain\n' })
    const before = await store.snapshot()
    fs.symlinkSync('target.txt', path.join(ws, 'link'))
    fs.rmSync(path.join(ws, 'was-file'))
    fs.symlinkSync('target.txt', path.join(ws, 'was-file'))
    const c = byPath(await store.changes(before, await store.snapshot()))
    expect(Object.keys(c)).toEqual(['link', 'was-file'])
    expect(c.link).toMatchObject({ status: 'added', newMode: '120000' })
    expect(c.link.hunks[0].lines).toEqual([{ kind: 'add', text: 'target.txt', newLine: 1, noNewlineAtEnd: true }])
    expect(c['was-file']).toMatchObject({ status: 'modified', oldMode: '100644', newMode: '120000', additions: 1, deletions: 1 })
  })

  it('filenames with spaces, unicode, quotes, tabs and a newline come back exactly', async () => {
    const names = ['with space.txt', 'ünïcødé — 日本.md', 'quote"d.txt', 'tab\there.txt', 'new\nline.txt', 'diff --git a b.txt']
    const { ws, store } = await workspaceWithStore({ 'keep.txt': 'k\n' })
    const before = await store.snapshot()
    writeFiles(ws, Object.fromEntries(names.map((n) => [n, `content of ${n}\n`])))
    const changes = await store.changes(before, await store.snapshot())
    expect(changes.map((c) => c.path).sort()).toEqual([...names].sort())
    for (const c of changes) expect(c.hunks[0].lines.map((l) => l.text).join('\n')).toBe(`content of ${c.path}`)
  })

  it('a text file with a line that reads like a diff header stays one file', async () => {
    const { ws, store } = await workspaceWithStore({ 'a.txt': 'x\n', 'b.txt': 'y\n' })
    const before = await store.snapshot()
    writeFiles(ws, { 'a.txt': 'x\ndiff --git a/b.txt b/b.txt\n', 'b.txt': 'z\n' })
    const c = byPath(await store.changes(before, await store.snapshot()))
    expect(c['a.txt'].hunks[0].lines.at(-1)).toEqual({ kind: 'add', text: 'diff --git a/b.txt b/b.txt', newLine: 2 })
    expect(c['b.txt'].hunks[0].lines.map((l) => l.text)).toEqual(['y', 'z'])
  })

  it('refuses ids that are not snapshot ids before git sees them', async () => {
    const { store } = await workspaceWithStore({ 'a.txt': 'a\n' })
    const t = await store.snapshot()
    await expect(store.changes('--output=/tmp/x', t)).rejects.toThrow(/fromTree "--output=\/tmp\/x" is not a snapshot id/)
    await expect(store.changes(t, 'HEAD')).rejects.toThrow(/toTree "HEAD" is not a snapshot id/)
  })
})
