import { describe, expect, it } from 'vitest'
import { parseInline, parseMarkdown } from './parse-markdown'
import { highlight } from './highlight'

describe('parseMarkdown', () => {
  it('splits paragraphs, headings, lists and code fences', () => {
    const b = parseMarkdown('# Title\n\nSome *text*.\n\n- one\n- two\n\n```ts\nconst x = 1\n```\n')
    expect(b.map((x) => x.kind)).toEqual(['h', 'p', 'list', 'code'])
    expect(b[3]).toMatchObject({ kind: 'code', lang: 'ts', code: 'const x = 1', open: false })
  })

  it('treats an unclosed fence while streaming as an open code block', () => {
    const b = parseMarkdown('Look:\n```py\nprint(1)')
    expect(b[1]).toMatchObject({ kind: 'code', code: 'print(1)', open: true })
  })

  it('never turns javascript: links into links, and keeps raw HTML as text', () => {
    const nodes = parseInline('[x](javascript:alert(1)) <img src=x onerror=alert(1)> [ok](https://example.com)')
    expect(nodes.filter((n) => n.kind === 'link').map((n) => (n.kind === 'link' ? n.href : ''))).toEqual(['https://example.com'])
    expect(nodes.map((n) => (n.kind === 'text' ? n.text : '')).join('')).toContain('<img src=x onerror=alert(1)>')
  })

  it('parses inline code, bold and emphasis', () => {
    expect(parseInline('a `b` **c** _d_').map((n) => n.kind)).toEqual(['text', 'code', 'text', 'strong', 'text', 'em'])
  })
})

describe('highlight', () => {
  it('marks keywords, strings, numbers and comments, and loses no characters', () => {
    const code = 'const s = "hi" // note\nreturn 42'
    const toks = highlight(code, 'ts')
    expect(toks.map((t) => t.v).join('')).toBe(code)
    expect(toks.filter((t) => t.t !== 'plain').map((t) => `${t.t}:${t.v}`)).toEqual([
      'keyword:const', 'string:"hi"', 'comment:// note', 'keyword:return', 'number:42',
    ])
  })
})
