import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_PERMISSIONS_JSONC } from './defaults'
import { ensureDefaultPermissionsFile, loadStaticRules } from './static-rules'

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-perm-'))
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})
const file = (name: string, text: string): string => {
  const p = path.join(dir, name)
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, text)
  return p
}
const ASK_ALL = [{ tool: '*', pattern: '*', action: 'ask' }]

describe('loadStaticRules', () => {
  it('concatenates files in order (data dir, then workdir) and accepts comments and trailing commas', () => {
    const a = file('data/permissions.jsonc', '// user\n{ "*": "ask", "bash": { "git *": "allow", }, }')
    const b = file('work/.agents/permissions.jsonc', '{ /* project */ "bash": { "rm *": "deny" } }')
    expect(loadStaticRules([a, b])).toEqual({
      rules: [
        { tool: '*', pattern: '*', action: 'ask' },
        { tool: 'bash', pattern: 'git *', action: 'allow' },
        { tool: 'bash', pattern: 'rm *', action: 'deny' },
      ],
      errors: [],
    })
  })

  it('a missing file contributes nothing and is not an error', () => {
    const b = file('b.jsonc', '{ "grep": "allow" }')
    expect(loadStaticRules([path.join(dir, 'nope.jsonc'), b])).toEqual({ rules: [{ tool: 'grep', pattern: '*', action: 'allow' }], errors: [] })
  })

  it('`{}` means no rules', () => {
    expect(loadStaticRules([file('e.jsonc', '{}')])).toEqual({ rules: [], errors: [] })
  })

  it.each<[string, string, RegExp]>([
    ['bad JSONC', '{\n  "bash": "ask"\n  "grep": "allow"\n}', /line 3, column 3: CommaExpected/],
    ['unterminated', '{ "bash": ', /invalid JSONC at line 1/],
    ['bad action', '{\n  "read_file": {\n    "*.env": "block"\n  }\n}', /line 3, column 14, field "read_file › \*\.env"/],
    ['wrong top-level shape', '["bash"]', /field "\(top level\)"/],
    ['wrong value type', '{ "bash": 3 }', /field "bash"/],
    ['empty file', '   // nothing here\n', /no content; write \{\}/],
  ])('%s is reported with its position or field and asks for everything', (_name, text, reason) => {
    const good = file('good.jsonc', '{ "*": "allow" }')
    const bad = file('bad.jsonc', text)
    const { rules, errors } = loadStaticRules([good, bad])
    expect(errors).toHaveLength(1)
    expect(errors[0].file).toBe(bad)
    expect(errors[0].reason).toMatch(reason)
    // Never an allow from a bad file: it contributes "*": ask, which outranks the earlier allow.
    expect(rules).toMatchObject([{ tool: '*', pattern: '*', action: 'allow' }, ...ASK_ALL])
    // The stand-in rule names the file and what is wrong, for the denial text.
    expect(rules[1]).toMatchObject({ source: { file: bad, malformed: errors[0].reason } })
  })

  it('an unreadable path (a directory) is reported, not skipped', () => {
    const d = path.join(dir, 'adir.jsonc')
    fs.mkdirSync(d)
    const { rules, errors } = loadStaticRules([d])
    expect(errors[0]).toMatchObject({ file: d, reason: expect.stringMatching(/cannot read/) })
    expect(rules).toMatchObject(ASK_ALL)
  })
})

describe('malformed rules files (bounded parsing; each reported, none ever allows, none throws)', () => {
  const deep = (n: number) => `{"a":${'['.repeat(n)}${']'.repeat(n)}}`
  const cases: [string, string, RegExp][] = [
    ['50k-deep arrays', deep(50_000), /nesting deeper than 32 levels at line 1, column \d+/],
    ['100k-deep objects', '{"x":'.repeat(100_000) + '1' + '}'.repeat(100_000), /nesting deeper than 32 levels at line 1/],
    ['deep nesting on line 3', '{\n  "bash": "ask",\n  "x": ' + '['.repeat(40) + ']'.repeat(40) + '\n}', /nesting deeper than 32 levels at line 3, column \d+/],
    ['deep nesting, unterminated', '['.repeat(10_000), /nesting deeper than 32 levels/],
    ['a top-level string', '"bash"', /field "\(top level\)"/],
    ['a top-level number', '42', /field "\(top level\)"/],
    ['null', 'null', /field "\(top level\)"/],
    ['true', 'true', /field "\(top level\)"/],
    ['an action in capitals', '{ "bash": "ALLOW" }', /field "bash"/],
    ['an action as a list', '{ "bash": ["allow"] }', /field "bash"/],
    ['a pattern map with a number', '{ "bash": { "git *": 1 } }', /field "bash › git \*"/],
    ['a nested map', '{ "bash": { "git *": { "x": "allow" } } }', /field "bash › git \*"/],
    ['an empty tool name', '{ "": "allow" }', /field ""|top level|line 1/],
    ['a missing value', '{ "bash": }', /invalid JSONC at line 1, column 11: ValueExpected/],
    ['a missing colon', '{ "bash" "allow" }', /invalid JSONC at line 1/],
    ['single quotes', "{ 'bash': 'allow' }", /invalid JSONC at line 1/],
    ['an unterminated string', '{ "bash: "allow" }', /invalid JSONC/],
    ['an unterminated block comment', '{ /* "bash": "allow" }', /invalid JSONC/],
    ['two objects', '{ "bash": "ask" } { "bash": "allow" }', /invalid JSONC at line 1/],
    ['a control character', '{ "bash": "al\u0001low" }', /invalid JSONC|field "bash"/],
    ['only a BOM', '\ufeff', /no content/],
    ['only comments', '/* a */ // b\n', /no content/],
    ['whitespace', '\n\n\t  \n', /no content/],
    ['binary garbage', '\u0000\u0001\u0002PK', /invalid JSONC/],
    ['a bare word', 'allow', /invalid JSONC/],
    ['over a megabyte', `{ "bash": "ask", "x": "${'a'.repeat(1024 * 1024)}" }`, /larger than 1024 KB/],
  ]
  it.each(cases)('%s', (_name, text, reason) => {
    const bad = file('permissions.jsonc', text)
    const { rules, errors } = loadStaticRules([{ file: bad, label: 'your permissions.jsonc' }])
    expect(errors).toEqual([{ file: bad, reason: expect.stringMatching(reason) }])
    expect(rules).toEqual([{ tool: '*', pattern: '*', action: 'ask', source: { file: bad, label: 'your permissions.jsonc', malformed: errors[0].reason } }])
  })

  it('a UTF-8 byte order mark is accepted', () => {
    const p = file('bom.jsonc', '\ufeff// saved by an editor on Windows\n{ "bash": { "git *": "allow" } }')
    expect(loadStaticRules([p])).toEqual({ rules: [{ tool: 'bash', pattern: 'git *', action: 'allow' }], errors: [] })
  })

  it('a labelled file gives each rule its source', () => {
    const p = file('l.jsonc', '{ "bash": "deny" }')
    expect(loadStaticRules([{ file: p, label: 'yours' }]).rules).toEqual([{ tool: 'bash', pattern: '*', action: 'deny', source: { file: p, label: 'yours' } }])
  })
})

describe('ensureDefaultPermissionsFile', () => {
  it('writes the commented defaults once, creating the directory, and never overwrites edits', () => {
    const dataDir = path.join(dir, 'nested', 'data')
    const p = ensureDefaultPermissionsFile(dataDir)
    expect(p).toBe(path.join(dataDir, 'permissions.jsonc'))
    expect(fs.readFileSync(p, 'utf8')).toBe(DEFAULT_PERMISSIONS_JSONC)
    fs.writeFileSync(p, '{ "*": "deny" }')
    expect(ensureDefaultPermissionsFile(dataDir)).toBe(p)
    expect(fs.readFileSync(p, 'utf8')).toBe('{ "*": "deny" }')
  })

  it('the written file loads without errors', () => {
    const p = ensureDefaultPermissionsFile(dir)
    const { rules, errors } = loadStaticRules([p])
    expect(errors).toEqual([])
    expect(rules.length).toBeGreaterThan(10)
  })
})
