import type { JSONSchema7 } from '@ai-sdk/provider'
import { z } from 'zod'
import { argumentShape, defineTool, type ToolDef } from '../tools'
import { compileSchema } from './json-schema'
import type { ListedTool } from './list-tools'
import type { McpServer } from './server'

/** MCP arguments are an object; a model that sends nothing for a tool without parameters means `{}`. */
const Arguments = z.unknown().transform((v) => (v === undefined || v === null ? {} : v))

/**
 * One MCP tool as a tool of ours: the server's JSON schema is what the model sees, as given; arguments are checked
 * against it (ajv) before any approval; permission rules see it as `mcp__<server>__<tool>` with the tool's own name as
 * the subject (so "Always allow" is per tool); the approval says which server and tool.
 */
export function mcpToolDef(server: McpServer, tool: ListedTool): ToolDef {
  const send = () => {
    const shape = argumentShape(def)
    return shape ? ` Send ${shape}.` : ''
  }
  const def: ToolDef = defineTool({
    name: tool.fullName,
    description: tool.description || `${tool.name} (a tool of the MCP server "${server.name}")`,
    parameters: Arguments,
    inputSchema: tool.inputSchema as JSONSchema7,
    async validate(input) {
      const check = await compileSchema(tool.inputSchema)
      if (!check.ok) return `${tool.fullName} cannot be called: ${check.reason}`
      if (typeof input !== 'object' || Array.isArray(input)) return `Invalid arguments for ${tool.fullName}: arguments must be an object.${send()}`
      const problems = check.validate(input)
      return problems.length ? `Invalid arguments for ${tool.fullName}: ${problems.join('; ')}.${send()}` : null
    },
    permission: () => ({ kind: 'name', subjects: [tool.name] }),
    display: () => ({ summary: `MCP server "${server.name}", tool "${tool.name}"` }),
    execute: (input, ctx) => server.call(tool.name, input as Record<string, unknown>, { signal: ctx.signal }),
  })
  return def
}
