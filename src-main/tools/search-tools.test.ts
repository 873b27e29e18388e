import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUILTIN_TOOLS } from './builtin-tools'
import { runTool } from './run-tool'
import type { TestContext } from './testing/test-context'
import { contextsPerTest } from './testing/contexts'

const setup = contextsPerTest()
const tool = (name: string) => BUILTIN_TOOLS.find((t) => t.name === name)!
function touch(ctx: TestContext, rel: string, secondsAgo: number) {
  const t = new Date(Date.now() - secondsAgo * 1000)
  fs.utimesSync(path.join(ctx.workdir, rel), t, t)
}

const tree = {
  'README.md': '# Demo\nTODO: write docs\n',
  'src/index.ts': 'export const answer = 42\n// TODO: more\n',
  'src/lib/util.ts': 'export function add(a: number, b: number) {\n  return a + b\n}\n',
  'src/lib/util.test.ts': "import { add } from './util'\n",
  '.env': 'TOKEN=x\n',
  '.git/HEAD': 'ref: refs/heads/main\n',
  'node_modules/pkg/index.ts': '// TODO in a dependency\n',
  'logo.bin': Buffer.from([0x00, 0x01, 0x54, 0x4f, 0x44, 0x4f]),
}

describe('list_dir', () => {
  it('lists folders first with a trailing slash, then files, sorted', async () => {
    const ctx = setup(tree)
    const r = await runTool(tool('list_dir'), {}, ctx)
    expect(r.output).toBe(['.git/', 'node_modules/', 'src/', '.env', 'README.md', 'logo.bin'].join('\n'))
    expect(ctx.asks[0].ask).toEqual({ kind: 'path', subjects: ['.'], access: 'read' })
    expect((await runTool(tool('list_dir'), { path: 'src/lib' }, ctx)).output).toBe('util.test.ts\nutil.ts')
  })

  it('caps long listings with a note, and explains files and missing folders', async () => {
    const files = Object.fromEntries(Array.from({ length: 1_005 }, (_, i) => [`many/f${String(i).padStart(4, '0')}.txt`, '']))
    const ctx = setup({ ...files, 'one.txt': 'x' })
    const r = await runTool(tool('list_dir'), { path: 'many' }, ctx)
    expect(r.output.split('\n')).toHaveLength(1_001)
    expect(r.output).toMatch(/\n… 5 more entries not shown \(1005 in total\); use glob with a narrower pattern\.$/)
    expect((await runTool(tool('list_dir'), { path: 'one.txt' }, ctx)).output).toBe('one.txt is a file, not a folder; use read_file to read it.')
    expect((await runTool(tool('list_dir'), { path: 'missing' }, ctx)).ok).toBe(false)
  })
})

describe('glob', () => {
  it('matches across folders, newest first, skipping .git and node_modules', async () => {
    const ctx = setup(tree)
    touch(ctx, 'src/index.ts', 300)
    touch(ctx, 'src/lib/util.ts', 10)
    touch(ctx, 'src/lib/util.test.ts', 100)
    const r = await runTool(tool('glob'), { pattern: '**/*.ts' }, ctx)
    expect(r.output).toBe(['3 matching files, newest first:', 'src/lib/util.ts', 'src/lib/util.test.ts', 'src/index.ts'].join('\n'))
    expect(ctx.asks[0].ask).toEqual({ kind: 'path', subjects: ['**/*.ts'] })
  })

  it('matches relative to path, returns workspace-relative paths, and includes dot files', async () => {
    const ctx = setup(tree)
    expect((await runTool(tool('glob'), { pattern: '*.ts', path: 'src/lib' }, ctx)).output).toContain('src/lib/util.ts')
    expect(ctx.asks[0].ask).toEqual({ kind: 'path', subjects: ['src/lib', 'src/lib/*.ts'] })
    expect((await runTool(tool('glob'), { pattern: '.env' }, ctx)).output).toBe('1 matching file, newest first:\n.env')
  })

  it('explains an empty result and how to search at any depth', async () => {
    const ctx = setup(tree)
    expect((await runTool(tool('glob'), { pattern: 'util.ts' }, ctx)).output).toBe(
      'No files match util.ts in the workspace root. Patterns without "/" only match top-level files; try "**/util.ts".',
    )
  })

  it('caps at 1,000 results with a note', async () => {
    const files = Object.fromEntries(Array.from({ length: 1_010 }, (_, i) => [`g/f${i}.txt`, '']))
    const ctx = setup(files)
    const r = await runTool(tool('glob'), { pattern: 'g/*.txt' }, ctx)
    const lines = r.output.split('\n')
    expect(lines[0]).toBe('Showing the 1000 newest of 1010 matching files; narrow the pattern or path to see the rest.')
    expect(lines).toHaveLength(1_001)
  })
})

describe('grep', () => {
  it('prints file:line: text for matches, skipping binaries, .git and node_modules', async () => {
    const ctx = setup(tree)
    const r = await runTool(tool('grep'), { pattern: 'TODO' }, ctx)
    expect(r.output).toBe(['2 matches in 2 files:', 'README.md:2: TODO: write docs', 'src/index.ts:2: // TODO: more', 'Skipped 1 binary file.'].join('\n'))
    expect(ctx.asks[0].ask).toEqual({ kind: 'path', subjects: ['.'], access: 'read' })
  })

  it('uses RE2 regex syntax (JavaScript spellings included) and filters by include', async () => {
    const ctx = setup(tree)
    const r = await runTool(tool('grep'), { pattern: 'function\\s+add\\(', include: '*.ts' }, ctx)
    expect(r.output).toBe('1 match in 1 file:\nsrc/lib/util.ts:1: export function add(a: number, b: number) {')
    const scoped = await runTool(tool('grep'), { pattern: 'export', path: 'src/lib', include: 'src/lib/*.test.ts' }, ctx)
    expect(scoped.output).toBe('No matches for /export/ in src/lib.')
    const oneFile = await runTool(tool('grep'), { pattern: 'answer', path: 'src/index.ts' }, ctx)
    expect(oneFile.output).toBe('1 match in 1 file:\nsrc/index.ts:1: export const answer = 42')
  })

  it('explains an invalid regex', async () => {
    const ctx = setup(tree)
    const r = await runTool(tool('grep'), { pattern: 'add(' }, ctx)
    expect(r.ok).toBe(false)
    expect(r.output).toBe(
      'pattern is not a valid regular expression (missing closing ): `add(`); grep uses RE2 syntax (like JavaScript\'s, without lookaround or backreferences): escape special characters (. ( ) [ ] { } * + ? | ^ $ \\) with \\ to match them literally.',
    )
  })

  it('caps the number of matches shown', async () => {
    const ctx = setup({ 'many.txt': 'hit\n'.repeat(600) })
    const r = await runTool(tool('grep'), { pattern: 'hit' }, ctx)
    const lines = r.output.split('\n')
    expect(lines[0]).toBe('Showing the first 500 matches in 1 file; there are more (the search stopped there): narrow the pattern, path or include.')
    expect(lines).toHaveLength(501)
    expect(r.metadata).toMatchObject({ matches: 500, capped: true })
  })
})
