import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BUILTIN_TOOLS } from './builtin-tools'
import { runTool } from './run-tool'
import { makeContext, makeTempDir, type TestContext } from './testing/test-context'

const contexts: TestContext[] = []
const extraDirs: string[] = []
function setup(files: Record<string, string | Buffer> = {}) {
  const ctx = makeContext({ files })
  contexts.push(ctx)
  return ctx
}
afterEach(() => {
  contexts.splice(0).forEach((c) => c.cleanup())
  extraDirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }))
})
const tool = (name: string) => BUILTIN_TOOLS.find((t) => t.name === name)!
const read = (ctx: TestContext, rel: string) => fs.readFileSync(path.join(ctx.workdir, rel), 'utf8')
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}`).join('\n') + '\n'

describe('read_file', () => {
  it('returns line-numbered text with a footer, asking permission for the relative path', async () => {
    const ctx = setup({ 'src/a.txt': 'alpha\nbeta\n' })
    const r = await runTool(tool('read_file'), { path: 'src/a.txt' }, ctx)
    expect(r).toMatchObject({ ok: true, output: '     1\talpha\n     2\tbeta\n(lines 1-2 of 2; end of file)' })
    expect(ctx.asks[0].ask).toEqual({ kind: 'path', subjects: ['src/a.txt'], access: 'read' })
  })

  it('reads the first 2,000 lines by default and pages with offset/limit', async () => {
    const ctx = setup({ 'big.txt': numbered(2_500) })
    const first = await runTool(tool('read_file'), { path: 'big.txt' }, ctx)
    expect(first.output).toContain('  2000\t2000\n(lines 1-2000 of 2500; continue with offset 2001)')
    expect(first.output).not.toContain('2001\t')
    const slice = await runTool(tool('read_file'), { path: 'big.txt', offset: 2_400, limit: 3 }, ctx)
    expect(slice.output).toBe('  2400\t2400\n  2401\t2401\n  2402\t2402\n(lines 2400-2402 of 2500; continue with offset 2403)')
    const past = await runTool(tool('read_file'), { path: 'big.txt', offset: 9_999 }, ctx)
    expect(past).toMatchObject({ ok: false, output: 'offset 9999 is past the end of big.txt, which has 2500 lines.' })
  })

  it('caps a read by size so its output is never truncated, and says where to continue', async () => {
    const ctx = setup({ 'wide.txt': Array.from({ length: 500 }, () => 'x'.repeat(200)).join('\n') })
    const r = await runTool(tool('read_file'), { path: 'wide.txt' }, ctx)
    expect(r.metadata?.truncated).toBeUndefined()
    expect(r.output).toMatch(/\(lines 1-\d+ of 500; continue with offset \d+\)$/)
  })

  it('refuses binary files, directories and missing files with a clear message', async () => {
    const ctx = setup({ 'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]), 'dir/x': '' })
    expect((await runTool(tool('read_file'), { path: 'img.png' }, ctx)).output).toBe('img.png looks like a binary file (7 bytes); read_file only reads text.')
    expect((await runTool(tool('read_file'), { path: 'dir' }, ctx)).output).toBe('dir is a directory; use list_dir to see its entries.')
    expect(await runTool(tool('read_file'), { path: 'nope.txt' }, ctx)).toMatchObject({
      ok: false,
      output: 'File not found: nope.txt. Use list_dir or glob to find the right path.',
    })
  })

  it('asks with outsideWorkspace and the absolute path for files outside, including via symlink', async () => {
    const outside = makeTempDir('agentry-outside-')
    extraDirs.push(outside)
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret')
    const ctx = setup()
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ctx.workdir, 'link.txt'))
    const denyOutside = { ...ctx, authorize: async (given: Parameters<TestContext['authorize']>[0]) => {
      const ask = Array.isArray(given) ? given[0] : given
      ctx.asks.push({ ask })
      return ask.outsideWorkspace ? { ok: false as const, message: 'Path is outside the workspace.' } : { ok: true as const }
    } }
    for (const p of ['../' + path.basename(outside) + '/secret.txt', path.join(outside, 'secret.txt'), 'link.txt']) {
      const r = await runTool(tool('read_file'), { path: p }, denyOutside)
      expect(r).toMatchObject({ ok: false, output: 'Path is outside the workspace.' })
    }
    expect(ctx.asks.map((a) => a.ask)).toEqual(Array(3).fill({ kind: 'path', subjects: [path.join(outside, 'secret.txt')], outsideWorkspace: true, access: 'read' }))
  })

  it('treats an absolute path into the saved-output folder like any path outside the workspace', async () => {
    const ctx = setup()
    fs.writeFileSync(path.join(ctx.overflowDir, 'tool-output-1-ab.txt'), 'full text\n')
    await runTool(tool('read_file'), { path: path.join(ctx.overflowDir, 'tool-output-1-ab.txt') }, ctx)
    expect(ctx.asks[0].ask).toEqual({ kind: 'path', subjects: [path.join(ctx.overflowDir, 'tool-output-1-ab.txt')], outsideWorkspace: true, access: 'read' })
    const r = await runTool(tool('read_file'), { path: 'tool-output://tool-output-1-ab.txt' }, ctx)
    expect(r).toMatchObject({ ok: true, output: '     1\tfull text\n(lines 1-1 of 1; end of file)' })
  })
})

describe('write_file', () => {
  it('creates parent folders and shows a diff against the old content for approval', async () => {
    const ctx = setup({ 'notes.md': 'one\ntwo\n' })
    const created = await runTool(tool('write_file'), { path: 'deep/er/new.txt', content: 'hello\n' }, ctx)
    expect(created).toMatchObject({ ok: true, output: 'Created deep/er/new.txt (1 lines).' })
    expect(read(ctx, 'deep/er/new.txt')).toBe('hello\n')

    const over = await runTool(tool('write_file'), { path: 'notes.md', content: 'one\nTWO\n' }, ctx)
    expect(over.output).toBe('Overwrote notes.md (2 → 2 lines).')
    expect(read(ctx, 'notes.md')).toBe('one\nTWO\n')
    expect(ctx.asks[1]).toEqual({
      ask: { kind: 'path', subjects: ['notes.md'], access: 'write' },
      display: { summary: 'Overwrite notes.md (2 → 2 lines)', diff: '--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO' },
    })
  })

  it('refuses to write over a directory', async () => {
    const ctx = setup({ 'dir/x': '' })
    expect(await runTool(tool('write_file'), { path: 'dir', content: 'x' }, ctx)).toMatchObject({ ok: false, output: 'dir is a directory; give a file path to write.' })
  })
})

describe('edit_file', () => {
  const source = 'function a() {\n  return 1\n}\nfunction b() {\n  return 1\n}\n'

  it('replaces a unique match and returns a unified diff', async () => {
    const ctx = setup({ 'a.js': source })
    const r = await runTool(tool('edit_file'), { path: 'a.js', old_string: 'function b() {\n  return 1', new_string: 'function b() {\n  return 2' }, ctx)
    expect(r.ok).toBe(true)
    expect(r.output).toBe(['Edited a.js (1 replacement).', '--- a/a.js', '+++ b/a.js', '@@ -2,5 +2,5 @@', '   return 1', ' }', ' function b() {', '-  return 1', '+  return 2', ' }'].join('\n'))
    expect(read(ctx, 'a.js')).toBe(source.replace('b() {\n  return 1', 'b() {\n  return 2'))
    expect(ctx.asks[0].display?.summary).toBe('Edit a.js (1 replacement)')
  })

  it('errors without changing the file when old_string is missing', async () => {
    const ctx = setup({ 'a.js': source })
    const r = await runTool(tool('edit_file'), { path: 'a.js', old_string: 'return 3', new_string: 'return 4' }, ctx)
    expect(r).toMatchObject({ ok: false, output: 'old_string not found in a.js; read the file and copy the exact text.' })
    expect(read(ctx, 'a.js')).toBe(source)
    // Failing before the approval: the user is never asked to approve an edit that cannot apply.
    expect(ctx.asks).toEqual([])
  })

  it('errors naming the count without changing the file when old_string is ambiguous', async () => {
    const ctx = setup({ 'a.js': source })
    const r = await runTool(tool('edit_file'), { path: 'a.js', old_string: 'return 1', new_string: 'return 2' }, ctx)
    expect(r.ok).toBe(false)
    expect(r.output).toContain('old_string matches 2 times in a.js')
    expect(read(ctx, 'a.js')).toBe(source)
  })

  it('replaces every match with replace_all, literally (no $ patterns)', async () => {
    const ctx = setup({ 'a.js': source })
    const r = await runTool(tool('edit_file'), { path: 'a.js', old_string: 'return 1', new_string: 'return $&', replace_all: true }, ctx)
    expect(r.output.split('\n')[0]).toBe('Edited a.js (2 replacements).')
    expect(read(ctx, 'a.js')).toBe(source.split('return 1').join('return $&'))
  })

  it('matches LF old_string in a CRLF file and keeps CRLF endings', async () => {
    const ctx = setup({ 'w.txt': 'a\r\nb\r\nc\r\n' })
    const r = await runTool(tool('edit_file'), { path: 'w.txt', old_string: 'a\nb', new_string: 'a\nB' }, ctx)
    expect(r.ok).toBe(true)
    expect(read(ctx, 'w.txt')).toBe('a\r\nB\r\nc\r\n')
  })

  it('points to write_file for missing files and empty old_string', async () => {
    const ctx = setup({ 'a.js': source })
    expect((await runTool(tool('edit_file'), { path: 'new.js', old_string: 'x', new_string: 'y' }, ctx)).output).toBe('File not found: new.js. To create a file use write_file.')
    expect((await runTool(tool('edit_file'), { path: 'a.js', old_string: '', new_string: 'y' }, ctx)).output).toBe('old_string is empty; to create or overwrite a.js use write_file.')
  })
})
