import { beforeAll, describe, expect, it } from 'vitest'
import type { CompactPermission, PermissionAction } from '../../src-shared'
import { decide, type LayeredRules, type PermissionRequest } from './decide'
import { fromCompact } from './ruleset'
import { loadShellGrammar } from './shell'

beforeAll(() => loadShellGrammar())

// Subagent chains: chain[0] = root session, then each descendant with its own declared agent
// rules, the same static rules and the same runtime rules. The child gets the most restrictive.
const staticRules = fromCompact({ '*': 'ask', read_file: 'allow', grep: 'allow', task: 'allow', write_file: { '**': 'allow' } })
const noStatic = fromCompact({})

const AGENTS: Record<string, CompactPermission> = {
  build: { '*': 'allow' },
  general: { '*': 'allow' },
  explore: { '*': 'deny', grep: 'allow', glob: 'allow', list_dir: 'allow', read_file: 'allow', web_fetch: 'allow', web_search: 'allow' },
  noBash: { '*': 'allow', bash: 'deny' },
  bashAllowed: { bash: 'allow' },
  docsWriter: { '*': 'allow', write_file: { '*': 'deny', 'docs/**': 'allow' } },
  bashAsker: { '*': 'allow', bash: 'ask' },
  planLike: { '*': 'deny', read_file: 'allow', grep: 'allow', glob: 'allow', list_dir: 'allow', task: 'allow' },
}

function chainOf(names: string[], stat = staticRules, runtime: CompactPermission = {}): LayeredRules[] {
  return names.map((name) => ({ agent: fromCompact(AGENTS[name]), static: stat, runtime: fromCompact(runtime), agentName: name }))
}
const bash = (line: string): PermissionRequest => ({ tool: 'bash', kind: 'command', subjects: [line] })
const write = (p: string): PermissionRequest => ({ tool: 'write_file', kind: 'path', subjects: [p] })

describe('decide over a subagent chain (child ⊆ parent)', () => {
  const cases: { name: string; chain: string[]; stat?: typeof staticRules; req: PermissionRequest; action: PermissionAction }[] = [
    { name: 'parent without bash → child with bash: allow still cannot run bash', chain: ['noBash', 'bashAllowed'], stat: noStatic, req: bash('ls'), action: 'deny' },
    { name: 'parent limited to docs/** → child cannot write src/x', chain: ['docsWriter', 'general'], req: write('src/x'), action: 'deny' },
    { name: 'parent limited to docs/** → child can write docs/a.md', chain: ['docsWriter', 'general'], req: write('docs/a.md'), action: 'allow' },
    { name: 'parent asks for bash → child asks', chain: ['bashAsker', 'bashAllowed'], stat: noStatic, req: bash('ls'), action: 'ask' },
    { name: "explore's *: deny honoured under build", chain: ['build', 'explore'], req: bash('ls'), action: 'deny' },
    { name: 'plan-like parent cannot write through a general child', chain: ['planLike', 'general'], req: write('src/x'), action: 'deny' },
    { name: 'plan-like parent: child may still read', chain: ['planLike', 'general'], req: { tool: 'read_file', kind: 'path', subjects: ['src/x'] }, action: 'allow' },
    { name: 'child stricter than parent: explore under build cannot write', chain: ['build', 'explore'], req: write('docs/a.md'), action: 'deny' },
    // grandchildren (3 levels)
    { name: 'grandchild: deny at the middle level holds', chain: ['build', 'noBash', 'general'], stat: noStatic, req: bash('ls'), action: 'deny' },
    { name: 'grandchild: deny at the root holds', chain: ['planLike', 'general', 'general'], req: write('a.txt'), action: 'deny' },
    { name: 'grandchild: ask at the root carries down', chain: ['bashAsker', 'general', 'bashAllowed'], stat: noStatic, req: bash('ls'), action: 'ask' },
    { name: 'grandchild: docs scope carries down two levels', chain: ['docsWriter', 'general', 'general'], req: write('src/x'), action: 'deny' },
    { name: 'grandchild: allowed at every level → allow', chain: ['general', 'general', 'general'], stat: noStatic, req: bash('ls'), action: 'allow' },
    { name: 'grandchild: the grandchild itself can be the strictest', chain: ['general', 'general', 'explore'], stat: noStatic, req: bash('ls'), action: 'deny' },
  ]
  it.each(cases)('$name', ({ chain, stat, req, action }) => {
    expect(decide(chainOf(chain, stat ?? staticRules), req).action).toBe(action)
  })

  it('an "always allow" runtime rule does not lift a parent\'s deny for the child', () => {
    const chain = chainOf(['noBash', 'general'], staticRules, { bash: { 'git *': 'allow' } })
    expect(decide(chain, bash('git status')).action).toBe('deny')
    // ...while it does lift the static ask where no agent denies.
    expect(decide(chainOf(['general', 'general'], staticRules, { bash: { 'git *': 'allow' } }), bash('git status')).action).toBe('allow')
  })

  it('the reason names the level and agent that decided', () => {
    const d = decide(chainOf(['planLike', 'general']), write('src/x'))
    expect(d).toMatchObject({ action: 'deny', level: 0, layer: 'agent' })
    expect(d.reason).toBe('denied by agent "planLike" rule *: deny at the root session')
    const g = decide(chainOf(['build', 'noBash', 'general'], noStatic), bash('ls'))
    expect(g.reason).toBe('denied by agent "noBash" rule bash: deny at subagent level 1')
  })
})
