import { describe, expect, it } from 'vitest'
import { decide } from './decide'
import { fromCompact } from './ruleset'
import type { SubjectKind } from './matcher'
import { suggestAlwaysPatterns } from './suggest'

const suggest = (kind: SubjectKind, ...subjects: string[]): string[] =>
  suggestAlwaysPatterns({ tool: kind === 'command' ? 'bash' : 'x', kind, subjects })

describe('suggestAlwaysPatterns', () => {
  it.each<[string, string[]]>([
    ['git push origin main', ['git push *']],
    ['npm run build', ['npm run *']],
    ['ls -la', ['ls *']],
    ['ls', ['ls *']],
    ['rm x', ['rm *']],
    ['git -C repo push', ['git *']],
    ['cargo test && cargo build', ['cargo test *', 'cargo build *']],
    ['git status && git status -s', ['git status *']],
    ['cat a | grep b', ['cat *', 'grep *']],
    ['FOO=1 npm test', ['FOO=1 npm test *', 'npm test *']],
    ['./scripts/build.sh --fast', ['./scripts/build.sh *']],
    ['[ -f x ] && echo y', ['\\[ *', 'echo *']],
  ])('bash %j → %j', (line, expected) => {
    expect(suggest('command', line)).toEqual(expected)
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
