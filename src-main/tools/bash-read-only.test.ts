import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadShellGrammar } from '../permissions'
import { bashReadOnly } from './bash-read-only'
import { makeTempDir } from './testing/test-context'

/**
 * Issue 28: the bash tool marks a read-only line only when every file it may read is inside the workspace (symlinks
 * resolved). Reading outside (`cat ~/.ssh/id_rsa`, `cat /etc/shadow`, `cat ../x`, a link out) asks as before.
 */
let workdir: string
let outside: string

beforeAll(async () => {
  await loadShellGrammar()
  workdir = makeTempDir()
  outside = makeTempDir('agentry-outside-')
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'x')
  fs.mkdirSync(path.join(workdir, 'src'))
  fs.writeFileSync(path.join(workdir, 'src', 'a.ts'), 'x')
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workdir, 'link.txt'))
  fs.symlinkSync(outside, path.join(workdir, 'linkdir'))
})
afterAll(() => {
  fs.rmSync(workdir, { recursive: true, force: true })
  fs.rmSync(outside, { recursive: true, force: true })
})

describe('bashReadOnly', () => {
  it.each([
    ['ls', []],
    ['ls src', ['src', 'src/*']],
    ['cat src/a.ts', ['src/a.ts']],
    ['cat ./src/a.ts | wc -l', ['src/a.ts']],
    ['git diff -- src', ['diff', 'src']],
    ['grep -rn foo src', ['foo', 'src', 'src/*']],
  ])('%j is read-only, reading %j', (line, reads) => {
    expect(bashReadOnly(line, workdir)).toEqual({ reads: expect.arrayContaining(reads as string[]) })
  })

  it.each([
    'cat ~/.ssh/id_rsa',
    'cat /etc/shadow',
    `cat ${os.homedir()}/.ssh/id_rsa`,
    'cat ../secret.txt',
    'cat src/../../secret.txt',
    'cat link.txt',
    'ls linkdir/',
    'cat linkdir/secret.txt',
    'grep -r KEY /etc',
    'grep -f /etc/shadow src/a.ts',
    'grep -f/etc/shadow src/a.ts',
    'wc --files0-from=/etc/list',
    'cat < /etc/shadow',
    'git diff src /etc/shadow',
    'ls /',
    'ls ../*',
    'echo hi > out.txt',
  ])('%j is not (it reads outside the workspace, or writes)', (line) => {
    expect(bashReadOnly(line, workdir)).toBeUndefined()
  })
})
