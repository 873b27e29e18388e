/**
 * `agentry mcp list` and MCP tools in `agentry run`, through the built CLI (the bundle is what ships: the SDK and
 * ajv load from its chunks), against the reference servers.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallOutput } from '../../src-shared'
import { EVERYTHING } from '../mcp/testing/servers'
import { agentry, buildCli, tempDir, writeFiles } from './testing/cli-process'

beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})

function scene(o: { config?: Record<string, unknown>; work?: Record<string, string>; script?: string } = {}) {
  const home = tempDir('mcp-cli-home')
  const work = tempDir('mcp-cli-work')
  made.push(home, work)
  writeFiles(home, {
    'config.yaml': { model: 'script/x', mcp: { everything: EVERYTHING }, ...o.config },
    'script.yaml': o.script ?? 'agents:\n  "*": [ { text: "answered", repeat: true } ]\n',
  })
  writeFiles(work, o.work ?? {})
  return { home, work, run: (args: string[]) => agentry(args, { home, cwd: work, env: { AGENTRY_SCRIPT: path.join(home, 'script.yaml') } }) }
}

describe.concurrent('agentry mcp list', () => {
  it('connects each server that may start and shows status, tools, source; bad and untrusted entries say why', async () => {
    const s = scene({
      config: { mcp: { everything: EVERYTHING, broken: { command: 7 } } },
      work: { '.mcp.json': JSON.stringify({ mcpServers: { theirs: { command: 'npx', args: ['-y', 'their-server'] } } }) },
    })
    const r = await s.run(['mcp', 'list', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const list = JSON.parse(r.stdout) as CallOutput<'mcp.list'>
    expect(list.workspaceRoot).toBe(s.work)
    const by = Object.fromEntries(list.servers.map((x) => [x.name, x]))
    expect(by.everything).toMatchObject({ status: 'running', transport: 'stdio', source: { file: path.join(s.home, 'config.yaml'), scope: 'user' }, lastError: null })
    expect(by.everything.tools.map((t) => t.fullName)).toContain('mcp__everything__echo')
    expect(by.everything.prompts).toContain('simple-prompt')
    expect(by.broken).toMatchObject({ status: 'invalid', lastError: `MCP server "broken" cannot be used: ${path.join(s.home, 'config.yaml')}: mcp.broken.command: must be a string, not the number 7` })
    expect(by.theirs).toMatchObject({ status: 'needs_trust', pid: null, target: 'npx -y their-server' })

    const text = await s.run(['mcp', 'list'])
    expect(text.stdout).toMatch(/✓ everything {2}running {2}stdio {2}.*server-everything/)
    expect(text.stdout).toMatch(/\d+ tools: echo, /)
    expect(text.stdout).toContain('! theirs  needs trust  stdio  npx -y their-server')
  })

  it('--cached starts nothing; a .mcp.json that is not JSON is reported with its file and line', async () => {
    const s = scene({ work: { '.mcp.json': '{\n  "mcpServers": {\n    "x": { "command": "a", }\n  }\n}\n' } })
    const r = await s.run(['mcp', 'list', '--cached', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const list = JSON.parse(r.stdout) as CallOutput<'mcp.list'>
    expect(list.servers).toMatchObject([{ name: 'everything', status: 'idle', pid: null }])
    expect(list.problems).toEqual([{ file: path.join(s.work, '.mcp.json'), path: '', reason: expect.stringMatching(/^not valid JSON at line 3/) }])
  })

  it('a usage mistake exits 2', async () => {
    const s = scene()
    expect((await s.run(['mcp', 'start'])).code).toBe(2)
  })
})

describe.concurrent('agentry run with MCP tools', () => {
  const script = 'agents:\n  build:\n    - { step: 1, tools: [ { name: mcp__everything__echo, input: { message: "via the cli" } } ] }\n    - { step: 2, text: "finished" }\n'

  it('headless: the default rules ask, so the call is denied, saying how to allow it', async () => {
    const s = scene({ script })
    const r = await s.run(['run', '--json', 'echo something'])
    expect(r.code, r.stderr).toBe(0)
    const end = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event?: { type: string; toolName?: string; ok?: boolean; output?: string } }).find((l) => l.event?.type === 'tool_call_end')
    expect(end?.event).toMatchObject({ toolName: 'mcp__everything__echo', ok: false, output: expect.stringMatching(/needs approval .* --allow mcp__everything__echo/) })
  })

  it('--allow for the tool: the server starts and answers', async () => {
    const s = scene({ script })
    const r = await s.run(['run', '--json', '--allow', 'mcp__everything__echo', 'echo something'])
    expect(r.code, r.stderr).toBe(0)
    const end = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event?: { type: string; output?: string; ok?: boolean } }).find((l) => l.event?.type === 'tool_call_end')
    expect(end?.event).toMatchObject({ ok: true, output: 'Echo: via the cli' })
  })
})
