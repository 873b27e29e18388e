import { describe, expect, it } from 'vitest'
import type { RunNode } from '../../src-shared/run-map'
import { askerPath, plainWhy, risksOf } from './approval-words'

describe('what an approval card says (issue 28)', () => {
  it.each([
    ['asks by your permissions.jsonc rule bash: ask at the root session', 'Your rules ask first: bash (your permissions.jsonc).'],
    ['asks by permissions.jsonc rule bash "git push*": ask at subagent level 2', 'Your rules ask first: bash "git push*" (your permissions.jsonc).'],
    ['asks by agent "reviewer" rule write_file: ask', 'The agent "reviewer"\'s own rules ask first: write_file.'],
    ['no rule matched → ask at the root session', 'None of your rules covers this yet, so you decide. “Always allow…” adds a rule for next time.'],
    ['the command uses $(…), which cannot be judged before it runs', 'the command uses $(…), which cannot be judged before it runs'],
  ])('%s', (reason, said) => {
    expect(plainWhy(reason)).toBe(said)
    expect(plainWhy(reason)).not.toMatch(/root session|subagent level/)
  })

  it('names the risks its suggestions were flagged for; web_fetch uses the network', () => {
    expect(risksOf({ toolName: 'bash', alwaysSuggestions: [{ pattern: 'curl *', risky: true, reason: 'uses the network' }, { pattern: 'ls *', risky: false }] })).toEqual(['uses the network'])
    expect(risksOf({ toolName: 'web_fetch', alwaysSuggestions: [] })).toEqual(['uses the network'])
  })

  it('shows who asks by the tasks they were given, where the run map knows them', () => {
    const node = (id: string, parentId: string | null, label: string) => ({ id, parentId, label }) as RunNode
    const nodes = { root: node('root', null, 'Fix the build'), c1: node('c1', 'root', 'Check the docs'), c2: node('c2', 'c1', 'Read the tests') }
    expect(askerPath({ sessionId: 'c2', agentPath: ['build', 'general', 'general'], arguments: {} }, nodes)).toEqual(['build', 'Check the docs', 'Read the tests'])
    expect(askerPath({ sessionId: 'x', agentPath: ['build', 'general'], arguments: { labels: ['From the record'] } }, {})).toEqual(['build', 'From the record'])
    expect(askerPath({ sessionId: 'unknown', agentPath: ['build', 'general'], arguments: {} }, nodes)).toEqual(['build', 'general'])
  })
})
