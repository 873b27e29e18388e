import { z } from 'zod'
import { lazy } from './lazy'
import { Budget } from './budget'
import { ISOLATIONS } from './containers'
import { McpServerConfig } from './mcp'
import { CompactPermission, PermissionRule } from './permission'

export const AgentMode = lazy(() => z.enum(['primary', 'subagent', 'all']))
export type AgentMode = z.infer<typeof AgentMode>

export const AGENT_NAME_RE = /^[a-z0-9][a-z0-9_-]*$/

/** How an agent file is written: Agentry's own fields, Claude Code's (`tools: Read, Grep`) or opencode's. */
export const AgentFormat = lazy(() => z.enum(['agentry', 'claude', 'opencode']))
export type AgentFormat = z.infer<typeof AgentFormat>

/**
 * An agent's settings in Agentry's own terms. Agent files in any format are mapped onto these fields (see
 * src-main/agents/manifest-fields.ts); the built-ins are written in them directly.
 */
export const AgentFrontmatter = lazy(() =>
  z
    .object({
      name: z.string().regex(AGENT_NAME_RE, 'must match [a-z0-9][a-z0-9_-]*').optional(),
      description: z.string().min(1),
      mode: AgentMode.default('all'),
      permission: CompactPermission.default({ '*': 'allow' }),
      maxSteps: z.number().int().positive().max(1000).default(10),
      /** `inherit`, `provider/model`, or an alias from `models.aliases` (`sonnet`) or a bare model id (`claude-…`) */
      model: z.string().regex(/^\S+$/, 'must be "inherit", "provider/model" or a model alias such as "sonnet"').default('inherit'),
      temperature: z.number().min(0).max(2).optional(),
      topP: z.number().min(0).max(1).optional(),
      maxOutputTokens: z.number().int().positive().optional(),
      inspectable: z.boolean().default(false),
      caller: z.enum(['user', 'agent']).default('user'),
      background: z.boolean().default(false),
      hidden: z.boolean().default(false),
      color: z.string().max(32).optional(),
      /**
       * `worktree`: every run of this agent as a subagent works in a fresh git worktree of the workspace; `container`:
       * its commands run in a container of its own (config.yaml `containers:`); both: a list, or `worktree+container`
       */
      isolation: z.union([z.enum(ISOLATIONS), z.array(z.enum(['worktree', 'container'])).min(1).max(2)]).optional(),
      /** the most one run of this agent as a subagent may spend, everything it starts included */
      budget: Budget.optional(),
      /** skills loaded into its instructions when it starts (Claude Code's `skills:`), where its rules allow each */
      skills: z.array(z.string().min(1)).optional(),
    })
    .strict()
)
export type AgentFrontmatter = z.infer<typeof AgentFrontmatter>

export const AgentSource = lazy(() =>
  z.object({
    kind: z.enum(['builtin', 'user', 'project']),
    file: z.string().optional(),
    format: AgentFormat.optional(),
  })
)
export type AgentSource = z.infer<typeof AgentSource>

/** Something in a file that loaded but is not used as written: an unknown key, a tool not available here… */
export const AgentWarning = lazy(() =>
  z.object({
    field: z.string(),
    /** line in the file, when known */
    line: z.number().int().optional(),
    reason: z.string(),
  })
)
export type AgentWarning = z.infer<typeof AgentWarning>

/** A server an agent file names in `mcpServers`: a configured one by name, or an inline definition of its own. */
export const AgentMcpServer = lazy(() => z.object({ name: z.string(), definition: McpServerConfig.optional() }))
export type AgentMcpServer = z.infer<typeof AgentMcpServer>

/** A resolved agent: manifest fields with defaults applied, plus its prompt body and source. */
export const AgentInfo = lazy(() =>
  AgentFrontmatter.extend({
    name: z.string(),
    /** the name as the author wrote it, when it had to be normalized to a slug (`Python Testing Expert`) */
    displayName: z.string().optional(),
    prompt: z.string(),
    source: AgentSource,
    warnings: z.array(AgentWarning).default([]),
    /**
     * `mcp__server__tool` (or `mcp__server`) entries of a `tools:` list as written. Each is allowed by the agent's
     * permission, and the agent sees only the servers they (and `mcpServers`) name.
     */
    mcpTools: z.array(z.string()).optional(),
    /**
     * `mcpServers:` — the MCP servers this agent may use: configured servers by name, or (in the person's own agent
     * files) a definition of its own. Absent together with MCP entries in `tools:`: every server its caller has.
     */
    mcpServers: z.array(AgentMcpServer).optional(),
  })
)
export type AgentInfo = z.infer<typeof AgentInfo>

/** A manifest that failed to load: skipped, and reported with file, field, line and reason (which says the fix). */
export const AgentLoadError = lazy(() =>
  z.object({
    file: z.string(),
    field: z.string(),
    line: z.number().int().optional(),
    reason: z.string(),
  })
)
export type AgentLoadError = z.infer<typeof AgentLoadError>

/** Which model an agent runs on, and how that was worked out from what its file says. */
export const AgentModelResolution = lazy(() =>
  z.object({
    /** as written: `inherit`, `sonnet`, `anthropic/claude-sonnet-5-5`, `claude-sonnet-4-20250514` */
    spec: z.string(),
    /** `provider/model` it runs on; null = the caller's model (a subagent) or the session's (a primary agent) */
    ref: z.string().nullable(),
    /** `tier`: a tier alias (haiku, sonnet, opus) whose provider is not configured, run on the person's own model of that tier */
    via: z.enum(['inherit', 'explicit', 'alias', 'tier', 'inferred', 'unresolved']),
    /** in words, e.g. `alias "sonnet" (models.aliases) → anthropic/claude-sonnet-5-5` */
    detail: z.string(),
  })
)
export type AgentModelResolution = z.infer<typeof AgentModelResolution>

/** One agent as `agents.list` shows it: what its file says, and what that means here. */
/**
 * An agent as listings show it (`agents.list`, Settings, `agentry agents`, ACP modes): without its prompt, which
 * no listing shows and which made the answer megabytes for a few hundred agents.
 */
export const AgentListEntry = lazy(() =>
  AgentInfo.omit({ prompt: true }).extend({
    resolvedModel: AgentModelResolution,
    /** tools the agent is offered (before the caller's own limits), e.g. ["read_file", "grep", "task"] */
    offeredTools: z.array(z.string()),
    /** its permission rules, flattened in order (the last matching rule wins) */
    permissionRules: z.array(PermissionRule),
  })
)
export type AgentListEntry = z.infer<typeof AgentListEntry>

/** An agents folder that exists: read, or shadowed by the first-existing-folder rule (and then not read). */
export const AgentFolderInfo = lazy(() =>
  z.object({
    dir: z.string(),
    kind: z.enum(['user', 'project']),
    format: AgentFormat,
    status: z.enum(['read', 'shadowed']),
    /** `.md` files in it (recursively) */
    files: z.number().int(),
    /** for a shadowed folder: the folder read instead */
    shadowedBy: z.string().optional(),
  })
)
export type AgentFolderInfo = z.infer<typeof AgentFolderInfo>
