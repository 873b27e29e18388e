import { methods, type McpServer } from '@agentclientprotocol/sdk/unstable'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../src-shared'
import { createBridgeClient } from '../../src-shared/bridge-client'
import { buildCli } from '../cli/testing/cli-process'
import { connectLocalSocket } from '../local-socket'
import { EVERYTHING, startHttpServer, type HttpServer } from '../mcp/testing/servers'
import { acpScene, initialize, say } from './testing/acp-client'
import { contentText, fold } from './testing/fold'

/**
 * MCP servers the editor passes with its session (ACP `mcpServers`): the session's runs use them (scope `client`,
 * no trust needed), over stdio and over HTTP with the editor's headers; a name Agentry cannot use is refused.
 */
beforeAll(() => buildCli(), 60_000)

const scenes: { remove(): Promise<void> }[] = []
let http: HttpServer
beforeAll(async () => {
  http = await startHttpServer('s3cret')
})
afterAll(async () => {
  await Promise.all(scenes.map((s) => s.remove()))
  await http.close()
})

const cases = [
  {
    transport: 'stdio',
    server: (): McpServer => ({ name: 'everything', command: EVERYTHING.command, args: EVERYTHING.args, env: [] }),
    tool: { name: 'mcp__everything__echo', input: { message: 'from the editor' } },
    expected: 'from the editor',
  },
  {
    transport: 'http',
    server: (): McpServer => ({ type: 'http', name: 'loop', url: http.url, headers: [{ name: 'Authorization', value: 'Bearer s3cret' }] }),
    tool: { name: 'mcp__loop__whoami', input: { name: 'Zed' } },
    expected: 'hello Zed, from loopback',
  },
]

describe.each(cases)('an MCP server passed by the editor over $transport', ({ server, tool, expected }) => {
  it('is used by the session’s run (not added to the configured servers); its tool call is approved in the editor', async () => {
    const s = acpScene({ agents: { build: [{ step: 1, tools: [tool] }, { step: 2, text: 'Used the editor’s server.' }], '*': [{ text: 'Title', repeat: true }] } }, {}, 'acp-mcp')
    scenes.push(s)
    const p = s.start()
    const init = await initialize(p)
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true })
    const { sessionId } = await p.agent.request(methods.agent.session.new, { cwd: s.work, mcpServers: [server()] })
    p.onPermission = async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } })
    expect((await say(p, sessionId, 'use the server')).stopReason).toBe('end_turn')
    const call = [...fold(p.updates).calls.values()][0]
    expect(call.status, JSON.stringify(call)).toBe('completed')
    expect(contentText(call.content)).toContain(expected)
    expect(p.permissions).toHaveLength(1)

    // Not a configured server: the app's MCP list for the workspace does not show it, the run's pool started it.
    const app = createBridgeClient((await connectLocalSocket(s.home))!)
    try {
      const { servers } = await app.calls['mcp.list']({ workspaceRoot: s.work })
      expect(servers.map((x: McpServerInfo) => x.name)).not.toContain(server().name)
    } finally {
      app.close()
    }
    expect(await p.close()).toBe(0)
  }, 120_000)
})

it('a server name Agentry cannot use in tool names is refused with invalid params naming it', async () => {
  const s = acpScene({ agents: { '*': [{ text: 'Title', repeat: true }] } }, {}, 'acp-mcp-name')
  scenes.push(s)
  const p = s.start()
  await initialize(p)
  await expect(
    p.agent.request(methods.agent.session.new, { cwd: s.work, mcpServers: [{ name: 'my server', command: 'node', args: [], env: [] }] }),
  ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('MCP server "my server"') })
  expect(await p.close()).toBe(0)
}, 60_000)
