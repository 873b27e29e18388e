import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ensureGrammar, highlightTree } from './highlight'
import { Markdown } from './markdown-view'
import { splitBlocks } from './split-blocks'
import { splitTaskResults } from './task-results'

// Without the whitespace between tags, so expectations read as the structure.
const html = (text: string): string => renderToStaticMarkup(createElement(Markdown, { text })).replace(/\s*\n\s*/g, '')

describe('Markdown (react-markdown + GFM)', () => {
  it.each([
    ['a table', '| a | b |\n|---|---|\n| 1 | 2 |', ['<table>', '<th>a</th>', '<td>2</td>'], ['| a |']],
    ['a task list', '- [x] done\n- [ ] open', ['type="checkbox"', 'checked=""', 'aria-label="done"', 'aria-label="not done"'], ['[x]', '[ ]']],
    ['a nested list', '- one\n  - inner\n    - deeper\n- two', ['<ul><li>one<ul><li>inner<ul><li>deeper</li></ul></li></ul></li><li>two</li></ul>'], []],
    ['a link with parentheses', 'See [Foo](https://en.wikipedia.org/wiki/Foo_(bar)) now', ['href="https://en.wikipedia.org/wiki/Foo_(bar)"'], [')) now']],
    ['a bare URL with parentheses', 'See https://en.wikipedia.org/wiki/Foo_(bar) now', ['href="https://en.wikipedia.org/wiki/Foo_(bar)"'], []],
    ['strikethrough', 'this is ~~gone~~', ['<del>gone</del>'], []],
    ['dunder names', 'def __init__(self) in __init__.py, and self.__init__()', ['__init__(self) in __init__.py', 'self.__init__()'], ['<strong>']],
    ['real bold', 'a **bold** and __strong words__', ['<strong>bold</strong>', '<strong>strong words</strong>'], []],
    ['raw HTML as text', 'x <img src=x onerror=alert(1)> y', ['&lt;img src=x onerror=alert(1)&gt;'], ['<img']],
    ['a javascript: link as text', '[click](javascript:alert(1))', ['<span class="md-nolink">click</span>'], ['href="javascript']],
    ['a heading below the page title', '# Title', ['<h2 class="md-h1">Title</h2>'], ['<h1']],
  ])('renders %s', (_name, text, present, absent) => {
    const out = html(text)
    for (const p of present) expect(out).toContain(p)
    for (const a of absent) expect(out).not.toContain(a)
  })

  it('draws a ```diff block as a diff with its line numbers', () => {
    const out = html('```diff\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n```')
    expect(out).toContain('data-testid="code-diff"')
    expect(out).toMatch(/data-kind="del".*old line 2.*old<\/span>/)
    expect(out).toMatch(/data-kind="add".*new line 2.*new<\/span>/)
  })
})

describe('highlighting (lowlight, loaded on demand)', () => {
  it('tokenizes a regex literal with quotes as one regex, and the string after it as a string', async () => {
    expect(highlightTree('x', 'ts')).toBeNull() // not loaded yet: the block shows plain text
    await ensureGrammar('typescript')
    const tree = highlightTree('const re = /"[^"]*"/g; const s = "x"', 'ts')
    const spans = (tree?.children ?? []).flatMap((c) =>
      c.type === 'element' ? [[String(c.properties.className), c.children.map((t) => (t.type === 'text' ? t.value : '')).join('')]] : [],
    )
    expect(spans).toContainEqual(['hljs-regexp', '/"[^"]*"/g'])
    expect(spans).toContainEqual(['hljs-string', '"x"'])
  })
})

describe('splitBlocks', () => {
  const doc = [
    'Intro with [a ref][r].',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    '```ts',
    'const x = 1',
    '```',
    '',
    '- one',
    '  - two',
    '',
    '[r]: https://example.com',
    '',
    'Closing words, **bold**.',
  ].join('\n')

  it('gives the same blocks when fed character by character as when parsed at once', () => {
    const whole = splitBlocks(doc).blocks.map((b) => b.source)
    let split = splitBlocks('')
    for (let i = 1; i <= doc.length; i++) split = splitBlocks(doc.slice(0, i), split)
    expect(split.blocks.map((b) => b.source)).toEqual(whole)
    expect(whole).toHaveLength(6)
    expect(split.blocks.filter((b) => b.definition)).toHaveLength(1)
  })

  it('resolves a reference link defined in another block', () => {
    expect(html(doc)).toContain('<a href="https://example.com" target="_blank" rel="noreferrer noopener">a ref</a>')
  })
})

describe('task results quoted by a model', () => {
  it('turns a quoted, cut-off <task_result> into a result block without tags', () => {
    const text = '**explore** reported:\n> <task_result agent="explore" task_id="ses_1">\n> The workspace has 3 entries.\n> README.md…\n\nNext paragraph.'
    const segs = splitTaskResults(text)
    expect(segs.map((s) => s.kind)).toEqual(['md', 'task', 'md'])
    expect(segs[1]).toMatchObject({ kind: 'task', agent: 'explore', taskId: 'ses_1', body: 'The workspace has 3 entries.\nREADME.md…' })
    expect(segs[2]).toEqual({ kind: 'md', text: '\nNext paragraph.' })
    const out = html(text)
    expect(out).not.toContain('task_result')
    expect(out.match(/README\.md…/g)).toHaveLength(1)
    expect(out).toContain('data-testid="task-result"')
  })

  it('reads a complete result with its stats line, and an error', () => {
    const segs = splitTaskResults('<task_result agent="general" task_id="t2">\nDone.\n</task_result>\nruntime 1.2s · tokens 10 in / 2 out\nAfter.')
    expect(segs[0]).toMatchObject({ kind: 'task', agent: 'general', body: 'Done.', stats: 'runtime 1.2s · tokens 10 in / 2 out' })
    expect(segs[1]).toEqual({ kind: 'md', text: 'After.' })
    expect(splitTaskResults('<task_error agent="x" task_id="t3">timed out</task_error>')[0]).toMatchObject({ failed: true, body: 'timed out' })
  })
})
