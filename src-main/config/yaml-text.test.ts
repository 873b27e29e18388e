import { describe, expect, it } from 'vitest'
import { parseDocument } from 'yaml'
import { aliasBomb } from './testing/yaml-bombs'
import { parseYamlText } from './yaml-text'

function valueOf(text: string): unknown {
  const r = parseYamlText(text)
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.value
}

describe('parseYamlText', () => {
  // The fast reader (js-yaml, core schema) must give exactly what the `yaml` library gives.
  it.each([
    ['scalars of every core type', 'a: 1\nb: 1.5\nc: true\nd: ~\ne: "x"\nf: yes\ng: 0x1f\nh: 1e3\ni: .inf\nj: null\n'],
    ['a date stays text', 'when: 2024-01-01\nversion: 1.0.0\n'],
    ['nested mappings and lists', 'permission:\n  "*": deny\n  read_file:\n    "*.env": deny\ntools: [Read, Grep]\nlist:\n  - a\n  - b: 1\n'],
    ['block scalars', 'description: |\n  line one\n  line two\nfolded: >\n  a\n  b\n'],
    ['a merge key is an ordinary key', 'base: &b { x: 1 }\nother:\n  "<<": 1\n'],
    ['an alias of a scalar', 'a: &a hello\nb: *a\n'],
    ['an empty document', ''],
    ['a comment only', '# nothing\n'],
    ['a key order that must be kept', 'z: 1\na: 2\nm: 3\n'],
  ])('reads %s as the yaml library does', (_label, text) => {
    expect(valueOf(text)).toEqual(parseDocument(text).toJS() ?? null)
  })

  it('keeps an alias of a collection working (through the careful path) while it stays small', () => {
    expect(valueOf('base: &b [1, 2]\nuse: *b\n')).toEqual({ base: [1, 2], use: [1, 2] })
  })

  it.each([
    ['a top-level alias bomb', aliasBomb(), 2],
    ['an alias bomb under a key', `config:\n  ${aliasBomb().trimEnd().split('\n').join('\n  ')}\n`, 3],
  ])('refuses %s without expanding it, naming the line of the first alias', (_label, text, line) => {
    const r = parseYamlText(text)
    expect(r).toEqual({ ok: false, errors: [{ line, col: expect.any(Number), reason: expect.stringMatching(new RegExp(`^YAML refused at line ${line}:\\d+: aliases \\(\\*name\\) expand to more than 50 copies`)) }] })
  })

  it('refuses deep nesting with its line, and text over the size cap unparsed', () => {
    const deep = parseYamlText(`a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)
    expect(deep.ok).toBe(false)
    expect(!deep.ok && deep.errors[0].reason).toMatch(/^YAML syntax error at line 1:\d+: the values are nested too deeply/)
    // deeper than js-yaml's stack: the yaml library's report
    const deeper = parseYamlText(`a: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`)
    expect(!deeper.ok && deeper.errors[0].reason).toMatch(/^YAML syntax error at line 1:\d+: the values are nested too deeply/)
    expect(parseYamlText('a: 1\n', { maxChars: 3 })).toEqual({ ok: false, errors: [{ line: 1, col: 1, reason: 'YAML refused at line 1:1: the YAML is 1 KiB, more than the 1 KiB allowed; shorten the file' }] })
  })

  it('reports syntax errors with the file line (lineOffset) and the usual fix', () => {
    const r = parseYamlText('name: x\ndescription: Use it for: this\n', { lineOffset: 1 })
    expect(r).toEqual({ ok: false, errors: [{ line: 3, col: expect.any(Number), reason: expect.stringMatching(/^YAML syntax error at line 3:\d+: .*; quote a value that contains ": "/) }] })
    const dup = parseYamlText('a: 1\na: 2\n')
    expect(!dup.ok && dup.errors[0].reason).toBe('YAML syntax error at line 2:1: duplicated mapping key; remove or rename one of the two keys')
  })

  it('finds the lines of keys three levels deep: block, quoted, and flow (falls back to the parent)', () => {
    const text = [
      'description: |', //          1
      '  permission: not a key', //   2 (inside the block scalar)
      'permission:', //               3
      '  bash:', //                   4
      '    "git *": allow', //        5
      "  'read_file': deny", //       6
      'tools: { bash: false }', //    7
      '"odd key": 1', //              8
    ].join('\n')
    const r = parseYamlText(text, { lineOffset: 1 })
    expect(r.ok && r.keyLines).toEqual({
      description: 2,
      permission: 4,
      'permission.bash': 5,
      'permission.bash.git *': 6,
      'permission.read_file': 7,
      tools: 8,
      'odd key': 9,
    })
  })
})
