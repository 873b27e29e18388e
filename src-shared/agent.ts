import { z } from 'zod'
import { CompactPermission } from './permission'

export const AgentMode = z.enum(['primary', 'subagent', 'all'])
export type AgentMode = z.infer<typeof AgentMode>

export const AGENT_NAME_RE = /^[a-z0-9][a-z0-9_-]*$/

/** YAML frontmatter of an agent manifest file (`.agents/agents/*.md`). Unknown keys are errors. */
export const AgentFrontmatter = z
  .object({
    name: z.string().regex(AGENT_NAME_RE, 'must match [a-z0-9][a-z0-9_-]*').optional(),
    description: z.string().min(1),
    mode: AgentMode.default('all'),
    permission: CompactPermission.default({ '*': 'allow' }),
    maxSteps: z.number().int().positive().max(1000).default(10),
    model: z.string().regex(/^(inherit|[^/\s]+\/\S+)$/, 'must be "inherit" or "provider/model"').default('inherit'),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    inspectable: z.boolean().default(false),
    caller: z.enum(['user', 'agent']).default('user'),
    background: z.boolean().default(false),
    hidden: z.boolean().default(false),
    color: z.string().max(32).optional(),
  })
  .strict()
export type AgentFrontmatter = z.infer<typeof AgentFrontmatter>

export const AgentSource = z.object({
  kind: z.enum(['builtin', 'user', 'project']),
  file: z.string().optional(),
})
export type AgentSource = z.infer<typeof AgentSource>

/** A resolved agent: manifest fields with defaults applied, plus its prompt body and source. */
export const AgentInfo = AgentFrontmatter.extend({
  name: z.string(),
  prompt: z.string(),
  source: AgentSource,
})
export type AgentInfo = z.infer<typeof AgentInfo>

/** A manifest that failed to load: skipped, and reported with file, field and reason. */
export const AgentLoadError = z.object({
  file: z.string(),
  field: z.string(),
  reason: z.string(),
})
export type AgentLoadError = z.infer<typeof AgentLoadError>
