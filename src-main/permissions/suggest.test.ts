import { beforeAll, describe, expect, it } from 'vitest'
import { decide } from './decide'
import { fromCompact } from './ruleset'
import type { SubjectKind } from './matcher'
import { suggestAlways, suggestAlwaysPatterns } from './suggest'
import { loadShellGrammar } from './shell'

beforeAll(() => loadShellGrammar())

const suggest = (kind: SubjectKind, ...subjects: string[]): string[] =>
  suggestAlwaysPatterns({ tool: kind === 'command' ? 'bash' : 'x', kind, subjects })

describe('suggestAlwaysPatterns', () => {
  it.each<[string, string[]]>([
    ['git push origin main', ['git push *']],
    ['npm run build', ['npm run build']],
    ['npm run test -- --watch', ['npm run test *']],
    ['ls -la', ['ls *']],
    ['ls', ['ls']],
    ['rm x', ['rm *']],
    ['git -C repo push', ['git *']],
    ['cargo test && cargo build', ['cargo test', 'cargo build']],
    ['git status && git status -s', ['git status', 'git status *']],
    ['cat a | grep b', ['cat *', 'grep *']],
    ['FOO=1 npm test', ['FOO=1 npm test', 'npm test']],
    ['./scripts/build.sh --fast', ['build.sh *']],
    ['[ -f x ] && echo y', ['echo *']],
    ['python manage.py migrate', ['python manage.py *']],
    ['python -m pytest -q', ['python -m pytest *']],
    ['npx prettier --check .', ['npx prettier *']],
  ])('bash %j → %j', (line, expected) => {
    expect(suggest('command', line)).toEqual(expected)
  })

  // Issue 9: "Always allow" used to offer blanket grants for wrappers and interpreters.
  it.each<[string, string[]]>([
    ['bash -c "ls"', ['ls']],
    ["sh -c 'git status'", ['git status']],
    ['eval "npm test"', ['npm test']],
    ['env FOO=1 make build', ['make build']],
    ['timeout 60 npm test', ['npm test']],
    ['echo a | xargs grep x', ['echo *', 'grep *']],
    ['sudo apt-get update', ['sudo apt-get update', 'apt-get update']],
    ['python -c "import os; print(1)"', ['python -c import os; print(1)']],
    ['find . -name "*.tmp" -delete', ['find . -name \\*.tmp -delete']],
    ['find . -exec rm {} \\;', ['find .', 'rm *']],
    ['curl https://example.org/x', ['curl https://example.org/x']],
  ])('no blanket grant for %j → %j', (line, expected) => {
    const got = suggest('command', line)
    expect(got).toEqual(expected)
    for (const p of got) {
      expect(p).not.toBe('*')
      expect(p).not.toMatch(/^(bash|sh|zsh|dash|eval|sudo|doas|env|xargs|nice|timeout|command|exec|python3?|node|npx|find|curl) \*$/)
    }
  })

  it('marks risky suggestions and says why; lines that must ask get none', () => {
    const of = (line: string) => suggestAlways({ tool: 'bash', kind: 'command', subjects: [line] })
    expect(of('rm -rf build')).toEqual([{ pattern: 'rm *', risky: true, reason: 'deletes or overwrites files' }])
    expect(of('git push origin main')).toEqual([{ pattern: 'git push *', risky: true, reason: 'uses the network' }])
    expect(of('sudo ls')).toEqual([
      { pattern: 'sudo ls', risky: true, reason: 'runs a command with other privileges' },
      { pattern: 'ls', risky: false },
    ])
    expect(of('node -e "1"')[0]).toMatchObject({ risky: true, reason: 'runs code given on the command line' })
    expect(of('npx create-foo app')[0]).toMatchObject({ pattern: 'npx create-foo *', risky: true, reason: 'downloads and runs a package' })
    expect(of('git status')).toEqual([{ pattern: 'git status', risky: false }])
    expect(of('$(printf rm) x')).toEqual([])
  })

  it.each<[string, string[]]>([
    ['src/a/b.ts', ['src/a/**']],
    ['README.md', ['README.md']],
    ['./src/x.ts', ['src/**']],
    ['app/[id]/page.tsx', ['app/\\[id\\]/**']],
    ['src/**/*.ts', ['src/**']],
    ['**/*.md', ['**']],
    ['/etc/hosts', ['/etc/**']],
    ['/hosts', ['/hosts']],
  ])('path %j → %j', (p, expected) => {
    expect(suggest('path', p)).toEqual(expected)
  })

  it('host, name and other give the subject itself, deduped', () => {
    expect(suggest('host', 'api.github.com', 'api.github.com')).toEqual(['api.github.com'])
    expect(suggest('name', 'explore')).toEqual(['explore'])
  })

  it('a suggested pattern, stored as a runtime rule, allows the same request again', () => {
    const requests = [
      { tool: 'bash', kind: 'command' as const, subjects: ['git push origin main && npm run build'] },
      { tool: 'bash', kind: 'command' as const, subjects: ['FOO=1 npm test'] },
      { tool: 'write_file', kind: 'path' as const, subjects: ['app/[id]/page.tsx'] },
      { tool: 'web_fetch', kind: 'host' as const, subjects: ['example.org'] },
    ]
    for (const req of requests) {
      const runtime = suggestAlwaysPatterns(req).map((pattern) => ({ tool: req.tool, pattern, action: 'allow' as const }))
      const layers = { agent: fromCompact({ '*': 'allow' }), static: fromCompact({ '*': 'ask' }), runtime }
      expect(decide([{ ...layers, runtime: [] }], req).action).toBe('ask')
      expect(decide([layers], req).action).toBe('allow')
    }
  })

  it('a bracket path pattern stays literal', () => {
    const runtime = [{ tool: 'write_file', pattern: suggest('path', 'app/[id]/page.tsx')[0], action: 'allow' as const }]
    const layers = { agent: fromCompact({ '*': 'allow' }), static: fromCompact({ '*': 'ask' }), runtime }
    expect(decide([layers], { tool: 'write_file', kind: 'path', subjects: ['app/i/page.tsx'] }).action).toBe('ask')
  })
})
