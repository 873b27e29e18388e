import { describe, expect, it } from 'vitest'
import type { CompactPermission } from '../../src-shared'
import { fromCompact } from '../permissions'
import { networkAllowed, sandboxPolicy } from './sandbox-policy'

const chain = (agent: CompactPermission, stat: CompactPermission, runtime: CompactPermission = {}) => [
  { agent: fromCompact(agent), static: fromCompact(stat), runtime: fromCompact(runtime) },
]

describe('network for bash is opt-in by name', () => {
  it.each<[string, CompactPermission, CompactPermission, CompactPermission, boolean]>([
    ['the default rules', { '*': 'allow' }, { '*': 'ask', bash: 'ask' }, {}, false],
    ['"network": "allow" in permissions.jsonc', { '*': 'allow' }, { '*': 'ask', network: 'allow' }, {}, true],
    ['a catch-all allow does not count', { '*': 'allow' }, { '*': 'allow' }, {}, false],
    ['--yes (a runtime catch-all) does not count', { '*': 'allow' }, { '*': 'ask' }, { '*': 'allow' }, false],
    ['--allow network does', { '*': 'allow' }, { '*': 'ask' }, { network: 'allow' }, true],
    ["an agent's network deny is final", { '*': 'allow', network: 'deny' }, { network: 'allow' }, {}, false],
    ['network: ask is not allow', { '*': 'allow' }, { network: 'ask' }, {}, false],
  ])('%s → %s', (_name, agent, stat, runtime, expected) => {
    expect(networkAllowed(chain(agent, stat, runtime))).toBe(expected)
  })

  it('a subagent gets network only if its parent has it too', () => {
    const parent = chain({ '*': 'allow' }, { network: 'allow' })[0]
    expect(networkAllowed([parent, { ...parent, agent: fromCompact({ network: 'deny' }) }])).toBe(false)
    expect(networkAllowed([parent, parent])).toBe(true)
  })
})

it('the policy: protected paths read-only, the data dir hidden, ~ in writable folders expanded', () => {
  const p = sandboxPolicy({ settings: { enabled: false, writable: ['~/cache', '/opt/x'] }, network: false, workdir: '/w', dataDir: '/data' })
  expect(p.enabled).toBe(false)
  expect(p.hidden).toEqual(['/data'])
  expect(p.readOnly).toEqual(expect.arrayContaining(['/w/.agents', '/w/.claude', '/w/.mcp.json', '/w/.git/config', '/w/.git/hooks', '/data']))
  expect(p.writable[0]).toMatch(/\/cache$/)
  expect(p.writable[0].startsWith('~')).toBe(false)
  expect(p.writable[1]).toBe('/opt/x')
})
