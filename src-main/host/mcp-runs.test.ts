import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { MessageWithParts, PartRecord } from '../../src-shared'
import { EVERYTHING, filesystemServer } from '../mcp/testing/servers'
import { createHarness, flatten, type Harness, type HarnessOptions } from '../testing/harness'

const harnesses: Harness[] = []
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()))
})

/** Rules for these runs: MCP tools as `mcpRule` says, subagents allowed, the rest asks. */
function rules(mcpRule: 'allow' | 'ask'): string {
  return JSON.stringify({ '*': 'ask', task: 'allow', read_file: 'allow', 'mcp__*': mcpRule })
}

async function harness(o: HarnessOptions & { mcpRule?: 'allow' | 'ask'; servers?: Record<string, unknown> }): Promise<Harness> {
  const h = await createHarness({
    permissions: rules(o.mcpRule ?? 'allow'),
    ...o,
    config: { ...o.config, mcp: o.servers ?? { everything: EVERYTHING } },
  })
  harnesses.push(h)
  return h
}

function toolParts(messages: MessageWithParts[]): PartRecord[] {
  return messages.flatMap((m) => m.parts).filter((p) => p.type.startsWith('tool-'))
}

/** Every tool part in a run, nested children included (from the tool_call_end events). */
function toolEnds(h: Harness): { tool: string; ok: boolean; output: string; path: string[] }[] {
  return flatten(h.events.map((e) => e.event)).flatMap(({ path: p, event: e }) => (e.type === 'tool_call_end' ? [{ tool: e.toolName, ok: e.ok, output: e.output, path: p }] : []))
}

async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('MCP tools in runs (scripted model, real servers)', () => {
  it('a run lists and calls tools of server-everything and server-filesystem; cards carry the server', async () => {
    const h = await harness({
      servers: { everything: EVERYTHING, fs: { ...filesystemServer('.') } },
      files: { 'notes/todo.txt': 'ship it\n' },
      script: {
        agents: {
          build: [
            {
              step: 1,
              tools: [
                { name: 'mcp__everything__get-sum', input: { a: 19, b: 23 } },
                { name: 'mcp__fs__read_text_file', input: { path: 'notes/todo.txt' } },
              ],
            },
            { step: 2, text: 'done' },
          ],
        },
      },
    })
    const r = await h.run('add and read')
    expect(r.final).toMatchObject({ finishReason: 'stop', text: 'done' })
    const parts = toolParts(r.messages)
    expect(parts.map((p) => [p.type, p.toolState])).toEqual([
      ['tool-mcp__everything__get-sum', 'output-available'],
      ['tool-mcp__fs__read_text_file', 'output-available'],
    ])
    expect(String(parts[0].data.output)).toMatch(/42/)
    expect(parts[1].data.output).toBe('ship it\n')
    expect(parts[1].data.metadata).toMatchObject({ mcp: { server: 'fs', tool: 'read_text_file' } })
    // The filesystem server ran in the workspace (its "." is the workspace).
    const list = await h.host.api.calls['mcp.list']({ workspaceRoot: h.workdir })
    expect(list.servers.map((s) => [s.name, s.status])).toEqual([['everything', 'running'], ['fs', 'running']])
    expect(list.servers[1].tools.map((t) => t.fullName)).toContain('mcp__fs__read_text_file')
  })

  it('an ask rule raises an approval that surfaces at the root from a depth-2 child, naming server and tool', async () => {
    const h = await harness({
      mcpRule: 'ask',
      agents: { mid: { mode: 'subagent' }, leaf: { mode: 'subagent' } },
      script: {
        agents: {
          build: [{ step: 1, tools: [{ name: 'task', input: { description: 'delegate', prompt: 'go deeper', subagent_type: 'mid' } }] }, { step: 2, text: 'root done' }],
          mid: [{ step: 1, tools: [{ name: 'task', input: { description: 'leaf work', prompt: 'echo it', subagent_type: 'leaf' } }] }, { step: 2, text: 'mid done' }],
          leaf: [{ step: 1, tools: [{ name: 'mcp__everything__echo', input: { message: 'from the leaf' } }] }, { step: 2, text: 'leaf done' }],
        },
      },
    })
    const { sessionId } = await h.run('start', { wait: false })
    let approvals = (await h.host.api.calls['approvals.list']({ rootSessionId: sessionId })).approvals
    await until(async () => (approvals = (await h.host.api.calls['approvals.list']({ rootSessionId: sessionId })).approvals).length > 0, 'the approval')
    expect(approvals[0]).toMatchObject({
      rootSessionId: sessionId,
      toolName: 'mcp__everything__echo',
      agentPath: ['build', 'mid', 'leaf'],
      arguments: { input: { message: 'from the leaf' }, summary: 'MCP server "everything", tool "echo"' },
      alwaysSuggestions: [{ pattern: 'echo', risky: false }],
    })
    await h.host.api.calls['approvals.answer']({ approvalId: approvals[0].id, decision: 'allow_once' })
    await until(() => h.events.some((e) => e.event.type === 'turn_complete' && e.event.sessionId === sessionId), 'the root to finish')
    expect(toolEnds(h).find((t) => t.tool === 'mcp__everything__echo')).toMatchObject({ ok: true, output: 'Echo: from the leaf' })
  })

  it('"always allow" is per tool: the same tool runs again without asking, another tool of the server still asks', async () => {
    const h = await harness({
      mcpRule: 'ask',
      script: {
        agents: {
          build: [
            { step: 1, tools: [{ name: 'mcp__everything__echo', input: { message: 'one' } }] },
            { step: 2, tools: [{ name: 'mcp__everything__echo', input: { message: 'two' } }] },
            { step: 3, tools: [{ name: 'mcp__everything__get-sum', input: { a: 1, b: 2 } }] },
            { step: 4, text: 'ok' },
          ],
        },
      },
    })
    const { sessionId } = await h.run('go', { wait: false })
    const pending = async () => (await h.host.api.calls['approvals.list']({ rootSessionId: sessionId })).approvals.filter((a) => a.status === 'pending')
    await until(async () => (await pending()).length === 1, 'the first approval')
    const first = (await pending())[0]
    expect(first.toolName).toBe('mcp__everything__echo')
    await h.host.api.calls['approvals.answer']({ approvalId: first.id, decision: 'allow_always', scope: 'session' })
    await until(async () => (await pending()).length === 1 && (await pending())[0].id !== first.id, 'the second approval')
    expect((await pending())[0].toolName).toBe('mcp__everything__get-sum')
    expect(toolEnds(h).filter((t) => t.tool === 'mcp__everything__echo').map((t) => t.output)).toEqual(['Echo: one', 'Echo: two'])
    await h.host.api.calls['approvals.answer']({ approvalId: (await pending())[0].id, decision: 'deny' })
  })

  type Visibility = { label: string; parent: Record<string, unknown>; child: Record<string, unknown>; callable: boolean }
  const visibility: Visibility[] = [
    { label: 'no MCP settings on either: inherited', parent: {}, child: {}, callable: true },
    { label: 'the child names the server', parent: {}, child: { mcpServers: ['everything'] }, callable: true },
    { label: 'the child names only another server', parent: {}, child: { mcpServers: ['fs'] }, callable: false },
    { label: 'the child’s tools: list lacks the server', parent: {}, child: { tools: 'Read, mcp__fs__list_directory' }, callable: false },
    { label: 'the child’s tools: list names the tool', parent: {}, child: { tools: 'Read, mcp__everything__echo' }, callable: true },
    { label: 'the parent lacks the server, the child asks for it', parent: { mcpServers: ['fs'] }, child: { mcpServers: ['everything'] }, callable: false },
    { label: 'the parent’s rules deny the server', parent: { permission: { 'mcp__everything__*': 'deny' } }, child: {}, callable: false },
  ]
  it.each(visibility)('a subagent sees a server only if its manifest grants it and its parent has it: $label', async (c) => {
    const h = await harness({
      servers: { everything: EVERYTHING, fs: filesystemServer('.') },
      agents: { parent: { mode: 'all', ...c.parent }, child: { mode: 'subagent', ...c.child } },
      script: {
        agents: {
          parent: [{ step: 1, tools: [{ name: 'task', input: { description: 'child', prompt: 'echo', subagent_type: 'child' } }] }, { step: 2, text: 'parent done' }],
          child: [{ step: 1, tools: [{ name: 'mcp__everything__echo', input: { message: 'hi' } }] }, { step: 2, text: 'child done' }],
        },
      },
    })
    await h.run('go', { agent: 'parent' })
    const echo = toolEnds(h).find((t) => t.tool === 'mcp__everything__echo')
    if (c.callable) expect(echo).toMatchObject({ ok: true, output: 'Echo: hi' })
    else {
      expect(echo?.ok).toBe(false)
      expect(echo?.output).toMatch(/^Unknown tool "mcp__everything__echo"|^Permission denied/)
    }
  })

  it('a workspace .mcp.json server does not start until the workspace is trusted; the tool error says what to do', async () => {
    const h = await harness({
      servers: {},
      files: { '.mcp.json': JSON.stringify({ mcpServers: { theirs: EVERYTHING } }) },
      agents: { user: { mode: 'primary', tools: 'Read, mcp__theirs__echo' } },
      script: { agents: { user: [{ step: 1, tools: [{ name: 'mcp__theirs__echo', input: { message: 'x' } }] }, { step: 2, text: 'ok' }, { step: 1, tools: [{ name: 'mcp__theirs__echo', input: { message: 'y' } }] }, { step: 2, text: 'ok' }] } },
    })
    await h.run('go', { agent: 'user' })
    const first = toolEnds(h).find((t) => t.tool === 'mcp__theirs__echo')
    expect(first?.ok).toBe(false)
    expect(first?.output).toContain(`mcp__theirs__echo is not available: MCP server "theirs" is defined in ${path.join(h.workdir, '.mcp.json')}, a workspace file you have not trusted`)
    expect((await h.host.api.calls['mcp.list']({ workspaceRoot: h.workdir })).servers[0]).toMatchObject({ name: 'theirs', status: 'needs_trust', pid: null })
    const trust = (await h.host.api.calls['trust.get']({ workspaceRoot: h.workdir })).trust
    expect(trust.files.find((f) => f.path === '.mcp.json')?.changes[0]).toMatchObject({ kind: 'mcp_server', needsTrust: true, text: expect.stringContaining('starts MCP server theirs: runs') })
    await h.host.api.calls['trust.set']({ workspaceRoot: h.workdir, trusted: true, files: trust.files.map((f) => ({ path: f.path, sha256: f.sha256 })) })
    await h.run('again', { agent: 'user' })
    expect(toolEnds(h).filter((t) => t.tool === 'mcp__theirs__echo').map((t) => t.ok)).toEqual([false, true])
  })

  it('mcp.control starts, stops and restarts; a server configured nowhere is not_found; one needing trust is a conflict', async () => {
    const h = await harness({ files: { '.mcp.json': JSON.stringify({ mcpServers: { theirs: EVERYTHING } }) } })
    const control = (name: string, action: 'start' | 'stop' | 'restart') => h.host.api.calls['mcp.control']({ workspaceRoot: h.workdir, name, action })
    expect((await control('everything', 'start')).server).toMatchObject({ status: 'running', pid: expect.any(Number), source: { scope: 'user' } })
    expect((await control('everything', 'stop')).server.status).toBe('stopped')
    await expect(control('nope', 'start')).rejects.toMatchObject({ code: 'not_found' })
    await expect(control('theirs', 'start')).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/not trusted/) })
  })

  it('the host stops its servers when it stops', async () => {
    const h = await harness({})
    const { server } = await h.host.api.calls['mcp.control']({ workspaceRoot: h.workdir, name: 'everything', action: 'start' })
    expect(fs.existsSync(`/proc/${server.pid}`)).toBe(true)
    await h.host.stop()
    expect(fs.existsSync(`/proc/${server.pid}`)).toBe(false)
  })
})
