import path from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { isStdioServer, type McpServerConfig } from '../../src-shared'
import type { ProcessTransport } from './process-transport'
import type { ServerLog } from './server-log'

/** The client's name and version in `initialize`. */
const CLIENT_INFO = { name: 'agentry', version: '0.1.0' }

/** Environment variables a stdio server gets besides its own `env` (the SDK's safe list, plus locale and temp). */
const INHERITED = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'APPDATA', 'LOCALAPPDATA', 'SYSTEMROOT', 'USERPROFILE', 'TEMP']

export interface Connection {
  client: Client
  transport: Transport
  /** the stdio server's process (null for HTTP) */
  process: ProcessTransport | null
}

export interface ConnectOptions {
  config: McpServerConfig
  workdir: string
  env: NodeJS.ProcessEnv
  log: ServerLog
  /** the server's tool list changed (`notifications/tools/list_changed`), already re-read */
  onToolsChanged(tools: Tool[]): void
  onClose(): void
}

/**
 * A client for one server definition (already `${VAR}`-expanded), not yet connected. The SDK loads on the first
 * server start: a run that uses no MCP server never pays for it.
 */
export async function createConnection(o: ConnectOptions): Promise<Connection> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
  const client = new Client(CLIENT_INFO, {
    capabilities: {},
    listChanged: {
      tools: {
        onChanged: (err, tools) => {
          if (err) o.log.note(`re-reading the tool list failed: ${err.message}`)
          else if (tools) o.onToolsChanged(tools)
        },
      },
    },
  })
  client.onclose = () => o.onClose()
  client.onerror = (err) => o.log.note(`${err.message}`)
  const { config } = o
  if (isStdioServer(config)) {
    const env: Record<string, string> = {}
    for (const key of INHERITED) {
      const value = o.env[key]
      // A shell function exported through the environment is code, not a value.
      if (value !== undefined && !value.startsWith('()')) env[key] = value
    }
    const { ProcessTransport } = await import('./process-transport')
    const transport = new ProcessTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...env, ...config.env },
      cwd: config.cwd ? path.resolve(o.workdir, config.cwd) : o.workdir,
      onStderr: (chunk) => o.log.write(chunk),
    })
    return { client, transport, process: transport }
  }
  const url = new URL(config.url)
  const requestInit = { headers: config.headers ?? {} }
  if (config.type === 'sse') {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js')
    return { client, transport: new SSEClientTransport(url, { requestInit }), process: null }
  }
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
  return { client, transport: new StreamableHTTPClientTransport(url, { requestInit }), process: null }
}
