// A real MCP server (the SDK's Server over stdio) whose tool list has one tool with an input schema that is not
// JSON Schema, and one valid tool: the client must skip the first, report it, and keep the second.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const server = new Server({ name: 'bad-schema', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } })
// `grow` adds a tool and announces it (notifications/tools/list_changed).
let grown = false
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'grow', description: 'adds the tool "extra"', inputSchema: { type: 'object', properties: {} } },
    ...(grown ? [{ name: 'extra', description: 'appeared later', inputSchema: { type: 'object', properties: {} } }] : []),
    { name: 'broken', description: 'has a bad schema', inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } },
    { name: 'fine', description: 'works', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
    { name: 'fails', description: 'always reports an error', inputSchema: { type: 'object', properties: {} } },
  ],
}))
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  if (req.params.name === 'fails') return { isError: true, content: [{ type: 'text', text: 'the database is locked' }] }
  if (req.params.name === 'grow') {
    grown = true
    await server.sendToolListChanged()
    return { content: [{ type: 'text', text: 'grown' }] }
  }
  return { content: [{ type: 'text', text: `fine: ${JSON.stringify(req.params.arguments)}` }] }
})
await server.connect(new StdioServerTransport())
