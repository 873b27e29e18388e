import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AgentInfo } from '../../src-shared'
import { BUILTIN_AGENTS, parseManifest } from '../agents'
import { startScriptedChatServer, type ScriptedChatServer } from '../models/testing'
import { loadStaticRules, DEFAULT_PERMISSIONS_JSONC } from '../permissions'
import { agentRules, decideFor, type RunLevel } from '../runtime'
import { CALLER_AGENT_LINE } from '../loop'
import { createHarness, flatten, toolParts, type Harness, waitFor } from '../testing/harness'
import { loadShellGrammar } from '../permissions'

beforeAll(() => loadShellGrammar())

let h: Harness | undefined
let server: ScriptedChatServer | undefined
afterEach(async () => {
  await h?.close()
  await server?.close()
  h = undefined
  server = undefined
})

const builtin = (name: string) => BUILTIN_AGENTS.find((a) => a.name === name)!
function agent(name: string, permission: Record<string, unknown>): AgentInfo {
  const r = parseManifest(`/x/${name}.md`, `---\ndescription: ${name}\nmode: subagent\npermission: ${JSON.stringify(permission)}\n---\n`, 'project')
  if ('errors' in r) throw new Error(JSON.stringify(r.errors))
  return r.agent
}

/** The effective decision for a call made by the last agent of `chain`, with the default static rules. */
function decideChain(chain: AgentInfo[], tool: string, kind: 'path' | 'command' | 'name', subject: string) {
  const staticRules = loadStaticRules([writeTemp(DEFAULT_PERMISSIONS_JSONC)]).rules
  const settings = { rules: { static: staticRules, workspace: [], errors: [] } }
  const level = { chain: chain.map(agentRules), agentPath: chain.map((a) => a.name), workdir: '/w', rootSessionId: 'r', settings, grants: [] } as unknown as RunLevel
  return decideFor(level, { runtimeRules: () => [] }, { tool, kind, subjects: [subject] }).action
}
let tempFile: string | undefined
function writeTemp(text: string): string {
  tempFile ??= path.join(fs.mkdtempSync('/tmp/agentry-perm-'), 'permissions.jsonc')
  fs.writeFileSync(tempFile, text)
  return tempFile
}

describe('permission intersection: a child can never exceed its parent', () => {
  const cases: [string, AgentInfo[], string, 'path' | 'command' | 'name', string, string][] = [
    ['parent without bash → child with bash: allow still cannot', [agent('nobash', { '*': 'allow', bash: 'deny' }), agent('worker', { bash: 'allow' })], 'bash', 'command', 'ls', 'deny'],
    ['parent limited to docs/** → child cannot write src/x', [agent('docs', { '*': 'allow', write_file: { '*': 'deny', 'docs/**': 'allow' } }), builtin('general')], 'write_file', 'path', 'src/x', 'deny'],
    ['… but the child may write inside docs/**', [agent('docs', { '*': 'allow', write_file: { '*': 'deny', 'docs/**': 'allow' } }), builtin('general')], 'write_file', 'path', 'docs/a.md', 'allow'],
    ['parent asks for bash → child asks too', [agent('asker', { '*': 'allow', bash: 'ask' }), agent('worker', { '*': 'allow', bash: 'allow' })], 'bash', 'command', 'ls', 'ask'],
    ["explore's *: deny is honoured", [builtin('build'), builtin('explore')], 'write_file', 'path', 'a.txt', 'deny'],
    ['plan cannot write through general', [builtin('plan'), builtin('general')], 'write_file', 'path', 'a.txt', 'deny'],
    ['plan cannot run bash through general', [builtin('plan'), builtin('general')], 'bash', 'command', 'ls', 'deny'],
    ['plan may still read through general', [builtin('plan'), builtin('general')], 'read_file', 'path', 'a.txt', 'allow'],
    ['grandchild inherits the child’s limits', [builtin('build'), agent('nobash', { '*': 'allow', bash: 'deny' }), builtin('general')], 'bash', 'command', 'ls', 'deny'],
    ['grandchild of explore cannot write', [builtin('build'), builtin('explore'), builtin('general')], 'edit_file', 'path', 'a.txt', 'deny'],
    ['a hidden deny in a bash chain denies the line', [agent('norm', { '*': 'allow', bash: { '*': 'allow', 'rm *': 'deny' } }), builtin('general')], 'bash', 'command', 'ls && rm -rf x', 'deny'],
    ["a parent's task rules bound which agents its child may call", [agent('picky', { '*': 'allow', task: { '*': 'allow', general: 'deny' } }), agent('mid', { '*': 'allow' })], 'task', 'name', 'general', 'deny'],
  ]
  it.each(cases)('%s', (_name, chain, tool, kind, subject, expected) => {
    expect(decideChain(chain, tool, kind, subject)).toBe(expected)
  })
})

describe('task availability and what the model sees', () => {
  async function harnessWithServer(responses: Parameters<typeof startScriptedChatServer>[0], extra: Parameters<typeof createHarness>[0] = {}) {
    server = await startScriptedChatServer(responses)
    h = await createHarness({
      ...extra,
      config: { model: 'mock/m', providers: { mock: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } }, ...extra.config },
    })
    return h
  }
  type Req = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string; description: string; parameters: { properties: Record<string, { enum?: string[] }> } } }[] }

  it('offers task with an enum of callable agents and a description listing their tools', async () => {
    await harnessWithServer([{ text: 'hi' }, { text: 'title' }])
    await h!.run('hello')
    const req = server!.requests.find((r) => (r as Req).tools?.some((t) => t.function.name === 'task')) as Req
    const taskTool = req.tools!.find((t) => t.function.name === 'task')!
    // hidden agents stay callable by task (spec: hidden only hides them from pickers)
    expect(taskTool.function.parameters.properties.subagent_type.enum).toEqual(['general', 'explore', 'fork'])
    expect(taskTool.function.description).toContain('- explore: ')
    // an openai-compatible server has no native web search: the listing names only tools explore really has
    expect(taskTool.function.description).toMatch(/- explore: .* Tools: read_file, list_dir, glob, grep, web_fetch\.\n/)
    expect(taskTool.function.description).toMatch(/- general: .* Tools: read_file, write_file, edit_file, list_dir, glob, grep, bash, web_fetch, task\./)
  })

  it('omits task when no agent is callable', async () => {
    await harnessWithServer([{ text: 'hi' }, { text: 'title' }], { permissions: '{ "*": "ask", "task": "deny" }' })
    await h!.run('hello')
    const names = (server!.requests as Req[]).flatMap((r) => (r.tools ?? []).map((t) => t.function.name))
    expect(names).toContain('read_file')
    expect(names).not.toContain('task')
  })

  it('runs children on the inherited model; caller: agent adds exactly one system line', async () => {
    await harnessWithServer(
      {
        respond: (body: unknown) => {
          const b = body as Req
          const system = String(b.messages.find((m) => m.role === 'system')?.content ?? '')
          if (system.includes('structured-helper')) return { text: 'structured result' }
          if (b.messages.some((m) => m.role === 'tool')) return { text: 'parent done' }
          if (system.includes('Write a title')) return { text: 'A title' }
          return { toolCalls: [{ name: 'task', arguments: { subagent_type: 'structured', description: 'structured call', prompt: 'go' } }] }
        },
      },
    )
    h!.writeAgent('structured', { mode: 'subagent', caller: 'agent' }, 'You are structured-helper.')
    const r = await h!.run('delegate')
    expect(r.final?.text).toBe('parent done')
    const childReq = (server!.requests as Req[]).find((q) => String(q.messages[0].content).includes('structured-helper'))!
    const system = String(childReq.messages[0].content)
    expect(system.split(CALLER_AGENT_LINE).length - 1).toBe(1)
    const parentReq = (server!.requests as Req[]).find((q) => q.tools?.some((t) => t.function.name === 'task'))!
    expect(String(parentReq.messages[0].content)).not.toContain(CALLER_AGENT_LINE)
  })
})

describe('approvals from descendants surface at the root', () => {
  it('a depth-3 approval reaches the root, is answered like a direct one, and the run continues', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'mid', description: 'level 1', prompt: 'go' } }] }, { step: 2, text: 'root done' }],
          mid: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'leaf', description: 'level 2', prompt: 'go' } }] }, { step: 2, text: 'mid done' }],
          leaf: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'runner', description: 'level 3', prompt: 'go' } }] }, { step: 2, text: 'leaf done' }],
          runner: [{ step: 1, tools: [{ name: 'bash', input: { command: 'echo from-depth-3' } }] }, { step: 2, text: 'ran it' }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    for (const name of ['mid', 'leaf', 'runner']) h.writeAgent(name, { mode: 'subagent' })
    const { sessionId } = await h.run('deep', { wait: false })
    const approval = await waitFor(() => h!.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })[0])
    expect(approval.agentPath).toEqual(['build', 'mid', 'leaf', 'runner'])
    expect(approval.toolName).toBe('bash')
    expect(approval.alwaysSuggestions.map((s) => s.pattern)).toEqual(['echo *'])
    const required = flatten(h.events.filter((e) => e.stream === sessionId).map((e) => e.event)).find((f) => f.event.type === 'tool_approval_required')!
    expect(required.path).toHaveLength(3)
    expect(h.host.store.sessions.getSession(sessionId)?.status).toBe('waiting_on_approval')
    await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
    await h.host.runner.idle()
    await h.host.runs.settleAll()
    h.host.store.flush()
    const messages = h.host.store.transcript.listMessages(sessionId)
    expect(messages.filter((m) => m.role === 'assistant').at(-1)?.parts[0].data.text).toBe('root done')
    expect(JSON.stringify(messages)).toContain('from-depth-3')
    expect(h.host.store.approvals.getApproval(approval.id)?.status).toBe('approved')
    expect(h.host.store.sessions.getSession(sessionId)?.status).toBe('idle')
  })

  it('deny with feedback goes back to the model; allow always saves a rule that re-checks the other pending calls', async () => {
    h = await createHarness({
      script: {
        agents: {
          build: [
            { step: 1, tools: [{ name: 'bash', input: { command: 'npm test' } }, { name: 'bash', input: { command: 'npm test -- --ci' } }, { name: 'bash', input: { command: 'make' } }] },
            { step: 2, text: 'done' },
          ],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const { sessionId } = await h.run('go', { wait: false })
    await waitFor(() => (h!.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' }).length === 3 ? true : undefined))
    const pending = h.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })
    const byCmd = (c: string) => pending.find((a) => (a.arguments as { input: { command: string } }).input.command === c)!
    const always = await h.host.api.calls['approvals.answer']({ approvalId: byCmd('npm test').id, decision: 'allow_always', patterns: ['npm test*'], scope: 'session' })
    expect(always.alsoResolved).toEqual([byCmd('npm test -- --ci').id])
    await h.host.api.calls['approvals.answer']({ approvalId: byCmd('make').id, decision: 'deny', feedback: 'do not build yet' })
    await h.host.runner.idle()
    h.host.store.flush()
    const parts = toolParts(h.host.store.transcript.listMessages(sessionId))
    expect(parts.map((p) => p.toolState)).toEqual(['output-available', 'output-available', 'output-error'])
    expect(String(parts[2].data.error)).toContain('do not build yet')
    const rules = (await h.host.api.calls['rules.list']({ sessionId })).rules
    expect(rules.map((r) => [r.tool, r.pattern, r.action])).toEqual([['bash', 'npm test*', 'allow']])
    // "always" never lifts a deny
    expect(decideChain([agent('x', { '*': 'allow', bash: { 'git *': 'deny' } })], 'bash', 'command', 'git status')).toBe('deny')
  })
})
