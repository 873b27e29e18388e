import { z } from 'zod'
import { lazy } from './lazy'
import { Budget, BudgetSettings, RunawayLimits } from './budget'
import { CheckpointSettings } from './changes'
import { McpServerConfig } from './mcp'
import { SandboxSettings } from './sandbox'
import { ContainerSettings } from './containers'

export const ProviderType = lazy(() =>
  z.enum(['anthropic', 'openai', 'openai-compatible', 'ollama', 'script', 'demo'])
)
export type ProviderType = z.infer<typeof ProviderType>

export const ModelPricing = lazy(() =>
  z
    .object({
      /** USD per million input tokens */
      input: z.number().nonnegative(),
      /** USD per million output tokens */
      output: z.number().nonnegative(),
      /** USD per million input tokens read from the provider's prompt cache (default: 10% of input, Anthropic's rate) */
      cacheRead: z.number().nonnegative().optional(),
      /** USD per million input tokens written to the prompt cache (default: 125% of input, Anthropic's rate) */
      cacheWrite: z.number().nonnegative().optional(),
    })
    .strict()
)
export type ModelPricing = z.infer<typeof ModelPricing>

export const ProviderConfig = lazy(() =>
  z
    .object({
      type: ProviderType,
      baseURL: z.string().url().optional(),
      apiKey: z.string().optional(),
      /** env var to read the key from (default per type, e.g. ANTHROPIC_API_KEY) */
      apiKeyEnv: z.string().optional(),
      /** script provider: path of the YAML script (relative to the config file) */
      script: z.string().optional(),
      /** per-model context window, pricing and whether it takes images */
      models: z
        .record(
          z.string(),
          z
            .object({
              contextWindow: z.number().int().positive().optional(),
              pricing: ModelPricing.optional(),
              /** the model takes images in prompts (default: yes for anthropic and openai, no for the others) */
              images: z.boolean().optional(),
            })
            .strict(),
        )
        .optional(),
    })
    .strict()
)
export type ProviderConfig = z.infer<typeof ProviderConfig>

/** `subagents.tools`: a policy over every child's tools, on top of the parent ∩ child intersection. */
export const SubagentToolPolicy = lazy(() =>
  z
    .object({
      /** when set, children may use only these tools (and only as far as their rules allow) */
      allow: z.array(z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be a tool name such as "read_file"')).optional(),
      /** never these tools, whatever `allow` says (deny wins) */
      deny: z.array(z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be a tool name such as "bash"')).optional(),
    })
    .strict()
)
export type SubagentToolPolicy = z.infer<typeof SubagentToolPolicy>

export const SubagentLimits = lazy(() =>
  z
    .object({
      maxDepth: z.number().int().min(1).max(50).default(5),
      maxConcurrent: z.number().int().min(1).max(64).default(4),
      timeoutSeconds: z.number().positive().max(86_400).default(300),
      archiveAfterMinutes: z.number().nonnegative().default(60),
      tools: SubagentToolPolicy.optional(),
      /** each child's budget unless its agent file or the call sets a smaller one (a workspace file may only lower it) */
      budget: Budget.optional(),
    })
    .strict()
)
export type SubagentLimits = z.infer<typeof SubagentLimits>

/** How long a model request may stay silent before it fails (and is retried like a network error). */
export const ModelTimeouts = lazy(() =>
  z
    .object({
      /** from sending a request to the first content of the answer */
      firstByteSeconds: z.number().positive().max(3_600).default(60),
      /** between two parts of an answer that has started */
      idleSeconds: z.number().positive().max(3_600).default(120),
    })
    .strict()
)
export type ModelTimeouts = z.infer<typeof ModelTimeouts>
/**
 * Model aliases agent files use instead of `provider/model` (Claude Code writes `model: sonnet`). These defaults
 * are the current Anthropic models (the ids @ai-sdk/anthropic knows); `models.aliases` in config.yaml adds to
 * them or maps an alias elsewhere, e.g. `sonnet: openrouter/anthropic/claude-sonnet-5-5`.
 */
export const DEFAULT_MODEL_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  sonnet: 'anthropic/claude-sonnet-5-5',
  opus: 'anthropic/claude-opus-5-5',
  haiku: 'anthropic/claude-haiku-5-5',
  fable: 'anthropic/claude-fable-5-2',
})

/** `sonnet`, `claude-sonnet-4-20250514`, or a `provider/model` an agent file names (`opencode/grok-code`) */
export const MODEL_ALIAS_RE = /^[A-Za-z0-9][A-Za-z0-9._:/[\]-]*$/

export const ModelsConfig = lazy(() =>
  z
    .object({
      /** alias → "provider/model"; merged over DEFAULT_MODEL_ALIASES */
      aliases: z
        .record(z.string().regex(MODEL_ALIAS_RE, 'must be a word such as "sonnet"'), z.string().regex(/^[^/\s]+\/\S+$/, 'must be "provider/model"'))
        .default({}),
    })
    .strict()
)
export type ModelsConfig = z.infer<typeof ModelsConfig>

/** `config.yaml` (data dir), overlaid by `{workdir}/.agents/config.yaml`. */
export const Config = lazy(() =>
  z
    .object({
      model: z.string().regex(/^[^/\s]+\/\S+$/, 'must be "provider/model"').optional(),
      /** the model of the helper agents (title, summary, compaction); without it they use the session's model */
      smallModel: z.string().regex(/^[^/\s]+\/\S+$/, 'must be "provider/model"').optional(),
      providers: z.record(z.string().regex(/^[a-zA-Z0-9_-]+$/), ProviderConfig).default({}),
      subagents: SubagentLimits.default(SubagentLimits.parse({})),
      timeouts: ModelTimeouts.default(ModelTimeouts.parse({})),
      /** absent means the defaults only (DEFAULT_MODEL_ALIASES) */
      models: ModelsConfig.optional(),
      /** the OS sandbox for bash; only the person's own config.yaml sets it */
      sandbox: SandboxSettings.default(SandboxSettings.parse({})),
      /** where children with `isolation: container` run (issue 29); only the person's own config.yaml sets it */
      containers: ContainerSettings.default(ContainerSettings.parse({})),
      /** checkpoints of the workspace around each turn (undo); only the person's own config.yaml sets it */
      checkpoints: CheckpointSettings.default(CheckpointSettings.parse({})),
      /** session and daily budgets, and when a fan-out asks first; only the person's own config.yaml sets it */
      budgets: BudgetSettings.default(BudgetSettings.parse({})),
      /** guards against a stream, a tool loop or a respawn loop that never ends; only the person's own config.yaml */
      runaway: RunawayLimits.default(RunawayLimits.parse({})),
      /**
       * MCP servers by name. Each entry is checked on its own (src-main/config/mcp-servers.ts): a malformed one disables
       * only that server. Here: the usable definitions of every layer, trusted or not (see LoadedConfig.mcp).
       */
      mcp: z.record(z.string(), McpServerConfig).optional(),
      /** Claude Code-shaped hooks (issue 27): checked by src-main/hooks, one problem per hook, never stopping a run */
      hooks: z.unknown().optional(),
    })
    .strict()
)
export type Config = z.infer<typeof Config>
