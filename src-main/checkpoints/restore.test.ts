import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fingerprint, read, tempDir, workspaceWithStore, writeFiles } from './testing/workspace'

describe('restore(target, { expected, paths })', () => {
  it('round trip: edits, new files, deletions, renames, binary files, +x, symlinks and folders come back exactly', async () => {
    const { ws, store } = await workspaceWithStore({
      'edit.txt': 'one\ntwo\n',
      'gone/deep/file.txt': 'deleted later\n',
      'rename-me.txt': 'moving\n',
      'bin.dat': Buffer.from([0, 1, 2, 255, 254, 13, 10]),
      'tool.sh': '#!/bin/sh\necho hi\n',
      'crlf.txt': 'a\r\nb\r\n',
      '.gitattributes': '*.txt text eol=lf\n',
    })
    fs.chmodSync(path.join(ws, 'tool.sh'), 0o755)
    fs.symlinkSync('edit.txt', path.join(ws, 'link-to-edit'))
    const before = await store.snapshot()
    const original = fingerprint(ws)

    writeFiles(ws, { 'edit.txt': 'one\nTWO\n', 'new/made.txt': 'new\n', 'bin.dat': Buffer.from([9, 9]), 'crlf.txt': 'a\nb\n' })
    fs.rmSync(path.join(ws, 'gone'), { recursive: true })
    fs.renameSync(path.join(ws, 'rename-me.txt'), path.join(ws, 'renamed.txt'))
    fs.chmodSync(path.join(ws, 'tool.sh'), 0o644)
    fs.rmSync(path.join(ws, 'link-to-edit'))
    fs.symlinkSync('bin.dat', path.join(ws, 'link-to-edit'))
    const after = await store.snapshot()
    expect(fingerprint(ws)).not.toEqual(original)

    const r = await store.restore(before, { expected: after })
    expect(r).toMatchObject({ ok: true, conflicts: [], skipped: [] })
    expect(fingerprint(ws)).toEqual(original)
    expect(r.written.map((w) => `${w.action} ${w.path}`).sort()).toEqual(
      ['deleted new/made.txt', 'deleted renamed.txt', 'wrote bin.dat', 'wrote crlf.txt', 'wrote edit.txt', 'wrote gone/deep/file.txt', 'wrote link-to-edit', 'wrote rename-me.txt', 'wrote tool.sh'].sort(),
    )
    expect(fs.readlinkSync(path.join(ws, 'link-to-edit'))).toBe('edit.txt')
    // The recorded bytes, not what .gitattributes would check out.
    expect(read(ws, 'crlf.txt')).toBe('a\r\nb\r\n')
    // And forward again (redo): the workspace is `before` now.
    const redo = await store.restore(after, { expected: before })
    expect(redo.ok).toBe(true)
    expect(await store.snapshot()).toBe(after)
  })

  it('refuses when the person changed, deleted or created a file since `expected`, and writes nothing at all', async () => {
    const { ws, store } = await workspaceWithStore({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'c.txt': 'c0\n', '.gitignore': '*.local\n' })
    const before = await store.snapshot()
    writeFiles(ws, { 'a.txt': 'a1\n', 'b.txt': 'b1\n', 'c.txt': null, 'd.txt': 'd1\n', 'e.local': null })
    const after = await store.snapshot()
    // The person, meanwhile:
    writeFiles(ws, { 'a.txt': 'mine\n', 'c.txt': 'recreated\n', 'd.txt': null, 'e.local': 'ignored but mine\n' })
    const now = fingerprint(ws)
    const r = await store.restore(before, { expected: after })
    expect(r.ok).toBe(false)
    expect(r.written).toEqual([])
    expect(r.conflicts.map((c) => [c.path, c.reason])).toEqual([
      ['a.txt', 'changed since'],
      ['c.txt', 'created since'],
      ['d.txt', 'deleted since'],
    ])
    expect(r.conflicts[0].detail).toBe('a.txt was changed since the snapshot')
    expect(fingerprint(ws)).toEqual(now)
    // b.txt alone has no conflict: that much can be taken back.
    const one = await store.restore(before, { expected: after, paths: ['b.txt'] })
    expect(one).toMatchObject({ ok: true, written: [{ path: 'b.txt', action: 'wrote' }] })
    expect(read(ws, 'b.txt')).toBe('b0\n')
    expect(read(ws, 'a.txt')).toBe('mine\n')
  })

  it('an ignored file the restore would create is a conflict, not overwritten', async () => {
    const { ws, store } = await workspaceWithStore({ 'out.txt': 'recorded\n' })
    const before = await store.snapshot()
    writeFiles(ws, { 'out.txt': null })
    const after = await store.snapshot()
    writeFiles(ws, { '.gitignore': 'out.txt\n', 'out.txt': 'made by the person, ignored\n' })
    const r = await store.restore(before, { expected: after, paths: ['out.txt'] })
    expect(r.conflicts.map((c) => [c.path, c.reason])).toEqual([['out.txt', 'created since']])
    expect(read(ws, 'out.txt')).toBe('made by the person, ignored\n')
  })

  it('a subset of paths: files and folders; the rest stays as it is', async () => {
    const { ws, store } = await workspaceWithStore({ 'src/a.ts': 'a0\n', 'src/deep/b.ts': 'b0\n', 'src-other.ts': 'o0\n', 'top.txt': 't0\n' })
    const before = await store.snapshot()
    writeFiles(ws, { 'src/a.ts': 'a1\n', 'src/deep/b.ts': 'b1\n', 'src-other.ts': 'o1\n', 'top.txt': 't1\n' })
    const after = await store.snapshot()
    const r = await store.restore(before, { expected: after, paths: ['src'] })
    expect(r.written.map((w) => w.path).sort()).toEqual(['src/a.ts', 'src/deep/b.ts'])
    expect([read(ws, 'src/a.ts'), read(ws, 'src/deep/b.ts'), read(ws, 'src-other.ts'), read(ws, 'top.txt')]).toEqual(['a0\n', 'b0\n', 'o1\n', 't1\n'])
  })

  it('a file and a folder trade places', async () => {
    const { ws, store } = await workspaceWithStore({ 'thing/inner.txt': 'inner\n' })
    const before = await store.snapshot()
    fs.rmSync(path.join(ws, 'thing'), { recursive: true })
    writeFiles(ws, { thing: 'now a file\n' })
    const after = await store.snapshot()
    expect((await store.restore(before, { expected: after })).ok).toBe(true)
    expect(read(ws, 'thing/inner.txt')).toBe('inner\n')
    expect((await store.restore(after, { expected: before })).ok).toBe(true)
    expect(read(ws, 'thing')).toBe('now a file\n')
  })

  it('names with spaces, unicode and a newline are restored', async () => {
    const names = ['a b.txt', 'ü/日本 語.md', 'new\nline.txt']
    const { ws, store } = await workspaceWithStore(Object.fromEntries(names.map((n) => [n, `v0 ${n}`])))
    const before = await store.snapshot()
    writeFiles(ws, Object.fromEntries(names.map((n) => [n, `v1 ${n}`])))
    const after = await store.snapshot()
    expect((await store.restore(before, { expected: after })).written.map((w) => w.path).sort()).toEqual([...names].sort())
    for (const n of names) expect(read(ws, n)).toBe(`v0 ${n}`)
  })

  it('refuses paths outside the workspace or inside .git before writing anything', async () => {
    const { ws, store } = await workspaceWithStore({ 'a.txt': 'a0\n' })
    const before = await store.snapshot()
    writeFiles(ws, { 'a.txt': 'a1\n' })
    const after = await store.snapshot()
    for (const [p, why] of [
      ['../escape.txt', /leaves the workspace/],
      ['sub/../../escape.txt', /leaves the workspace/],
      ['/etc/passwd', /it is absolute/],
      ['.git/config', /inside a \.git folder/],
      ['sub/.GIT/hooks/pre-commit', /inside a \.git folder/],
      ['', /it is empty/],
    ] as const) {
      await expect(store.restore(before, { expected: after, paths: ['a.txt', p] })).rejects.toThrow(why)
    }
    expect(read(ws, 'a.txt')).toBe('a1\n')
  })

  it('never writes through a symlinked folder (one pointing outside the workspace is refused)', async () => {
    const outside = tempDir('outside')
    const { ws, store } = await workspaceWithStore({ 'dir/f.txt': 'f0\n' })
    const before = await store.snapshot()
    writeFiles(ws, { 'dir/f.txt': null })
    const after = await store.snapshot()
    // Someone replaces the (now empty) folder with a symlink to a folder outside.
    fs.rmSync(path.join(ws, 'dir'), { recursive: true, force: true })
    fs.symlinkSync(outside, path.join(ws, 'dir'))
    // The snapshot sees the symlink: one conflict per path, the first reason found.
    expect((await store.restore(before, { expected: after })).conflicts).toEqual([{ path: 'dir/f.txt', reason: 'created since', detail: 'dir was created since the snapshot' }])
    // Ignored, only the disk shows it.
    writeFiles(ws, { '.gitignore': 'dir\n' })
    const r = await store.restore(before, { expected: after })
    expect(r.ok).toBe(false)
    expect(r.conflicts).toEqual([{ path: 'dir/f.txt', reason: 'unsafe', detail: 'dir is a symlink; restoring through it could write outside the workspace' }])
    expect(fs.readdirSync(outside)).toEqual([])
  })

  it('a symlink the run put where a folder was is replaced by the folder again; nothing lands where it pointed', async () => {
    const outside = tempDir('outside')
    const { ws, store } = await workspaceWithStore({ 'd/f.txt': 'f0\n' })
    const before = await store.snapshot()
    fs.rmSync(path.join(ws, 'd'), { recursive: true })
    fs.symlinkSync(outside, path.join(ws, 'd'))
    const after = await store.snapshot()
    const r = await store.restore(before, { expected: after })
    expect(r).toMatchObject({ ok: true, conflicts: [] })
    expect(r.written.map((w) => `${w.action} ${w.path}`)).toEqual(['deleted d', 'wrote d/f.txt'])
    expect(fs.lstatSync(path.join(ws, 'd')).isDirectory()).toBe(true)
    expect(read(ws, 'd/f.txt')).toBe('f0\n')
    expect(fs.readdirSync(outside)).toEqual([])
  })

  it('nothing to do: an empty result; ids that are not snapshots are refused', async () => {
    const { store } = await workspaceWithStore({ 'a.txt': 'a\n' })
    const t = await store.snapshot()
    expect(await store.restore(t, { expected: t })).toEqual({ ok: true, written: [], conflicts: [], skipped: [] })
    await expect(store.restore('main', { expected: t })).rejects.toThrow(/target "main" is not a snapshot id/)
  })
})
