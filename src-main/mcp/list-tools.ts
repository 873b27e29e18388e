import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { mcpToolName } from '../../src-shared'
import { compileSchema } from './json-schema'

/** Providers accept tool names of at most 64 characters from [A-Za-z0-9_-]. */
const MAX_TOOL_NAME = 64

/** A tool of a server as the model is offered it. */
export interface ListedTool {
  /** as the server names it (what `tools/call` sends) */
  name: string
  /** `mcp__<server>__<tool>` (characters providers refuse become `_`) */
  fullName: string
  description: string
  inputSchema: Record<string, unknown>
}

/** A server's tools, and the ones left out with the reason (a bad schema, a name providers refuse). */
export interface ToolListing {
  tools: ListedTool[]
  skipped: string[]
}

/**
 * Checks the tools a server lists: each schema must compile as JSON Schema and each name must make a tool name
 * providers accept; a tool that fails is skipped and reported, the others are kept.
 */
export async function acceptTools(server: string, tools: Tool[]): Promise<ToolListing> {
  const listing: ToolListing = { tools: [], skipped: [] }
  const taken = new Set<string>()
  for (const tool of tools) {
    const fullName = mcpToolName(server, tool.name.replace(/[^A-Za-z0-9_-]/g, '_'))
    if (fullName.length > MAX_TOOL_NAME) {
      listing.skipped.push(`tool ${tool.name} skipped: ${fullName} is longer than the ${MAX_TOOL_NAME} characters providers accept (shorten the server name)`)
      continue
    }
    if (taken.has(fullName)) {
      listing.skipped.push(`tool ${tool.name} skipped: another tool of this server is also called ${fullName}`)
      continue
    }
    const check = await compileSchema(tool.inputSchema)
    if (!check.ok) {
      listing.skipped.push(`tool ${tool.name} skipped: ${check.reason}`)
      continue
    }
    taken.add(fullName)
    listing.tools.push({ name: tool.name, fullName, description: tool.description ?? tool.title ?? '', inputSchema: tool.inputSchema })
  }
  return listing
}
