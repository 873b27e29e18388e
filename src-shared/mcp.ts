import { z } from 'zod'
import { lazy } from './lazy'

/**
 * A server name as it appears in tool names (`mcp__<server>__<tool>`): letters, digits, `-` and `_`, never `__`
 * (which separates the parts of a tool name).
 */
export const MCP_SERVER_NAME_RE = /^(?!.*__)[A-Za-z0-9_-]{1,64}$/
export const MCP_SERVER_NAME_HINT = 'use letters, digits, "-" and "_" (no "__", at most 64 characters)'

/** Settings every server kind has. */
const common = {
  /** how long one tool call may take (default 60 s); the run's abort cancels it sooner */
  timeoutSeconds: z.number().positive().max(86_400).optional(),
  /** how long starting (spawn or connect, then `initialize`) may take (default 30 s) */
  startTimeoutSeconds: z.number().positive().max(3_600).optional(),
  /** kept in the file but not used */
  disabled: z.boolean().optional(),
}

/**
 * A server Agentry starts as a child process and talks to over stdio. `${VAR}` and `${VAR:-default}` in command,
 * args, env, cwd are read from Agentry's environment when the server starts; a missing one disables that server.
 */
export const McpStdioServer = lazy(() =>
  z
    .object({
      type: z.literal('stdio').optional(),
      command: z.string().min(1),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
      /** relative to the workspace; default: the workspace */
      cwd: z.string().min(1).optional(),
      ...common,
    })
    .strict()
)
export type McpStdioServer = z.infer<typeof McpStdioServer>

/** A server reached over HTTP: Streamable HTTP (`http`, the default) or the older SSE transport (`sse`). */
export const McpHttpServer = lazy(() =>
  z
    .object({
      type: z.enum(['http', 'streamable-http', 'sse']).optional(),
      url: z.string().min(1),
      headers: z.record(z.string(), z.string()).optional(),
      ...common,
    })
    .strict()
)
export type McpHttpServer = z.infer<typeof McpHttpServer>

/**
 * One MCP server definition, as written in `config.yaml` (`mcp: { name: … }`), `.mcp.json`
 * (`{"mcpServers": { name: … }}`, Claude Code's convention) or an agent file's inline `mcpServers`. Other front ends
 * (an editor passing its servers) convert theirs to this shape.
 */
export const McpServerConfig = lazy(() => z.union([McpStdioServer, McpHttpServer]))
export type McpServerConfig = z.infer<typeof McpServerConfig>

export function isStdioServer(c: McpServerConfig): c is McpStdioServer {
  return 'command' in c
}

/**
 * Where a server is defined: the person's own files start freely; a workspace's need the person's trust. `client`:
 * passed by the front end the person drives (an editor over ACP) — the person's own, like `user`.
 */
export const McpServerSource = lazy(() =>
  z.object({
    /** the file that defines it (the last one, when several define the same name); for `client`, who passed it */
    file: z.string(),
    scope: z.enum(['user', 'workspace', 'agent', 'client']),
    /** for an agent file's inline definition: the agent */
    agent: z.string().optional(),
  })
)
export type McpServerSource = z.infer<typeof McpServerSource>

/**
 * `idle`: configured, not started yet (servers start when a run first needs them); `starting`; `running`;
 * `error`: the last start failed or the server crashed (see lastError; the next need retries after a backoff);
 * `stopped`: stopped from Settings or the CLI (it stays stopped until started again); `needs_trust`: defined by a
 * workspace file the person has not trusted; `invalid`: its definition cannot be used; `disabled`: `disabled: true`.
 */
export const McpServerStatus = lazy(() =>
  z.enum(['idle', 'starting', 'running', 'error', 'stopped', 'needs_trust', 'invalid', 'disabled'])
)
export type McpServerStatus = z.infer<typeof McpServerStatus>

export const McpToolInfo = lazy(() =>
  z.object({
    /** as the server names it */
    name: z.string(),
    /** what the model calls: `mcp__<server>__<tool>` */
    fullName: z.string(),
    description: z.string(),
  })
)
export type McpToolInfo = z.infer<typeof McpToolInfo>

/** One server as `mcp.list` (Settings, `agentry mcp list`) shows it. */
export const McpServerInfo = lazy(() =>
  z.object({
    name: z.string(),
    status: McpServerStatus,
    transport: z.enum(['stdio', 'http', 'sse']),
    /** what it runs (`npx -y @modelcontextprotocol/server-github`) or where it connects */
    target: z.string(),
    source: McpServerSource,
    /** its tools: from the running server, or as last listed (cached) */
    tools: z.array(McpToolInfo),
    /** null: not known yet, or the server does not offer them */
    resources: z.array(z.string()).nullable(),
    prompts: z.array(z.string()).nullable(),
    lastError: z.string().nullable(),
    /** problems that do not stop the server: skipped tools, ignored keys, a definition another file replaced */
    problems: z.array(z.string()),
    /** where its stderr goes (stdio servers) */
    logFile: z.string().nullable(),
    pid: z.number().int().nullable(),
    startedAt: z.number().nullable(),
    restarts: z.number().int(),
  })
)
export type McpServerInfo = z.infer<typeof McpServerInfo>

export const McpAction = lazy(() => z.enum(['start', 'stop', 'restart']))
export type McpAction = z.infer<typeof McpAction>

const TOOL_PREFIX = 'mcp__'

/** `mcp__github__create_issue` → `{ server: 'github', tool: 'create_issue' }`; null for other names. */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(TOOL_PREFIX)) return null
  const rest = name.slice(TOOL_PREFIX.length)
  const sep = rest.indexOf('__')
  if (sep <= 0 || sep + 2 >= rest.length) return null
  return { server: rest.slice(0, sep), tool: rest.slice(sep + 2) }
}

export function mcpToolName(server: string, tool: string): string {
  return `${TOOL_PREFIX}${server}__${tool}`
}
