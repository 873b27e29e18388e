import { beforeAll, describe, expect, it } from 'vitest'
import { decide, decideRequests, type LayeredRules, type PermissionRequest } from './decide'
import { DEFAULT_PERMISSIONS_JSONC } from './defaults'
import { fromCompact } from './ruleset'
import { loadShellGrammar } from './shell'
import { parse as parseJsonc } from 'jsonc-parser'

beforeAll(() => loadShellGrammar())

/** Issue 28: a read-only line (the bash tool marks it, see tools/bash-read-only.ts) runs without asking by default. */
const defaults = fromCompact(parseJsonc(DEFAULT_PERMISSIONS_JSONC) as Record<string, never>)
const chain = (o: Partial<LayeredRules> = {}): LayeredRules[] => [{ agent: fromCompact({ '*': 'allow' }), static: defaults, runtime: [], ...o }]
const line = (command: string, reads: string[] = []): PermissionRequest => ({ tool: 'bash', kind: 'command', subjects: [command], readOnly: { reads } })

describe('read-only commands under the default rules', () => {
  it('run without asking, and say why', () => {
    const d = decide(chain(), line('git status && ls -la', ['.']))
    expect(d).toMatchObject({ action: 'allow', readOnly: true, reason: 'allowed without asking: a read-only command' })
  })

  it('ask as before when the line is not marked read-only', () => {
    expect(decide(chain(), { tool: 'bash', kind: 'command', subjects: ['git status'] }).action).toBe('ask')
  })

  it('ask as before when a file it reads is one read_file may not read', () => {
    expect(decide(chain(), line('cat .env', ['.env'])).action).toBe('ask')
    expect(decide(chain(), line('cat config/secret.json', ['config/secret.json'])).action).toBe('ask')
    expect(decide(chain(), line('cat a.txt', ['a.txt'])).action).toBe('allow')
    // A folder read whole: the bash tool adds `folder/*`, so a rule on what is inside it counts.
    expect(decide(chain(), line('grep -r k keys/.ssh', ['keys/.ssh', 'keys/.ssh/*'])).action).toBe('ask')
    expect(decide(chain(), line('grep -r k src', ['src', 'src/*'])).action).toBe('allow')
  })

  it("a person's explicit ask or deny for a pattern wins; so does a deny anywhere", () => {
    const own = (bash: Record<string, 'allow' | 'ask' | 'deny'>) => chain({ static: [...defaults, ...fromCompact({ bash })] })
    expect(decide(own({ 'git log *': 'ask' }), line('git log -5')).action).toBe('ask')
    expect(decide(own({ 'cat *': 'deny' }), line('cat a', ['a'])).action).toBe('deny')
    expect(decide(own({ '*': 'deny' }), line('ls')).action).toBe('deny')
    expect(decide(chain({ agent: fromCompact({ '*': 'allow', bash: 'deny' }) }), line('ls')).action).toBe('deny')
  })

  it('an untrusted workspace may tighten with a pattern, never loosen', () => {
    expect(decide(chain({ workspace: fromCompact({ bash: { 'ls *': 'ask' } }) }), line('ls -la')).action).toBe('ask')
    expect(decide(chain({ workspace: fromCompact({ bash: { 'rm *': 'allow' } }) }), { tool: 'bash', kind: 'command', subjects: ['rm x'] }).action).toBe('ask')
  })

  it('a broken permissions file (its stand-in "*": ask) keeps asking', () => {
    const broken = [{ tool: '*', pattern: '*', action: 'ask' as const, source: { file: 'p.jsonc', label: 'your permissions.jsonc', malformed: 'bad JSON' } }]
    expect(decide(chain({ static: broken }), line('ls')).action).toBe('ask')
  })

  it('every level of a subagent chain must agree', () => {
    const child = { agent: fromCompact({ '*': 'allow', bash: { '*': 'allow', 'ls *': 'deny' } }), static: defaults, runtime: [] }
    expect(decide([...chain(), child], line('ls -la')).action).toBe('deny')
    expect(decide([...chain(), { ...child, agent: fromCompact({ '*': 'allow' }) }], line('ls -la')).action).toBe('allow')
  })

  it('the whole call: the line and the files it writes', () => {
    const writes: PermissionRequest = { tool: 'write_file', kind: 'path', subjects: ['../x'], outsideWorkspace: true, access: 'write' }
    expect(decideRequests(chain(), [line('ls')]).readOnly).toBe(true)
    expect(decideRequests(chain(), [line('ls'), writes]).action).toBe('deny')
  })
})
