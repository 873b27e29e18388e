import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from './testing/test-context'
import { resolveWorkspacePath } from './workspace-path'

let root: string
let elsewhere: string
beforeEach(() => {
  root = makeTempDir('agentry-ws-')
  elsewhere = makeTempDir('agentry-elsewhere-')
  fs.mkdirSync(path.join(root, 'src/lib'), { recursive: true })
  fs.writeFileSync(path.join(root, 'src/lib/a.ts'), 'x')
  fs.writeFileSync(path.join(elsewhere, 'secret.txt'), 'top secret')
})
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true })
  fs.rmSync(elsewhere, { recursive: true, force: true })
})

describe('resolveWorkspacePath', () => {
  it('keeps a normal nested path inside, relative to the workdir', () => {
    expect(resolveWorkspacePath(root, 'src/lib/a.ts')).toEqual({ abs: path.join(root, 'src/lib/a.ts'), rel: 'src/lib/a.ts', outside: false })
    expect(resolveWorkspacePath(root, './src/../src/lib')).toMatchObject({ rel: 'src/lib', outside: false })
    expect(resolveWorkspacePath(root, '.')).toMatchObject({ abs: root, rel: '.', outside: false })
  })

  it('treats a not-yet-existing nested path inside the workspace as inside', () => {
    expect(resolveWorkspacePath(root, 'new/deep/file.md')).toMatchObject({ abs: path.join(root, 'new/deep/file.md'), rel: 'new/deep/file.md', outside: false })
  })

  it('flags ../x as outside', () => {
    const r = resolveWorkspacePath(root, '../x')
    expect(r.outside).toBe(true)
    expect(r.abs).toBe(path.join(path.dirname(root), 'x'))
  })

  it('flags an absolute path like /etc/passwd as outside', () => {
    expect(resolveWorkspacePath(root, '/etc/passwd')).toMatchObject({ abs: '/etc/passwd', outside: true })
  })

  it('accepts an absolute path that lies inside the workspace', () => {
    expect(resolveWorkspacePath(root, path.join(root, 'src'))).toMatchObject({ rel: 'src', outside: false })
  })

  it('sees through a symlinked directory that points outside', () => {
    fs.symlinkSync(elsewhere, path.join(root, 'linkdir'))
    const r = resolveWorkspacePath(root, 'linkdir/secret.txt')
    expect(r).toMatchObject({ abs: path.join(elsewhere, 'secret.txt'), outside: true })
    // A file that does not exist yet under the link is outside too.
    expect(resolveWorkspacePath(root, 'linkdir/new/file.txt').outside).toBe(true)
  })

  it('sees through a symlinked file that points outside', () => {
    fs.symlinkSync(path.join(elsewhere, 'secret.txt'), path.join(root, 'innocent.txt'))
    expect(resolveWorkspacePath(root, 'innocent.txt')).toMatchObject({ abs: path.join(elsewhere, 'secret.txt'), outside: true })
  })

  it('follows a dangling symlink to its outside target', () => {
    fs.symlinkSync(path.join(elsewhere, 'not-yet.txt'), path.join(root, 'dangling.txt'))
    expect(resolveWorkspacePath(root, 'dangling.txt')).toMatchObject({ abs: path.join(elsewhere, 'not-yet.txt'), outside: true })
  })

  it('keeps symlinks that stay inside the workspace inside', () => {
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'alias'))
    expect(resolveWorkspacePath(root, 'alias/lib/a.ts')).toMatchObject({ rel: 'src/lib/a.ts', outside: false })
  })

  it('does not mistake a name starting with ".." for a parent reference', () => {
    expect(resolveWorkspacePath(root, '..hidden')).toMatchObject({ rel: '..hidden', outside: false })
  })

  it('realpaths the workdir itself, so a symlinked workdir still works', () => {
    const linkRoot = path.join(elsewhere, 'ws-link')
    fs.symlinkSync(root, linkRoot)
    expect(resolveWorkspacePath(linkRoot, 'src/lib/a.ts')).toMatchObject({ rel: 'src/lib/a.ts', outside: false })
  })
})
