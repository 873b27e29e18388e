import { beforeAll, describe, expect, it } from 'vitest'
import type { CompactPermission, PermissionAction } from '../../src-shared'
import { decide, type LayeredRules, type PermissionRequest } from './decide'
import { fromCompact } from './ruleset'
import { loadShellGrammar } from './shell'

beforeAll(() => loadShellGrammar())

function level(agent: CompactPermission, stat: CompactPermission = {}, runtime: CompactPermission = {}, agentName?: string): LayeredRules {
  return { agent: fromCompact(agent), static: fromCompact(stat), runtime: fromCompact(runtime), agentName }
}
const bash = (line: string): PermissionRequest => ({ tool: 'bash', kind: 'command', subjects: [line] })
const read = (...paths: string[]): PermissionRequest => ({ tool: 'read_file', kind: 'path', subjects: paths })

describe('decide: layers at one level (agent → static → runtime)', () => {
  const cases: { name: string; agent: CompactPermission; stat?: CompactPermission; runtime?: CompactPermission; req: PermissionRequest; action: PermissionAction }[] = [
    { name: "build's *: allow + static bash: ask → ask", agent: { '*': 'allow' }, stat: { bash: 'ask' }, req: bash('ls'), action: 'ask' },
    { name: "explore's *: deny + static read_file: allow, for bash → deny", agent: { '*': 'deny', read_file: 'allow' }, stat: { read_file: 'allow' }, req: bash('ls'), action: 'deny' },
    { name: 'static allow cannot lift an agent deny', agent: { bash: 'deny' }, stat: { bash: 'allow' }, req: bash('ls'), action: 'deny' },
    { name: 'runtime allow cannot lift an agent deny', agent: { bash: { 'rm *': 'deny' } }, runtime: { bash: { 'rm *': 'allow' } }, req: bash('rm x'), action: 'deny' },
    { name: 'runtime allow cannot lift a static deny', agent: { '*': 'allow' }, stat: { read_file: { '*.env': 'deny' } }, runtime: { read_file: { '**': 'allow' } }, req: read('.env'), action: 'deny' },
    { name: 'runtime allow lifts a static ask', agent: { '*': 'allow' }, stat: { bash: 'ask' }, runtime: { bash: { 'git push *': 'allow' } }, req: bash('git push origin main'), action: 'allow' },
    { name: 'runtime allow lifts an agent ask', agent: { bash: 'ask' }, runtime: { bash: { 'npm *': 'allow' } }, req: bash('npm test'), action: 'allow' },
    { name: 'runtime rule only covers its pattern', agent: { '*': 'allow' }, stat: { bash: 'ask' }, runtime: { bash: { 'git push *': 'allow' } }, req: bash('git reset --hard'), action: 'ask' },
    { name: 'runtime deny is honoured', agent: { '*': 'allow' }, runtime: { bash: { 'curl *': 'deny' } }, req: bash('curl x'), action: 'deny' },
    { name: 'static (later) ask overrides agent allow', agent: { read_file: 'allow' }, stat: { read_file: 'ask' }, req: read('a.ts'), action: 'ask' },
    { name: 'static allow overrides agent ask (only denies are vetoes)', agent: { read_file: 'ask' }, stat: { read_file: 'allow' }, req: read('a.ts'), action: 'allow' },
    { name: 'agent allow stands when static is silent', agent: { grep: 'allow' }, stat: { bash: 'ask' }, req: { tool: 'grep', kind: 'path', subjects: ['src'] }, action: 'allow' },
    { name: 'agent deny is not a veto when a later agent rule allows', agent: { '*': 'deny', grep: 'allow' }, req: { tool: 'grep', kind: 'path', subjects: ['src'] }, action: 'allow' },
    { name: 'nothing matched anywhere → ask', agent: { grep: 'allow' }, req: bash('ls'), action: 'ask' },
  ]
  it.each(cases)('$name', ({ agent, stat, runtime, req, action }) => {
    expect(decide([level(agent, stat, runtime)], req).action).toBe(action)
  })

  it('says which layer and rule decided', () => {
    const d = decide([level({ '*': 'deny', read_file: 'allow' }, {}, {}, 'explore')], bash('ls'))
    expect(d).toMatchObject({ action: 'deny', layer: 'agent', subject: 'ls', rule: { tool: '*', pattern: '*', action: 'deny' } })
    expect(d.reason).toBe('denied by agent "explore" rule *: deny')
    expect(decide([level({ bash: 'deny' }, {}, {}, 'explore')], bash('ls')).reason).toBe('denied by agent "explore" rule bash: deny')
    const s = decide([level({ '*': 'allow' }, { read_file: { '*.env': 'deny' } })], read('a/.env'))
    expect(s.reason).toBe('denied by permissions.jsonc rule read_file "*.env": deny')
    expect(decide([level({}, {})], bash('ls')).reason).toBe('no rule matched → ask')
  })

  it('throws on an empty chain instead of guessing', () => {
    expect(() => decide([], bash('ls'))).toThrow(/chain is empty/)
  })
})

describe('decide: several subjects (any deny → deny, else any ask → ask)', () => {
  const agent: CompactPermission = { bash: { '*': 'allow', 'rm *': 'deny', 'curl *': 'ask' } }
  it.each<[string, PermissionAction, string | undefined]>([
    ['ls && rm -rf x', 'deny', 'rm -rf x'],
    ['ls; echo $(rm -rf /)', 'deny', 'rm -rf /'],
    ['(cd x; rm -rf y)', 'deny', 'rm -rf y'],
    ['FOO=1 rm x', 'deny', 'rm x'],
    ['if true; then rm x; fi', 'deny', 'rm x'],
    ['ls | curl x', 'ask', 'curl x'],
    ['curl x && rm y', 'deny', 'rm y'],
    ['echo "rm && x" | wc -l', 'allow', undefined],
    ['ls -la && git status', 'allow', undefined],
  ])('%s → %s', (line, action, subject) => {
    const d = decide([level(agent)], bash(line))
    expect(d.action).toBe(action)
    if (subject) expect(d.subject).toBe(subject)
  })

  it('checks every path subject', () => {
    const l = level({ read_file: { '*': 'allow', '*.env': 'deny', 'big/**': 'ask' } })
    expect(decide([l], read('a.ts', 'b.ts')).action).toBe('allow')
    expect(decide([l], read('a.ts', 'big/x')).action).toBe('ask')
    expect(decide([l], read('big/x', 'cfg/.env', 'a.ts'))).toMatchObject({ action: 'deny', subject: 'cfg/.env' })
  })

  it('a request with no subjects is decided on tool rules alone', () => {
    expect(decide([level({ todo: 'allow' })], { tool: 'todo', kind: 'other', subjects: [] }).action).toBe('allow')
    expect(decide([level({ todo: { 'x*': 'allow' } })], { tool: 'todo', kind: 'other', subjects: [] }).action).toBe('ask')
  })
})

describe('decide: paths outside the workspace', () => {
  it.each<[string, LayeredRules, PermissionRequest, PermissionAction]>([
    ['catch-all allow does not leave the workspace', level({ '*': 'allow' }, { read_file: { '**': 'allow' } }), read('/etc/passwd'), 'deny'],
    ['runtime catch-all does not either', level({ '*': 'allow' }, {}, { read_file: 'allow' }), read('/etc/passwd'), 'deny'],
    ['an absolute static rule allows it', level({ '*': 'allow' }, { read_file: { '/etc/**': 'allow' } }), read('/etc/passwd'), 'allow'],
    ['an absolute rule cannot lift an agent deny', level({ read_file: 'deny' }, { read_file: { '/etc/**': 'allow' } }), read('/etc/passwd'), 'deny'],
    ['a tool the agent denies stays denied outside, whatever static says', level({ '*': 'deny', grep: 'allow' }, { read_file: { '/etc/**': 'allow' } }), read('/etc/passwd'), 'deny'],
    ['a static name deny still applies outside', level({ '*': 'allow' }, { read_file: { '/home/**': 'allow', '*.env': 'deny' } }), read('/home/u/p/.env'), 'deny'],
    ['runtime absolute allow works (explicit rule)', level({ '*': 'allow' }, { '*': 'ask' }, { read_file: { '/opt/data/**': 'allow' } }), read('/opt/data/x.csv'), 'allow'],
    ['outsideWorkspace flag on a relative subject', level({ '*': 'allow' }), { ...read('../x'), outsideWorkspace: true }, 'deny'],
    ['inside paths unaffected', level({ '*': 'allow' }), read('src/a.ts'), 'allow'],
  ])('%s', (_name, layers, req, action) => {
    expect(decide([layers], req).action).toBe(action)
  })

  it('explains the outside deny', () => {
    expect(decide([level({ '*': 'allow' })], read('/etc/passwd')).reason).toMatch(/outside the workspace/)
  })
})
