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
    expect(rules).toEqual([{ tool: '*', pattern: '*', action: 'allow' }, ...ASK_ALL])
  })

  it('an unreadable path (a directory) is reported, not skipped', () => {
    const d = path.join(dir, 'adir.jsonc')
    fs.mkdirSync(d)
    const { rules, errors } = loadStaticRules([d])
    expect(errors[0]).toMatchObject({ file: d, reason: expect.stringMatching(/cannot read/) })
    expect(rules).toEqual(ASK_ALL)
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
