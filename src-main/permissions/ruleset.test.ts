import { describe, expect, it } from 'vitest'
import { evaluateRuleset, fromCompact } from './ruleset'
import type { SubjectKind } from './matcher'

describe('fromCompact', () => {
  it('turns a bare action into a catch-all rule and a map into rules in object order', () => {
    expect(fromCompact({ bash: 'ask', read_file: { '*': 'allow', '*.env': 'deny' }, '*': 'deny' })).toEqual([
      { tool: 'bash', pattern: '*', action: 'ask' },
      { tool: 'read_file', pattern: '*', action: 'allow' },
      { tool: 'read_file', pattern: '*.env', action: 'deny' },
      { tool: '*', pattern: '*', action: 'deny' },
    ])
  })
})

describe('matching one rule (evaluateRuleset with a single rule)', () => {
  const cases: { tool?: string; pattern: string; subject: string; kind: SubjectKind; matches: boolean; why: string }[] = [
    // path
    { pattern: '*', subject: 'src/deep/a.ts', kind: 'path', matches: true, why: '* alone is a path catch-all' },
    { pattern: '*', subject: '.env', kind: 'path', matches: true, why: 'dot files included' },
    { pattern: '*.env', subject: 'config/.env', kind: 'path', matches: true, why: 'no-slash pattern matches the basename' },
    { pattern: '*secret*', subject: 'a/my-secret.txt', kind: 'path', matches: true, why: 'basename match' },
    { pattern: '*secret*', subject: 'secrets/readme.md', kind: 'path', matches: false, why: 'only the basename, not a directory' },
    { pattern: '**/.ssh/**', subject: 'home/.ssh/id_rsa', kind: 'path', matches: true, why: 'normal globstar' },
    { pattern: '**/.ssh/**', subject: '.ssh/id_rsa', kind: 'path', matches: true, why: 'globstar may be empty' },
    { pattern: 'src/**', subject: 'src/a/b.ts', kind: 'path', matches: true, why: 'directory glob' },
    { pattern: 'src/**', subject: './src/a/b.ts', kind: 'path', matches: true, why: 'leading ./ is normalised' },
    { pattern: 'src/**', subject: 'lib/src/a.ts', kind: 'path', matches: false, why: 'anchored at the workspace root' },
    { pattern: 'docs/*.md', subject: 'docs/a/b.md', kind: 'path', matches: false, why: '* does not cross / in paths' },
    { pattern: '*', subject: '/etc/passwd', kind: 'path', matches: false, why: 'catch-alls never match outside paths' },
    { pattern: '**', subject: '/etc/passwd', kind: 'path', matches: false, why: 'relative globs never match outside paths' },
    { pattern: '*passwd', subject: '/etc/passwd', kind: 'path', matches: false, why: 'basename rule does not apply outside' },
    { pattern: '/etc/**', subject: '/etc/passwd', kind: 'path', matches: true, why: 'absolute pattern matches outside path' },
    { pattern: '/etc/**', subject: 'etc/passwd', kind: 'path', matches: false, why: 'absolute pattern never matches inside paths' },
    // command
    { pattern: 'git push *', subject: 'git push origin feature/x', kind: 'command', matches: true, why: 'bash * spans /' },
    { pattern: 'git push *', subject: 'git push', kind: 'command', matches: true, why: 'trailing " *" is optional' },
    { pattern: 'git push *', subject: 'git pushx', kind: 'command', matches: false, why: 'word boundary' },
    { pattern: 'git push *', subject: 'git pull origin', kind: 'command', matches: false, why: 'different subcommand' },
    { pattern: '*', subject: 'rm -rf /', kind: 'command', matches: true, why: '* matches every command' },
    { pattern: 'rm *', subject: 'rm -rf ../x', kind: 'command', matches: true, why: 'spans dots and slashes' },
    // host / name / other
    { pattern: '*.github.com', subject: 'api.github.com', kind: 'host', matches: true, why: 'host glob' },
    { pattern: '*.github.com', subject: 'github.com', kind: 'host', matches: false, why: 'needs a subdomain' },
    { pattern: '*', subject: 'example.org', kind: 'host', matches: true, why: 'catch-all' },
    { pattern: 'explore', subject: 'explore', kind: 'name', matches: true, why: 'exact name' },
    { pattern: 'ex*', subject: 'general', kind: 'name', matches: false, why: 'name glob' },
    { pattern: '*', subject: '', kind: 'other', matches: true, why: '* matches even an empty subject' },
    // tool keys
    { tool: 'read_*', pattern: '*', subject: 'x', kind: 'other', matches: true, why: 'tool key is a glob' },
    { tool: 'write_file', pattern: '*', subject: 'x', kind: 'other', matches: false, why: 'other tool' },
  ]
  it.each(cases)('$pattern vs $subject ($kind): $why', ({ tool, pattern, subject, kind, matches }) => {
    const rule = { tool: tool ?? '*', pattern, action: 'allow' as const }
    expect(evaluateRuleset([rule], 'read_file', subject, kind) !== undefined).toBe(matches)
  })
})

describe('evaluateRuleset: last matching rule wins', () => {
  const rules = fromCompact({ '*': 'deny', read_file: { '*': 'allow', '*.env': 'deny', '*.env.example': 'allow' } })
  it.each([
    ['read_file', 'src/a.ts', 'allow'],
    ['read_file', 'config/.env', 'deny'],
    ['read_file', '.env.example', 'allow'],
    ['write_file', 'src/a.ts', 'deny'],
  ])('%s %s → %s', (tool, subject, action) => {
    expect(evaluateRuleset(rules, tool, subject, 'path')?.action).toBe(action)
  })
  it('returns undefined when nothing matches', () => {
    expect(evaluateRuleset(fromCompact({ bash: 'allow' }), 'grep', 'x', 'other')).toBeUndefined()
  })
  it('returns the deciding rule itself', () => {
    expect(evaluateRuleset(rules, 'read_file', 'a/.env', 'path')).toEqual({ tool: 'read_file', pattern: '*.env', action: 'deny' })
  })
  it.each<[string, string, 'allow' | 'deny' | undefined]>([
    ['* deny', '/etc/passwd', 'deny'],
    ['*.env deny', '/home/u/other/.env', 'deny'],
    ['**/.ssh/** deny', '/home/u/.ssh/id_rsa', 'deny'],
    ['src/** deny', '/src/a.ts', undefined],
    ['* allow', '/etc/passwd', undefined],
  ])('outside the workspace, relative %s → %s on %s', (label, subject, expected) => {
    const [pattern, action] = label.split(' ') as [string, 'allow' | 'deny']
    expect(evaluateRuleset([{ tool: '*', pattern, action }], 'read_file', subject, 'path')?.action).toBe(expected)
  })
  it('treats a relative path as outside when told so', () => {
    const r = fromCompact({ read_file: { '*': 'allow' } })
    expect(evaluateRuleset(r, 'read_file', '../x', 'path', true)).toBeUndefined()
  })
})
