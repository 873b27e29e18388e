import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { createGrepTool, grepTool, MAX_GREP_MATCHES } from './grep'
import { runTool } from './run-tool'
import { makeContext, type TestContext } from './testing/test-context'
import { contextsPerTest } from './testing/contexts'
import { withoutStall } from './testing/event-loop'

// Issue 9: "grep that cannot hang" — a linear-time engine off the event loop, a cap that stops reading, .gitignore,
// a time budget; against real files and the real worker thread.

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const setup = contextsPerTest()
/** `count` files spread over `dirs` folders, written without a mkdir per file (thousands of them). */
function manyFiles(ctx: TestContext, count: number, dirs: number, content: (i: number) => string): void {
  for (let d = 0; d < dirs; d++) fs.mkdirSync(path.join(ctx.workdir, `d${d}`))
  for (let i = 0; i < count; i++) fs.writeFileSync(path.join(ctx.workdir, `d${i % dirs}`, `f${i}.txt`), content(i))
}
const grep = (input: Record<string, unknown>, ctx: TestContext) => runTool(grepTool, input, ctx)

beforeAll(async () => {
  // A running host has a warm worker after its first grep; the timings below are about the search, not thread start.
  await grep({ pattern: 'warm' }, setup({ 'a.txt': 'warm\n' }))
})

describe('patterns', () => {
  it('the catastrophic (a+)+$ on a 30-character line returns at once, with a clear result', async () => {
    const ctx = setup({ 'evil.txt': `${'a'.repeat(29)}!\n${'a'.repeat(30)}\n` })
    const r = await grep({ pattern: '(a+)+$' }, ctx)
    expect(r).toMatchObject({ ok: true, output: `1 match in 1 file:\nevil.txt:2: ${'a'.repeat(30)}` })
    // A backtracking engine needs ~2^30 steps here (minutes); RE2's linear time is milliseconds. The bound leaves room
    // for a machine busy with other work (331 ms was seen at load 4.7 on 2 cores) and still fails the backtracker.
    expect(r.durationMs).toBeLessThan(2_000)
  })

  it.each([
    ['(?=a)b', 'lookahead'],
    ['a(?!b)', 'negative lookahead'],
    ['(?<=a)b', 'lookbehind'],
    ['(?<!a)b', 'negative lookbehind'],
    ['(a)\\1', 'backreference'],
    ['(?<n>a)\\k<n>', 'named backreference'],
  ])('%s (%s) is refused with a clear error', async (pattern) => {
    const r = await grep({ pattern }, setup({ 'a.txt': 'ab\n' }))
    expect(r.ok).toBe(false)
    expect(r.output).toMatch(/^pattern uses lookahead, lookbehind or a backreference, which grep's linear-time regex engine \(RE2\) does not support; search for the plain part of it/)
  })

  it.each([
    ['\\u0041BC', 'ABC'],
    ['(?<word>A)B', 'AB'],
    ['\\bfoo\\b', 'a foo b'],
    ['(?i)HELLO', 'say hello'],
    ['é', 'café'],
    ['\\p{Greek}+', 'αβγ'],
    ['a.c$', 'abc'],
    ['\\\\1', '\\1'],
    ['[(?=]x', '(x'],
  ])('%s matches %s (JavaScript spellings and Unicode)', async (pattern, line) => {
    const r = await grep({ pattern }, setup({ 'f.txt': `nothing\n${line}\n` }))
    expect(r.output).toBe(`1 match in 1 file:\nf.txt:2: ${line}`)
  })

  it('matches $ at the end of CRLF lines, numbers lines right, and finds no line in an empty file', async () => {
    const ctx = setup({ 'win.txt': 'one foo\r\ntwo\r\nthree foo\r\n', 'empty.txt': '', 'tail.txt': 'x\nfoo' })
    expect((await grep({ pattern: 'foo$' }, ctx)).output).toBe('3 matches in 2 files:\ntail.txt:2: foo\nwin.txt:1: one foo\nwin.txt:3: three foo')
    expect((await grep({ pattern: '^$', path: 'empty.txt' }, ctx)).output).toBe('No matches for /^$/ in empty.txt.')
  })

  it('cuts very long matching lines', async () => {
    const r = await grep({ pattern: 'needle' }, setup({ 'min.js': `${'x'.repeat(5_000)}needle${'y'.repeat(5_000)}` }))
    expect(r.output).toBe(`1 match in 1 file:\nmin.js:1: ${'x'.repeat(300)}…`)
  })
})

describe('the match cap', () => {
  it('stops reading files once it is reached (counted by the worker and by the files\' access times)', async () => {
    const files = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}.txt`, 'hit\n'.repeat(100)]))
    const ctx = setup(files)
    // Access times older than modification times: the next read updates them (relatime), so reads leave a trace.
    const past = new Date('2001-01-01T00:00:00Z')
    for (const name of Object.keys(files)) fs.utimesSync(path.join(ctx.workdir, name), past, new Date())
    const r = await grep({ pattern: 'hit' }, ctx)
    expect(r.output.split('\n')[0]).toBe(`Showing the first ${MAX_GREP_MATCHES} matches in 5 files; there are more (the search stopped there): narrow the pattern, path or include.`)
    // 500 matches fill f0–f4; f5 holds the 501st, which proves there are more. f6–f9 are never opened.
    expect(r.metadata).toMatchObject({ matches: 500, capped: true, filesRead: 6 })
    const read = Object.keys(files).filter((name) => fs.statSync(path.join(ctx.workdir, name)).atimeMs > past.getTime())
    expect(read).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt', 'f5.txt'])
  })
})

describe('.gitignore and binary files', () => {
  const tree = {
    '.gitignore': 'dist/\n*.log\n!keep.log\n/root-only.txt\n',
    'src/a.ts': 'needle\n',
    'dist/bundle.js': 'needle\n',
    'debug.log': 'needle\n',
    'keep.log': 'needle\n',
    'root-only.txt': 'needle\n',
    'sub/root-only.txt': 'needle\n',
    'sub/.gitignore': 'generated.txt\n',
    'sub/generated.txt': 'needle\n',
    'other/generated.txt': 'needle\n',
    'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65]),
  }

  it('skips ignored paths (root and nested .gitignore files, negations, anchors) and binary files, and says so', async () => {
    const r = await grep({ pattern: 'needle' }, setup(tree))
    expect(r.output).toBe(
      [
        '4 matches in 4 files:',
        'keep.log:1: needle',
        'other/generated.txt:1: needle',
        'src/a.ts:1: needle',
        'sub/root-only.txt:1: needle',
        'Skipped 1 binary file.',
        'Skipped 4 paths ignored by .gitignore; pass an ignored folder as path to search it.',
      ].join('\n'),
    )
  })

  it('searches an ignored folder when it is asked for by path', async () => {
    const r = await grep({ pattern: 'needle', path: 'dist' }, setup(tree))
    expect(r.output).toBe('1 match in 1 file:\ndist/bundle.js:1: needle')
  })
})

describe('time budget and the event loop', () => {
  it('returns a partial result with a note when the time budget runs out', async () => {
    // Enough files that walking and searching them takes far longer than the 30 ms budget; one match per 20 files.
    const ctx = setup()
    manyFiles(ctx, 6_000, 30, (i) => (i % 20 === 0 ? 'needle\n' : 'hay\n'))
    const r = await runTool(createGrepTool({ budgetMs: 30 }), { pattern: 'needle' }, ctx)
    expect(r.ok).toBe(true)
    expect(r.metadata).toMatchObject({ timedOut: true })
    expect(r.metadata?.matches as number).toBeLessThan(300)
    expect(r.output).toMatch(/\nStopped after 0\.03 s with a partial result \(\d+ files? searched\); narrow path or include to search the rest\.$/)
  })

  it('never stalls the event loop for more than 50 ms, even over this repository\'s node_modules with a regex', async () => {
    // Not through setup(): its cleanup deletes the workdir, and this workdir is the repository itself.
    const ctx = makeContext({ workdir: REPO })
    const { result: [r, catastrophic] } = await withoutStall(async () => [
      await grep({ pattern: 'create[A-Z]\\w+Require\\(', path: 'node_modules' }, ctx),
      await grep({ pattern: '(a+)+$', path: 'node_modules' }, ctx),
    ])
    fs.rmSync(ctx.overflowDir, { recursive: true, force: true })
    expect(r.ok && catastrophic.ok).toBe(true)
    expect(r.metadata?.filesRead as number).toBeGreaterThan(1_000)
  })

  it('stops promptly when the run is aborted', async () => {
    const ctx = setup()
    manyFiles(ctx, 3_000, 10, () => 'hay\n'.repeat(50))
    setTimeout(() => ctx.controller.abort(), 20)
    const r = await grep({ pattern: 'needle' }, ctx)
    expect(r).toMatchObject({ ok: false, metadata: { aborted: true } })
    // Well inside runTool's grace period for tools that ignore the signal (3 s): grep stops by itself.
    expect(r.durationMs).toBeLessThan(1_500)
    // The pool still serves the next search.
    expect((await grep({ pattern: 'warm' }, setup({ 'a.txt': 'warm\n' }))).output).toBe('1 match in 1 file:\na.txt:1: warm')
  })

  it('eleven searches at once all finish (they share at most four workers); one aborted meanwhile stops', async () => {
    const ctxs = Array.from({ length: 10 }, (_, i) => setup({ [`f${i}.txt`]: `needle ${i}\n`.repeat(20) }))
    const aborted = setup({ 'x.txt': 'needle\n' })
    // Last in the queue, most likely still waiting for a worker when it is aborted.
    setTimeout(() => aborted.controller.abort(), 5)
    const results = await Promise.all([...ctxs.map((c) => grep({ pattern: 'needle' }, c)), grep({ pattern: 'needle' }, aborted)])
    results.slice(0, 10).forEach((r, i) => expect(r.output.split('\n')[1]).toBe(`f${i}.txt:1: needle ${i}`))
    expect(results[10]).toMatchObject({ ok: false, metadata: { aborted: true } })
  })

  it('runs searches side by side without mixing their results', async () => {
    const a = setup({ 'x.txt': 'alpha\n'.repeat(40) })
    const b = setup({ 'y.txt': 'beta\n'.repeat(40) })
    const [ra, rb, rc] = await Promise.all([grep({ pattern: 'alpha' }, a), grep({ pattern: 'beta' }, b), grep({ pattern: 'alpha' }, b)])
    expect(ra.metadata).toMatchObject({ matches: 40 })
    expect(ra.output).not.toContain('beta')
    expect(rb.metadata).toMatchObject({ matches: 40 })
    expect(rc.output).toBe('No matches for /alpha/ in the workspace root.')
  })
})
