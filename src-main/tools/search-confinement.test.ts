import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CompactPermission } from '../../src-shared'
import { BUILTIN_TOOLS } from './builtin-tools'
import { runTool } from './run-tool'
import { makeTempDir, type TestContext } from './testing/test-context'
import { rulesContext, type RulesContext } from './testing/rules-context'

// Issue 8: grep, glob and list_dir apply read_file's confinement and rules per file, judged by the real permission
// module — one workspace, every tool, from one table.

const RULES: CompactPermission = {
  '*': 'allow',
  read_file: { '*': 'allow', '*.env': 'deny', '*secret*': 'deny', 'ask-me/**': 'ask' },
}

let ctx: RulesContext
let outside: string
beforeEach(() => {
  outside = makeTempDir('agentry-outside-')
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'TOKEN=SECRET-OUTSIDE\n')
  fs.writeFileSync(path.join(outside, 'plain.txt'), 'TOKEN=SECRET-OUTSIDE-PLAIN\n')
  ctx = rulesContext(RULES)
  const w = (rel: string) => path.join(ctx.workdir, rel)
  fs.writeFileSync(w('.env'), 'TOKEN=SECRET-ENV\n')
  fs.writeFileSync(w('ok.txt'), 'TOKEN public\n')
  fs.mkdirSync(w('ask-me'))
  fs.writeFileSync(w('ask-me/file.txt'), 'TOKEN=SECRET-ASK\n')
  fs.symlinkSync(path.join(outside, 'plain.txt'), w('notes.txt'))
  fs.symlinkSync(outside, w('linked-dir'))
  fs.symlinkSync(w('ok.txt'), w('inside-link.txt'))
  fs.symlinkSync(w('.env'), w('env-link'))
})
afterEach(() => {
  ctx.cleanup()
  fs.rmSync(outside, { recursive: true, force: true })
})
const tool = (name: string) => BUILTIN_TOOLS.find((t) => t.name === name)!

const cases: Array<[string, Record<string, unknown>, string]> = [
  [
    'grep',
    { pattern: 'TOKEN' },
    [
      '2 matches in 2 files:',
      'inside-link.txt:1: TOKEN public',
      'ok.txt:1: TOKEN public',
      'Not searched, the rules do not let you read them: .env, env-link.',
      'Not searched, reading them needs approval (use read_file to ask): ask-me/file.txt.',
      'Skipped symbolic links pointing outside the workspace: linked-dir, notes.txt.',
    ].join('\n'),
  ],
  [
    'glob',
    { pattern: '**/*' },
    [
      'ask-me/file.txt',
      'inside-link.txt',
      'ok.txt',
      'Left out, the rules do not let you read them: .env, env-link.',
      'Left out, symbolic links pointing outside the workspace: linked-dir, notes.txt.',
    ].join('\n'),
  ],
  [
    'list_dir',
    {},
    [
      'ask-me/',
      'inside-link.txt',
      'ok.txt',
      'Left out, the rules do not let you read them: .env, env-link.',
      'Left out, symbolic links pointing outside the workspace: linked-dir, notes.txt.',
    ].join('\n'),
  ],
  ['grep', { pattern: 'TOKEN', path: '.env' }, 'No matches for /TOKEN/ in .env.\nNot searched, the rules do not let you read them: .env.'],
  ['grep', { pattern: 'TOKEN', path: 'env-link' }, 'No matches for /TOKEN/ in .env.\nNot searched, the rules do not let you read them: .env.'],
  ['grep', { pattern: 'TOKEN', path: 'ask-me' }, 'No matches for /TOKEN/ in ask-me.\nNot searched, reading them needs approval (use read_file to ask): ask-me/file.txt.'],
  ['grep', { pattern: 'TOKEN', path: 'notes.txt' }, 'outside'],
  ['grep', { pattern: 'TOKEN', path: 'linked-dir' }, 'outside'],
  ['glob', { pattern: '*', path: 'linked-dir' }, 'outside'],
  ['list_dir', { path: 'linked-dir' }, 'outside'],
  ['read_file', { path: 'notes.txt' }, 'outside'],
  ['read_file', { path: 'env-link' }, 'denied'],
]

describe('searches never show what read_file could not read', () => {
  it.each(cases)('%s %j', async (name, input, expected) => {
    const r = await ctx.run(tool(name), input)
    expect(r.output).not.toContain('SECRET')
    if (expected === 'outside') {
      expect(r).toMatchObject({ ok: false, output: expect.stringMatching(/^Permission denied: ".*" is outside the workspace and no rule allows that path → deny$/) })
    } else if (expected === 'denied') {
      expect(r).toMatchObject({ ok: false, output: expect.stringMatching(/^Permission denied: denied by permissions.jsonc rule read_file "\*\.env": deny/) })
    } else {
      // glob lists newest first: compare the listed names as a set, the notes in order.
      const lines = r.output.split('\n')
      const wanted = expected.split('\n')
      if (name === 'glob') expect(lines.slice(1).sort()).toEqual(wanted.sort())
      else expect(r.output).toBe(expected)
    }
  })

  it('a link whose target moves outside after the walk listed it is not read (grep proves each opened file)', async () => {
    // inside-link.txt → ok.txt passes the checks; then ok.txt becomes a link to the outside secret before the read.
    const swapping = { ...ctx, checkRules: (...args: Parameters<TestContext['checkRules']>) => {
      const verdict = ctx.checkRules(...args)
      const ok = path.join(ctx.workdir, 'ok.txt')
      if (!fs.lstatSync(ok).isSymbolicLink()) {
        fs.rmSync(ok)
        fs.symlinkSync(path.join(outside, 'secret.txt'), ok)
      }
      return verdict
    } }
    const r = await runTool(tool('grep'), { pattern: 'TOKEN', path: 'ok.txt' }, swapping)
    expect(r.output).not.toContain('SECRET')
    expect(r.output).toBe('No matches for /TOKEN/ in ok.txt.\nSkipped, replaced during the search (e.g. by a symbolic link): ok.txt.')
  })

  it('a folder swapped for a link to outside after the walk listed its files is not read from', async () => {
    fs.mkdirSync(path.join(ctx.workdir, 'd'))
    fs.writeFileSync(path.join(ctx.workdir, 'd', 'notes.txt'), 'TOKEN inside\n')
    fs.writeFileSync(path.join(outside, 'notes.txt'), 'TOKEN=SECRET-SWAPPED\n')
    const swapping = { ...ctx, checkRules: (...args: Parameters<TestContext['checkRules']>) => {
      const verdict = ctx.checkRules(...args)
      const d = path.join(ctx.workdir, 'd')
      if (!fs.lstatSync(d).isSymbolicLink()) {
        fs.renameSync(d, path.join(ctx.workdir, 'd.real'))
        fs.symlinkSync(outside, d)
      }
      return verdict
    } }
    const r = await runTool(tool('grep'), { pattern: 'TOKEN', path: 'd' }, swapping)
    expect(r.output).not.toContain('SECRET')
    expect(r.output).toBe('No matches for /TOKEN/ in d.\nSkipped, replaced during the search (e.g. by a symbolic link): d/notes.txt.')
  })
})
