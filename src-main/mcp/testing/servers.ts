import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

const modules = new URL('../../../node_modules/', import.meta.url)

/** The reference servers from the npm registry (devDependencies), started with this Node. */
export const EVERYTHING = { command: process.execPath, args: [fileURLToPath(new URL('@modelcontextprotocol/server-everything/dist/index.js', modules)), 'stdio'] }

export function filesystemServer(dir: string) {
  return { command: process.execPath, args: [fileURLToPath(new URL('@modelcontextprotocol/server-filesystem/dist/index.js', modules)), dir] }
}

/** A stdio server built on the SDK's low-level Server: one tool with an input schema that is not JSON Schema, one fine. */
export const BAD_SCHEMA_SERVER = { command: process.execPath, args: [fileURLToPath(new URL('./bad-schema-server.mjs', import.meta.url))] }

/** A process that never answers `initialize` (it only writes to stderr). */
export const SILENT_SERVER = { command: process.execPath, args: ['-e', "console.error('warming up the cache'); setInterval(() => {}, 1000)"] }

/** A process that exits before answering. */
export const EXITING_SERVER = { command: process.execPath, args: ['-e', "console.error('config file missing: /nope.json'); process.exit(3)"] }

export interface HttpServer {
  url: string
  /** the Authorization header of every request the server received */
  authorizations: (string | undefined)[]
  close(): Promise<void>
}

/**
 * The SDK's own Streamable HTTP server on loopback (stateless: a server per request), requiring
 * `Authorization: Bearer <token>`: one tool, `whoami`, answering with the name it was given.
 */
export async function startHttpServer(token: string): Promise<HttpServer> {
  const authorizations: (string | undefined)[] = []
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization)
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }))
      return
    }
    const mcp = new McpServer({ name: 'loopback', version: '1.0.0' })
    mcp.registerTool('whoami', { description: 'Says hello to a name', inputSchema: { name: z.string() } }, async ({ name }) => ({ content: [{ type: 'text', text: `hello ${name}, from loopback` }] }))
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on('close', () => {
      void transport.close()
      void mcp.close()
    })
    void mcp.connect(transport).then(() => transport.handleRequest(req, res))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
