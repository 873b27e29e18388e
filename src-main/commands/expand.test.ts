import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expandCommand, splitArguments, type ShellOutcome } from './expand'

let dir: string
let outside: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cmd-expand-'))
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cmd-outside-'))
  fs.mkdirSync(path.join(dir, 'src'))
  fs.writeFileSync(path.join(dir, 'src', 'a.ts'), 'export const a = 1\n')
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET')
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
  fs.rmSync(outside, { recursive: true, force: true })
})

const noShell = async (_command: string): Promise<ShellOutcome> => ({ ok: false, message: 'no shell in this test' })
const expand = (template: string, args: string, runShell = noShell) => expandCommand(template, args, { workdir: dir, runShell })

describe('arguments', () => {
  it('$ARGUMENTS is everything after the name, exactly', async () => {
    expect(await expand('Fix issue $ARGUMENTS now.', '#123  with "two  spaces"')).toEqual({ ok: true, text: 'Fix issue #123  with "two  spaces" now.' })
  })

  it('$1…$9 are the words; quotes group; a missing one is empty', async () => {
    expect(await expand('pr=$1 prio=$2 who=$3 none=[$4]', '456 "high priority" \'ann b\'')).toEqual({ ok: true, text: 'pr=456 prio=high priority who=ann b none=[]' })
    expect(splitArguments(`a "b \\"c\\"" 'd e'  f`)).toEqual(['a', 'b "c"', 'd e', 'f'])
  })

  it('arguments the template never names are appended, never dropped (as Claude Code does)', async () => {
    expect(await expand('Review the code.', 'focus on errors')).toEqual({ ok: true, text: 'Review the code.\n\nARGUMENTS: focus on errors' })
    expect(await expand('Review the code.', '')).toEqual({ ok: true, text: 'Review the code.' })
  })

  it('text the person typed is not scanned for @files or shell lines', async () => {
    let ran = 0
    const shell = async (): Promise<ShellOutcome> => (ran++, { ok: true, output: 'x' })
    const r = await expand('Do: $ARGUMENTS', '@../secret.txt !`rm -rf /`', shell)
    expect(r).toEqual({ ok: true, text: 'Do: @../secret.txt !`rm -rf /`' })
    expect(ran).toBe(0)
  })
})

describe('@file references', () => {
  it('inline a workspace file, also one named by an argument', async () => {
    const r = await expand('Look at @src/a.ts and @$1.', 'src/a.ts')
    expect(r.ok && r.text).toBe('Look at \n<file path="src/a.ts">\nexport const a = 1\n</file>\n and \n<file path="src/a.ts">\nexport const a = 1\n</file>\n.')
  })

  it('a missing file is a clear error', async () => {
    expect(await expand('See @src/missing.ts', '')).toEqual({ ok: false, message: `@src/missing.ts: no such file in the workspace (${fs.realpathSync(dir)})` })
  })

  it('are confined to the workspace: ../ and a symlink out are refused', async () => {
    const rel = path.relative(dir, path.join(outside, 'secret.txt'))
    const up = await expand(`See @${rel}`, '')
    expect(up.ok).toBe(false)
    expect(!up.ok && up.message).toMatch(/outside the workspace/)
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'))
    const link = await expand('See @link.txt', '')
    expect(!link.ok && link.message).toMatch(/^@link\.txt: outside the workspace/)
  })

  it('an e-mail address or a decorator is not a reference', async () => {
    expect(await expand('Mail me@example.com about @Component', '')).toEqual({ ok: true, text: 'Mail me@example.com about @Component' })
  })
})

describe('!`shell` lines', () => {
  it('run through the host port with arguments filled in; the output is inlined', async () => {
    const seen: string[] = []
    const shell = async (c: string): Promise<ShellOutcome> => (seen.push(c), { ok: true, output: `out of ${c}\n\n` })
    expect(await expand('Status: !`git status`\nDiff: !`git diff $1`', 'main', shell)).toEqual({ ok: true, text: 'Status: out of git status\nDiff: out of git diff main' })
    expect(seen).toEqual(['git status', 'git diff main'])
  })

  it('a denied line fails the whole expansion, naming the line and why', async () => {
    const denied = async (): Promise<ShellOutcome> => ({ ok: false, message: 'Permission denied: bash rm * is denied' })
    expect(await expand('x !`rm -rf build` y', '', denied)).toEqual({ ok: false, message: 'the shell line `rm -rf build` did not run: Permission denied: bash rm * is denied' })
  })
})
