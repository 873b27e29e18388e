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
    ['npx prettier --check .', ['npx prettier --check *']],
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

// Issue 28, bug 3: "Always allow" on `git clean -n` offered `git clean *`. A suggested pattern keeps the flag that
// makes the approved command safe; it never matches a command that turns that flag off or drops it.
describe('always allow keeps the flag that makes a command safe', () => {
  interface Row {
    approved: string
    pattern: string
    /** the same safe command with other arguments: the pattern lets them through */
    alsoAllows: string[]
    /** destructive forms: the pattern must not let any of them through */
    stillAsks: string[]
  }
  const rows: Row[] = [
    { approved: 'git clean -n', pattern: 'git clean -n', alsoAllows: [], stillAsks: ['git clean', 'git clean -f', 'git clean -fd', 'git clean -n --no-dry-run -f'] },
    { approved: 'git clean -n -d src', pattern: 'git clean -n *', alsoAllows: ['git clean -n -d lib', 'git clean -n src/a'], stillAsks: ['git clean -f -d src', 'git clean -fd src', 'git clean -n --no-dry-run -f src', 'git clean -n --no-dry -f'] },
    { approved: 'git clean -nd src', pattern: 'git clean -nd *', alsoAllows: ['git clean -nd lib'], stillAsks: ['git clean -fd src', 'git clean -d src'] },
    { approved: 'git clean --dry-run -x', pattern: 'git clean --dry-run *', alsoAllows: ['git clean --dry-run -d'], stillAsks: ['git clean -x', 'git clean -fx', 'git clean --dry-run --no-dry-run -fx'] },
    { approved: 'git push -n origin main', pattern: 'git push -n *', alsoAllows: ['git push -n origin dev'], stillAsks: ['git push origin main', 'git push --force origin main', 'git push -n --no-dry-run origin main'] },
    { approved: 'git add -n src', pattern: 'git add -n *', alsoAllows: ['git add -n lib'], stillAsks: ['git add src', 'git add -A'] },
    { approved: 'make -n build', pattern: 'make -n *', alsoAllows: ['make -n test'], stillAsks: ['make build', 'make install', 'make clean'] },
    { approved: 'make --just-print install', pattern: 'make --just-print *', alsoAllows: ['make --just-print all'], stillAsks: ['make install'] },
    { approved: 'apt-get -s install curl', pattern: 'apt-get -s *', alsoAllows: ['apt-get -s install jq', 'apt-get -s remove curl'], stillAsks: ['apt-get install curl', 'apt-get remove curl', 'apt-get -s --no-simulate install curl', 'apt-get -s -o APT::Get::Simulate=false install curl'] },
    { approved: 'apt-get install --dry-run curl', pattern: 'apt-get install --dry-run *', alsoAllows: ['apt-get install --dry-run jq'], stillAsks: ['apt-get install curl', 'apt-get install --dry-run=false curl'] },
    { approved: 'ansible-playbook site.yml --check', pattern: 'ansible-playbook site.yml --check', alsoAllows: [], stillAsks: ['ansible-playbook site.yml'] },
    { approved: 'ansible-playbook --check site.yml', pattern: 'ansible-playbook --check *', alsoAllows: ['ansible-playbook --check other.yml'], stillAsks: ['ansible-playbook site.yml', 'ansible-playbook other.yml'] },
    { approved: 'npm publish --dry-run', pattern: 'npm publish --dry-run', alsoAllows: [], stillAsks: ['npm publish', 'npm publish --tag next'] },
    { approved: 'npm publish --dry-run --tag next', pattern: 'npm publish --dry-run *', alsoAllows: ['npm publish --dry-run --tag beta'], stillAsks: ['npm publish --tag next', 'npm publish --dry-run --dry-run=false', 'npm publish --dry-run --no-dry-run'] },
    { approved: 'kubectl apply --dry-run=client -f app.yaml', pattern: 'kubectl apply --dry-run=client *', alsoAllows: ['kubectl apply --dry-run=client -f db.yaml'], stillAsks: ['kubectl apply -f app.yaml', 'kubectl delete -f app.yaml', 'kubectl apply --dry-run=client --dry-run=none -f app.yaml'] },
    { approved: 'kubectl delete pod web --dry-run=server', pattern: 'kubectl delete pod web --dry-run=server', alsoAllows: [], stillAsks: ['kubectl delete pod web', 'kubectl delete pod web --dry-run=none'] },
    { approved: 'helm upgrade web ./chart --dry-run', pattern: 'helm upgrade web ./chart --dry-run', alsoAllows: [], stillAsks: ['helm upgrade web ./chart'] },
    { approved: 'prettier --check src', pattern: 'prettier --check *', alsoAllows: ['prettier --check lib'], stillAsks: ['prettier --write src', 'prettier --check --write src', 'prettier --check -w src'] },
    { approved: 'npx prettier --check .', pattern: 'npx prettier --check *', alsoAllows: ['npx prettier --check src'], stillAsks: ['npx prettier --write .', 'npx prettier --check --write .'] },
    { approved: 'black --check .', pattern: 'black --check *', alsoAllows: ['black --check src'], stillAsks: ['black .', 'black src'] },
    { approved: 'ruff format --check src', pattern: 'ruff format --check *', alsoAllows: ['ruff format --check lib'], stillAsks: ['ruff format src'] },
    { approved: 'cargo fmt --check', pattern: 'cargo fmt --check', alsoAllows: [], stillAsks: ['cargo fmt'] },
    { approved: 'cargo fmt -- --check', pattern: 'cargo fmt -- --check', alsoAllows: [], stillAsks: ['cargo fmt', 'cargo fmt --'] },
    { approved: 'terraform plan -out=tf.plan', pattern: 'terraform plan *', alsoAllows: ['terraform plan'], stillAsks: ['terraform apply', 'terraform apply -auto-approve', 'terraform destroy'] },
    { approved: 'rm -i a.txt', pattern: 'rm -i *', alsoAllows: ['rm -i b.txt'], stillAsks: ['rm a.txt', 'rm -rf a.txt', 'rm -i -f a.txt', 'rm -i --force a.txt', 'rm -i --interactive=never a.txt'] },
    // Safe because a flag is ABSENT: a glob cannot say "without --fix", so the pattern is the command itself.
    { approved: 'sed -n 1,20p a.txt', pattern: 'sed -n 1,20p a.txt', alsoAllows: [], stillAsks: ['sed -i s/a/b/ a.txt', 'sed -n 1,20p a.txt -i'] },
    { approved: 'eslint src', pattern: 'eslint src', alsoAllows: [], stillAsks: ['eslint --fix src', 'eslint src --fix'] },
    { approved: 'npx eslint src', pattern: 'npx eslint src', alsoAllows: [], stillAsks: ['npx eslint --fix src'] },
    { approved: 'ruff check src', pattern: 'ruff check src', alsoAllows: [], stillAsks: ['ruff check --fix src'] },
    { approved: 'gofmt -l .', pattern: 'gofmt -l .', alsoAllows: [], stillAsks: ['gofmt -w .', 'gofmt -l -w .'] },
    { approved: 'git branch -a', pattern: 'git branch -a', alsoAllows: [], stillAsks: ['git branch -D main', 'git branch -a -D main'] },
    { approved: 'git tag -l', pattern: 'git tag -l', alsoAllows: [], stillAsks: ['git tag -d v1'] },
    { approved: 'git stash list', pattern: 'git stash list', alsoAllows: [], stillAsks: ['git stash drop', 'git stash clear'] },
    { approved: 'git stash show -p stash@{0}', pattern: 'git stash show *', alsoAllows: ['git stash show -p'], stillAsks: ['git stash drop', 'git stash pop'] },
    { approved: 'npm audit --json', pattern: 'npm audit --json', alsoAllows: [], stillAsks: ['npm audit fix', 'npm audit fix --force'] },
    { approved: 'git remote -v', pattern: 'git remote -v', alsoAllows: [], stillAsks: ['git remote remove origin'] },
  ]

  const run = (pattern: string, line: string) => {
    const runtime = [{ tool: 'bash', pattern, action: 'allow' as const }]
    return decide([{ agent: fromCompact({ '*': 'allow' }), static: fromCompact({ '*': 'ask' }), runtime }], { tool: 'bash', kind: 'command', subjects: [line] }).action
  }

  it.each(rows)('$approved → $pattern', ({ approved, pattern, alsoAllows, stillAsks }) => {
    expect(suggest('command', approved)).toEqual([pattern])
    for (const line of [approved, ...alsoAllows]) expect(run(pattern, line), line).toBe('allow')
    for (const line of stillAsks) expect(run(pattern, line), line).toBe('ask')
  })

  it('a dry run is not marked risky; the kept flag is named in the pattern', () => {
    expect(suggestAlways({ tool: 'bash', kind: 'command', subjects: ['git clean -n -d'] })).toEqual([{ pattern: 'git clean -n *', risky: false }])
    expect(suggestAlways({ tool: 'bash', kind: 'command', subjects: ['rm -i a'] })[0]).toMatchObject({ pattern: 'rm -i *', risky: true })
  })

  it('a hand-written allow rule that names a dry-run flag does not cover the command that turns it off', () => {
    expect(run('git clean -n *', 'git clean -n --no-dry-run -f')).toBe('ask')
    expect(run('kubectl apply --dry-run=client *', 'kubectl apply --dry-run=client --dry-run=none -f x')).toBe('ask')
    // A rule without such a flag means what it says.
    expect(run('git clean *', 'git clean -f')).toBe('allow')
  })
})

it('a command rule with a dash in its literal text is matched, not a regular-expression error', () => {
  const layers = { agent: fromCompact({ '*': 'allow' }), static: fromCompact({ bash: { '*': 'allow', 'rm -rf *': 'deny' } }), runtime: [] }
  expect(decide([layers], { tool: 'bash', kind: 'command', subjects: ['rm -rf build'] }).action).toBe('deny')
  expect(decide([layers], { tool: 'bash', kind: 'command', subjects: ['rm -f build'] }).action).toBe('allow')
})
