import { beforeAll, describe, expect, it } from 'vitest'
import type { CompactPermission, PermissionAction } from '../../src-shared'
import { decide, type LayeredRules, type PermissionRequest } from './decide'
import { fromCompact, type Ruleset } from './ruleset'
import { loadShellGrammar } from './shell'

// Bash lines are judged by parsing them; the grammar loads once (createHost does it in the product).
beforeAll(() => loadShellGrammar())

/**
 * The person outranks the workspace: an untrusted workspace's rules may tighten the person's, never loosen them;
 * a trusted one layers after the person's (last match wins). Runtime grants never lift a deny of either.
 */
const mine = (c: CompactPermission): Ruleset => fromCompact(c).map((r) => ({ ...r, source: { file: '/data/permissions.jsonc', label: 'your permissions.jsonc' } }))
const theirs = (c: CompactPermission): Ruleset =>
  fromCompact(c).map((r) => ({ ...r, source: { file: '/w/.agents/permissions.jsonc', label: "the workspace's .agents/permissions.jsonc" } }))
const malformed: Ruleset = [{ tool: '*', pattern: '*', action: 'ask', source: { file: '/w/.agents/permissions.jsonc', label: 'x', malformed: 'invalid JSONC at line 2, column 1: ValueExpected' } }]

function layers(person: Ruleset, workspace: Ruleset, trusted: boolean, runtime: CompactPermission = {}, agent: CompactPermission = { '*': 'allow' }): LayeredRules[] {
  return [{ agent: fromCompact(agent), static: trusted ? [...person, ...workspace] : person, workspace: trusted ? [] : workspace, runtime: fromCompact(runtime), agentName: 'build' }]
}
const bash = (line: string): PermissionRequest => ({ tool: 'bash', kind: 'command', subjects: [line] })
const read = (p: string): PermissionRequest => ({ tool: 'read_file', kind: 'path', subjects: [p] })

describe('person → workspace → runtime', () => {
  const cases: [string, Ruleset, Ruleset, boolean, CompactPermission, PermissionRequest, PermissionAction, RegExp?][] = [
    ['person deny, workspace allow, untrusted', mine({ bash: 'deny' }), theirs({ bash: 'allow' }), false, {}, bash('id'), 'deny', /denied by your permissions\.jsonc rule bash: deny/],
    ['person deny, workspace allow, trusted', mine({ bash: 'deny' }), theirs({ bash: 'allow' }), true, {}, bash('id'), 'allow', /workspace's \.agents\/permissions\.jsonc rule bash: allow/],
    ['person ask, workspace allow, untrusted', mine({ bash: 'ask' }), theirs({ bash: 'allow' }), false, {}, bash('id'), 'ask', /your permissions\.jsonc/],
    ['person ask, workspace allow, trusted', mine({ bash: 'ask' }), theirs({ bash: 'allow' }), true, {}, bash('id'), 'allow'],
    ['person allow, workspace ask (tightens)', mine({ bash: 'allow' }), theirs({ bash: 'ask' }), false, {}, bash('id'), 'ask', /asks by the workspace's/],
    ['person allow, workspace deny (tightens)', mine({ bash: 'allow' }), theirs({ bash: 'deny' }), false, {}, bash('id'), 'deny', /denied by the workspace's/],
    ['workspace deny is final against "always allow"', mine({ bash: 'allow' }), theirs({ bash: { 'rm *': 'deny' } }), false, { bash: 'allow' }, bash('ls && rm -rf x'), 'deny'],
    ['workspace ask is lifted by the person’s "always allow"', mine({ bash: 'ask' }), theirs({ bash: 'ask' }), false, { bash: 'allow' }, bash('id'), 'allow'],
    ['person deny is final against --yes', mine({ bash: 'deny' }), theirs({}), false, { '*': 'allow' }, bash('id'), 'deny'],
    ['no person rule, workspace allow: the workspace adds nothing (the agent’s allow decides)', mine({}), theirs({ bash: 'allow' }), false, {}, bash('id'), 'allow', /allowed by agent "build"/],
    ['no rule anywhere but the workspace’s allow: asks', mine({}), theirs({ bash: 'allow' }), false, {}, bash('id'), 'ask', /no rule matched/],
    ['no person rule, workspace deny', mine({}), theirs({ bash: 'deny' }), false, {}, bash('id'), 'deny'],
    ['workspace allow for one command under person ask-all', mine({ '*': 'ask' }), theirs({ bash: { 'npm test': 'allow' } }), false, {}, bash('npm test'), 'ask'],
    ['workspace tightens one path of an allowed tool', mine({ read_file: 'allow' }), theirs({ read_file: { 'secrets/**': 'deny' } }), false, {}, read('secrets/a'), 'deny'],
    ['… other paths stay as the person says', mine({ read_file: 'allow' }), theirs({ read_file: { 'secrets/**': 'deny' } }), false, {}, read('src/a.ts'), 'allow'],
    ['a workspace allow after its own deny never lifts the person’s', mine({ read_file: { '*': 'allow', '*.env': 'deny' } }), theirs({ read_file: { '*': 'allow' } }), false, {}, read('.env'), 'deny'],
    ['a malformed workspace file asks for everything', mine({ bash: 'allow', read_file: 'allow' }), malformed, false, {}, read('a.txt'), 'ask', /asks because \/w\/\.agents\/permissions\.jsonc could not be used \(invalid JSONC at line 2/],
    ['a malformed file names itself even when trusted', mine({ '*': 'allow' }), malformed, true, {}, bash('ls'), 'ask', /could not be used/],
    ['agent deny vetoes a trusted workspace allow', mine({}), theirs({ bash: 'allow' }), true, {}, bash('id'), 'deny'],
  ]
  it.each(cases)('%s', (name, person, workspace, trusted, runtime, req, expected, reason) => {
    const agent: CompactPermission = name.startsWith('agent deny') ? { '*': 'allow', bash: 'deny' } : name.startsWith('no rule anywhere') ? {} : { '*': 'allow' }
    const d = decide(layers(person, workspace, trusted, runtime, agent), req)
    expect(d.action).toBe(expected)
    if (reason) expect(d.reason).toMatch(reason)
  })

  it('a workspace agent file cannot lift the person’s deny, however much it grants itself', () => {
    const chain = layers(mine({ '*': 'ask', bash: 'deny', write_file: { '**': 'allow', 'secrets/**': 'deny' } }), [], false, {}, { '*': 'allow', bash: 'allow', write_file: 'allow' })
    expect(decide(chain, bash('id')).action).toBe('deny')
    expect(decide(chain, { tool: 'write_file', kind: 'path', subjects: ['secrets/x'] }).action).toBe('deny')
    // Nor turn the person's ask into allow: static answers come after the agent's allow.
    expect(decide(chain, { tool: 'web_fetch', kind: 'host', subjects: ['example.com'] }).action).toBe('ask')
  })
})
