import { describe, expect, it } from 'vitest'
import { parseFrontmatterYaml, readFrontmatter } from './frontmatter'

/** The lenient frontmatter reader (issue 27): what an author evidently meant loads, with a warning; the rest fails. */
describe('parseFrontmatterYaml', () => {
  it('keeps strict YAML as it is, with no warning', () => {
    const r = parseFrontmatterYaml('name: a\ndescription: "Quoted: fine"\ntools:\n  - Read\n')
    expect(r).toMatchObject({ ok: true, value: { name: 'a', description: 'Quoted: fine', tools: ['Read'] }, warnings: [] })
  })

  it("recovers every unquoted value with ': ', keeps the other entries (nested ones included) and points at each line", () => {
    const yaml = "name: skill-a\ndescription: Triggers on: 'analyze A/B test', 'compare' and more\nallowed-tools:\n  - Read\n  - Grep\nargument-hint: file: the path\n"
    const r = parseFrontmatterYaml(yaml, 1)
    if (!r.ok) throw new Error(JSON.stringify(r.errors))
    expect(r.value).toEqual({ name: 'skill-a', description: "Triggers on: 'analyze A/B test', 'compare' and more", 'allowed-tools': ['Read', 'Grep'], 'argument-hint': 'file: the path' })
    expect(r.warnings.map((w) => [w.field, w.line])).toEqual([
      ['description', 3],
      ['argument-hint', 7],
    ])
    expect(r.keyLines).toMatchObject({ name: 2, description: 3, 'allowed-tools': 4, 'argument-hint': 7 })
  })

  it('reads a value starting with a backquote as text, and drops one pair of quotes around a whole value', () => {
    const r = parseFrontmatterYaml('description: `npm test` runs it: always\nhint: "a": b\n')
    expect(r.ok && r.value).toEqual({ description: '`npm test` runs it: always', hint: '"a": b' })
  })

  it('fails as strict YAML does for what it cannot know: a stray line, a broken block, an unclosed list, a duplicate key, an alias', () => {
    for (const yaml of ['description: a: b\njust some words\n', 'description: a: b\nlist:\n  - [x\n', 'description: [a: b\n', 'description: a: b\ndescription: c\n', 'x: &a [1]\ndescription: a: b\ny: *b\n']) {
      const r = parseFrontmatterYaml(yaml, 1)
      expect(r.ok, yaml).toBe(false)
    }
  })
})

describe('readFrontmatter', () => {
  it('splits and reads a Markdown file, warning about a long closing dash line too', () => {
    const r = readFrontmatter('---\nname: c\ndescription: Fix: the bug\n------\nBody here.\n')
    if (!r.ok) throw new Error(r.reason)
    expect(r.value).toEqual({ name: 'c', description: 'Fix: the bug' })
    expect(r.body).toBe('Body here.')
    expect(r.warnings.map((w) => w.field)).toEqual(['description', 'frontmatter'])
  })

  it('says what is missing, with the line', () => {
    expect(readFrontmatter('no frontmatter')).toMatchObject({ ok: false, line: 1 })
  })
})
