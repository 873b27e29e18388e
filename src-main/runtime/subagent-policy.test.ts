import { describe, expect, it } from 'vitest'
import { AgentInfo, Config, type CompactPermission } from '../../src-shared'
import { decide } from '../permissions'
import { subagentRules } from './tool-set'

const agent = (permission: CompactPermission) => AgentInfo.parse({ name: 'a', description: 'd', prompt: '', source: { kind: 'builtin' }, permission })

/** The child's own layer under the policy, judged alone (static layer allows everything, so only the agent layer decides). */
function action(permission: CompactPermission, tools: Config['subagents']['tools'], tool: string, subject = 'x'): string {
  const config = Config.parse({ subagents: { tools } })
  const rules = subagentRules(agent(permission), config)
  return decide([{ agent: rules, static: [{ tool: '*', pattern: '*', action: 'allow' }], runtime: [] }], { tool, kind: 'name', subjects: [subject] }).action
}

describe('subagents.tools: a policy that only takes tools away', () => {
  it.each([
    // permission, policy, tool, expected
    [{ '*': 'allow' }, undefined, 'bash', 'allow'],
    [{ '*': 'allow' }, { deny: ['bash'] }, 'bash', 'deny'],
    [{ '*': 'allow' }, { deny: ['bash'] }, 'read_file', 'allow'],
    [{ '*': 'allow' }, { allow: ['read_file'] }, 'bash', 'deny'],
    [{ '*': 'allow' }, { allow: ['read_file'] }, 'read_file', 'allow'],
    // deny wins over allow
    [{ '*': 'allow' }, { allow: ['read_file', 'bash'], deny: ['bash'] }, 'bash', 'deny'],
    // allow never lifts the agent's own deny
    [{ '*': 'allow', bash: 'deny' }, { allow: ['bash'] }, 'bash', 'deny'],
    // the agent's per-subject rules survive for an allowed tool
    [{ '*': 'allow', task: { '*': 'allow', secret: 'deny' } }, { allow: ['task'] }, 'task', 'allow'],
  ] as const)('%j under %j: %s → %s', (permission, policy, tool, expected) => {
    expect(action(permission as CompactPermission, policy as Config['subagents']['tools'], tool)).toBe(expected)
  })

  it('keeps per-subject rules of an allowed tool in their order', () => {
    expect(action({ '*': 'allow', task: { '*': 'allow', secret: 'deny' } }, { allow: ['task'] }, 'task', 'secret')).toBe('deny')
  })

  it('refuses a policy entry that is not a tool name, naming the path', () => {
    const r = Config.safeParse({ subagents: { tools: { deny: ['rm -rf'] } } })
    expect(r.success).toBe(false)
    expect(r.error!.issues[0]).toMatchObject({ path: ['subagents', 'tools', 'deny', 0], message: 'must be a tool name such as "bash"' })
  })
})
