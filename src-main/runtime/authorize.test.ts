import { describe, expect, it } from 'vitest'
import type { CompactPermission } from '../../src-shared'
import { fromCompact, type Ruleset } from '../permissions'
import type { PermissionAsk } from '../tools'
import { rulesSay, snapshotRules, type RuleSources } from './authorize'
import type { RunLevel } from './level'

// ToolContext.checkRules as the runtime answers it: the real decision over agent → static → runtime layers, and
// `named` for what no blanket grant may open (web_fetch to a loopback address).

/** A run level whose static layer (the run's snapshot of the person's rules) is `staticRules`. */
function level(staticRules: CompactPermission, agentRules: CompactPermission[] = [{ '*': 'allow' }]): RunLevel {
  return {
    workdir: '/w',
    rootSessionId: 'ses_root',
    chain: agentRules.map(fromCompact),
    agentPath: agentRules.map((_, i) => `a${i}`),
    settings: { rules: { static: fromCompact(staticRules), workspace: [], errors: [] } },
    grants: [],
  } as unknown as RunLevel
}
function sources(runtime: Ruleset = []): RuleSources {
  return { runtimeRules: () => runtime, protectedWrite: () => null }
}
const host = (h: string): PermissionAsk => ({ kind: 'host', subjects: [h] })
const read = (p: string): PermissionAsk => ({ kind: 'path', subjects: [p], tool: 'read_file', access: 'read' })
const YES: Ruleset = [{ tool: '*', pattern: '*', action: 'allow' }]

describe('rulesSay', () => {
  it.each([
    ['a rule naming the host', { web_fetch: { '127.0.0.1': 'allow' } }, [], 'allow', 'allow'],
    ['a web_fetch catch-all', { web_fetch: 'allow' }, [], 'allow', 'ask'],
    ['a tool catch-all', { '*': 'allow' }, [], 'allow', 'ask'],
    ['--yes (a runtime catch-all)', { '*': 'ask' }, YES, 'allow', 'ask'],
    ['an "Always allow" answer naming the host', { '*': 'ask' }, [{ tool: 'web_fetch', pattern: '127.0.0.1', action: 'allow' }], 'allow', 'allow'],
    ['a glob that names hosts (not a catch-all)', { web_fetch: { '127.0.0.*': 'allow' } }, [], 'allow', 'allow'],
    ['a named rule and a later deny', { web_fetch: { '127.0.0.1': 'allow', '127.*': 'deny' } }, [], 'deny', 'deny'],
    ['a rule naming another host', { web_fetch: { '*': 'allow', localhost: 'allow' } }, [], 'allow', 'ask'],
  ] as Array<[string, CompactPermission, Ruleset, string, string]>)('web_fetch 127.0.0.1 under %s: %s / named %s', (_what, staticRules, runtime, plain, named) => {
    const o = { level: level(staticRules), rules: sources(runtime), toolName: 'web_fetch', ask: host('127.0.0.1') }
    expect(rulesSay(o)).toBe(plain)
    expect(rulesSay({ ...o, named: true })).toBe(named)
  })

  it('judges per-file reads under read_file rules, by the ask\'s own tool, at every agent level', () => {
    const staticRules: CompactPermission = { read_file: { '*': 'allow', '*.env': 'deny', 'ask-me/**': 'ask' }, grep: 'allow' }
    const say = (ask: PermissionAsk | PermissionAsk[], agents?: CompactPermission[]) => rulesSay({ level: level(staticRules, agents), rules: sources(), toolName: 'grep', ask })
    expect([say(read('src/a.ts')), say(read('.env')), say(read('ask-me/x')), say(read('/etc/passwd'))]).toEqual(['allow', 'deny', 'ask', 'deny'])
    // A child whose agent denies read_file cannot grep contents either.
    expect(say(read('src/a.ts'), [{ '*': 'allow' }, { '*': 'deny', grep: 'allow' }])).toBe('deny')
    // Several asks: the most restrictive.
    expect(say([read('src/a.ts'), read('ask-me/x')])).toBe('ask')
  })

  it('reads the runtime rules once per snapshot, however many files a tool checks', () => {
    let reads = 0
    const counted: RuleSources = { runtimeRules: () => (reads++, []), protectedWrite: () => null }
    const lvl = level({ read_file: 'allow' })
    const rules = snapshotRules(lvl, counted)
    for (let i = 0; i < 1_000; i++) rulesSay({ level: lvl, rules, toolName: 'grep', ask: read(`f${i}.ts`) })
    expect(reads).toBe(1)
  })
})
