import { PROMPT_MAX_CHARS } from './limits'
import { z } from 'zod'
import { lazy } from './lazy'
import { Budget, BudgetView } from './budget'
import { AGENT_NAME_RE, AgentFolderInfo, AgentListEntry, AgentLoadError, AgentMode } from './agent'
import { ModelPricing, SubagentLimits } from './config'
import { BudgetDraft, BudgetSettingKey, ProviderDraft } from './settings-fields'
import { AlwaysScope, ListedRule, StaticRuleRow } from './permission'
import { RunNode } from './run-map'
import { SkillsListing } from './skills'
import { MessageVersions } from './message-versions'
import { CommandsListing } from './commands'
import { HooksListing } from './hooks'
import { ApprovalRecord } from './approval'
import { PromptAttachments } from './attachment'
import { ContainerStatus } from './containers'
import { RestoreOutcome, TurnChanges } from './changes'
import { MCP_SERVER_NAME_HINT, MCP_SERVER_NAME_RE, McpAction, McpServerConfig, McpServerInfo } from './mcp'
import { SandboxSettings, SandboxState } from './sandbox'
import { MessageWithParts, SessionRecord, SessionStatus, TaskWorktree, ToolCallCounts } from './session'
import type { SequencedEvent } from './events'

/**
 * The bridge contract: every call the renderer can make, with zod schemas for input and output.
 * The host parses every input; a bad one is answered `{ ok: false, error: { code: 'invalid_request' } }`.
 */

const id = lazy(() => z.string().min(1).max(200))
const text = (max: number) => z.string().max(max)
export { PROMPT_MAX_CHARS }

export const QueueEntry = lazy(() =>
  z.object({
    id: z.string(),
    sessionId: z.string(),
    requestId: z.string().nullable(),
    text: z.string(),
    agent: z.string().nullable(),
    /** `prompt`: the text becomes a new user message; `retry`: the last user message runs again (retry, regenerate) */
    kind: z.enum(['prompt', 'retry']).default('prompt'),
    /** files sent with the prompt (pasted, dropped, an editor's images): they join its message when it starts */
    attachments: PromptAttachments.optional(),
    status: z.enum(['queued', 'started', 'cancelled']),
    createdAt: z.number(),
  })
)
export type QueueEntry = z.infer<typeof QueueEntry>

export const SessionSummary = lazy(() =>
  SessionRecord.extend({
    pendingApprovals: z.number().int(),
    queued: z.number().int(),
    childCount: z.number().int(),
  })
)
export type SessionSummary = z.infer<typeof SessionSummary>

export const ProviderSummary = lazy(() =>
  z.object({
    name: z.string(),
    type: z.string(),
    baseURL: z.string().nullable(),
    hasKey: z.boolean(),
    keySource: z.enum(['config', 'env', 'store', 'none', 'not_needed']),
    /** set when the workspace's `.agents/config.yaml` defined or redefined this provider */
    workspace: z
      .object({
        file: z.string(),
        /** the person's config has a provider of this name too */
        redefined: z.boolean(),
        /** why the person's keys are not sent to it (null: they are, e.g. same endpoint or trusted workspace) */
        keysWithheld: z.string().nullable(),
      })
      .nullable()
      .optional(),
    /** the entry in the person's own config.yaml (what Settings edits); null: only a workspace defines it */
    personal: z.object({ type: z.string(), baseURL: z.string().nullable() }).nullable().optional(),
  })
)

/** A model a provider offers (its own list), for the model picker. */
export const ListedModel = lazy(() => z.object({ id: z.string(), name: z.string().nullable() }))
export type ListedModel = z.infer<typeof ListedModel>

/** What the host knows about one model: context window and price, and where each came from. */
export const ModelDetails = lazy(() =>
  z.object({
    model: z.string(),
    contextWindow: z.number().int().positive(),
    /** false: not in config.yaml nor the price table; a default is assumed */
    contextWindowKnown: z.boolean(),
    /** USD per million tokens */
    pricing: ModelPricing.nullable(),
    pricingSource: z.enum(['config', 'table', 'free']).nullable(),
    /** the model is sent the images of a prompt (config.yaml `images`, else by provider type); false: told their names only */
    images: z.boolean(),
  })
)
export type ModelDetails = z.infer<typeof ModelDetails>

/** A session whose messages contain the searched words; `snippet` marks each matched word with \u0002…\u0003. */
export const SearchHit = lazy(() => z.object({ sessionId: z.string(), messageId: z.string(), snippet: z.string() }))
export type SearchHit = z.infer<typeof SearchHit>

const PromptOutput = lazy(() => z.object({ queueId: z.string(), duplicate: z.boolean(), queued: z.boolean() }))

/** One thing a workspace file changes; `needsTrust`: it takes effect only if the person trusts the workspace. */
export const TrustChange = lazy(() =>
  z.object({
    kind: z.enum(['loosens', 'tightens', 'provider', 'key_env', 'model', 'limits', 'mcp_server', 'hook', 'problem']),
    text: z.string(),
    needsTrust: z.boolean(),
  })
)
export type TrustChange = z.infer<typeof TrustChange>

const FileHash = lazy(() => z.object({ path: text(200).min(1), sha256: text(200).nullable() }).strict())

/** A workspace's trust state and exactly which files trust covers, with what each changes. */
export const WorkspaceTrust = lazy(() =>
  z.object({
    root: z.string(),
    status: z.enum(['trusted', 'untrusted', 'changed']),
    trustedAt: z.number().nullable(),
    /** the trust list itself could not be read (then nothing is trusted) */
    problem: z.string().nullable(),
    files: z.array(
      z.object({
        /** workspace-relative, e.g. `.agents/permissions.jsonc` */
        path: z.string(),
        file: z.string(),
        sha256: z.string().nullable(),
        changedSinceTrust: z.boolean(),
        changes: z.array(TrustChange),
      }),
    ),
    /** the workspace's agent files: informational, bounded by the person's rules whether trusted or not */
    agents: z.array(z.object({ name: z.string(), file: z.string() })),
  })
)
export type WorkspaceTrust = z.infer<typeof WorkspaceTrust>

const Ok = lazy(() => z.object({ ok: z.literal(true) }))

/**
 * A prompt whose run no one can answer (`agentry run`): `ask` means deny, except what the grants allow — `yes`
 * allows whatever would ask, `allow` adds allow rules. Grants are a runtime layer: they never lift a deny. They hold
 * for this prompt's turn and the turns its background children start.
 */
/**
 * An MCP server the front end passes with a prompt (an editor's servers over ACP): used by that conversation's runs
 * with `source.scope: 'client'`, like a server of the person's own config.yaml.
 */
export const ClientMcpServer = lazy(() =>
  z
    .object({
      name: z.string().regex(MCP_SERVER_NAME_RE, `an MCP server name: ${MCP_SERVER_NAME_HINT}`),
      config: McpServerConfig,
      /** who passed it, as Settings shows it (`Zed over ACP`) */
      from: z.string().min(1).max(200),
    })
    .strict()
)
export type ClientMcpServer = z.infer<typeof ClientMcpServer>

export const HeadlessRun = lazy(() =>
  z
    .object({
      yes: z.boolean(),
      allow: z.array(z.object({ tool: id, pattern: text(1000).min(1) }).strict()).max(100),
      /** `--max-cost` / `--max-tokens`: this run's budget, its whole tree included */
      budget: Budget.optional(),
    })
    .strict()
)
export type HeadlessRun = z.infer<typeof HeadlessRun>

/**
 * One call's schemas, built the first time the call is used: a process builds only the calls it makes (an
 * `agentry run` makes five of ~90), which is most of what loading this contract costs (≈ 40 ms of CPU at start).
 */
function call<I extends z.ZodType, O extends z.ZodType>(build: () => { input: I; output: O }): { readonly input: I; readonly output: O } {
  let built: { input: I; output: O } | undefined
  return {
    get input() {
      return (built ??= build()).input
    },
    get output() {
      return (built ??= build()).output
    },
  }
}

/** name → { input, output } */
export const BridgeCalls = {
  'workspaces.list': call(() => ({
    input: z.object({}).strict(),
    output: z.object({ recent: z.array(z.object({ root: z.string(), lastOpenedAt: z.number() })), defaultRoot: z.string() }),
  })),
  'workspaces.open': call(() => ({
    input: z.object({ root: text(4096).min(1) }).strict(),
    output: z.object({ root: z.string() }),
  })),
  /** Folders whose path starts with what was typed (`~/pro` → `/home/me/projects/`): the browser's folder field. */
  'workspaces.complete': call(() => ({
    input: z.object({ partial: text(4096) }).strict(),
    output: z.object({ folders: z.array(z.string()) }),
  })),
  /**
   * The composer's `@` finder (issue 28): a workspace's files (the session's, or the folder named) fuzzy-matched
   * against `query`, best first, as workspace-relative `/` paths. .gitignore'd files, .git and node_modules are left
   * out; `truncated`: the workspace has more files than are listed. An empty query lists the first files by path.
   */
  'files.find': call(() => ({
    input: z
      .object({ workspaceRoot: text(4096).min(1).optional(), sessionId: id.optional(), query: text(512), limit: z.number().int().min(1).max(200).optional() })
      .strict()
      .refine((f) => (f.workspaceRoot === undefined) !== (f.sessionId === undefined), { message: 'give workspaceRoot or sessionId (one of them)' }),
    output: z.object({ files: z.array(z.object({ path: z.string(), positions: z.array(z.number().int()) })), truncated: z.boolean() }),
  })),
  /** The slash commands a prompt in this workspace can use (issue 27): built-ins, the person's, the workspace's once trusted. */
  'commands.list': call(() => ({
    input: z.object({ workspaceRoot: text(4096).min(1) }).strict(),
    output: CommandsListing,
  })),
  /** Claude Code hooks for this workspace (issue 27): the person's and the workspace's, with source, and problems */
  'hooks.list': call(() => ({
    input: z.object({ workspaceRoot: text(4096).min(1).optional() }).strict(),
    output: HooksListing,
  })),
  /** Agent Skills for this workspace (issue 27): the person's and the workspace's, with source, problems, whether offered */
  'skills.list': call(() => ({
    input: z.object({ workspaceRoot: text(4096).min(1) }).strict(),
    output: SkillsListing,
  })),
  'agents.list': call(() => ({
    input: z.object({ workspaceRoot: text(4096).min(1) }).strict(),
    output: z.object({
      agents: z.array(AgentListEntry),
      errors: z.array(AgentLoadError),
      /** agent folders that exist: read, or shadowed by the first-existing-folder rule */
      folders: z.array(AgentFolderInfo),
      /** agents a file removes on purpose (`disable: true`) */
      disabled: z.array(z.object({ name: z.string(), file: z.string() })),
    }),
  })),
  /** Writes a new agent file (never over an existing one) into the workspace's or the user's agents folder. */
  'agents.create': call(() => ({
    input: z
      .object({
        workspaceRoot: text(4096).min(1),
        scope: z.enum(['workspace', 'user']),
        /** a display name is fine: the file is named by its slug */
        name: text(100).regex(/[A-Za-z0-9]/, 'must contain a letter or digit'),
        description: text(2000).trim().min(1),
        mode: AgentMode,
        /** Agentry tool names; absent = every tool */
        tools: z.array(text(100).regex(AGENT_NAME_RE)).max(50).optional(),
        /** `inherit`, `provider/model` or an alias such as `sonnet` */
        model: text(200).regex(/^\S+$/).optional(),
        prompt: text(200_000),
      })
      .strict(),
    output: z.object({ file: z.string(), name: z.string() }),
  })),
  'sessions.list': call(() => ({
    input: z
      .object({
        workspaceRoot: text(4096).optional(),
        agent: id.optional(),
        mode: AgentMode.optional(),
        includeArchived: z.boolean().optional(),
        parentId: id.nullable().optional(),
        /** without parentId: inspectable children of every depth too, so the sidebar can draw the whole tree */
        includeChildren: z.boolean().optional(),
        search: text(200).optional(),
        limit: z.number().int().min(1).max(20_000).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .strict(),
    output: z.object({ sessions: z.array(SessionSummary) }),
  })),
  'sessions.get': call(() => ({
    input: z.object({ sessionId: id }).strict(),
    output: z.object({
      session: SessionRecord,
      messages: z.array(MessageWithParts),
      children: z.array(SessionRecord),
      queue: z.array(QueueEntry),
      approvals: z.array(ApprovalRecord),
      /** breadcrumb: ancestors from the root down to the parent */
      ancestors: z.array(z.object({ id: z.string(), title: z.string(), agent: z.string() })),
      lastSeq: z.number().int(),
    }),
  })),
  'sessions.create': call(() => ({
    input: z
      .object({ workspaceRoot: text(4096).min(1), agent: id.optional(), model: text(200).optional(), title: text(500).optional() })
      .strict(),
    output: z.object({ session: SessionRecord }),
  })),
  /** The model the session's next turns run on (a turn already running keeps its model). */
  'sessions.setModel': call(() => ({
    input: z.object({ sessionId: id, model: text(300) }).strict(),
    output: z.object({ session: SessionRecord }),
  })),
  /** Full-text search over the messages of a workspace's sessions, newest match first, one hit per session. */
  'sessions.search': call(() => ({
    input: z
      .object({ workspaceRoot: text(4096).optional(), query: text(500), includeArchived: z.boolean().optional(), limit: z.number().int().min(1).max(500).optional() })
      .strict(),
    output: z.object({ hits: z.array(SearchHit) }),
  })),
  'sessions.rename': call(() => ({
    input: z.object({ sessionId: id, title: text(500).min(1) }).strict(),
    output: z.object({ session: SessionRecord }),
  })),
  'sessions.archive': call(() => ({
    input: z.object({ sessionId: id, archived: z.boolean() }).strict(),
    output: z.object({ session: SessionRecord }),
  })),
  'sessions.summarize': call(() => ({
    input: z.object({ sessionId: id }).strict(),
    output: z.object({ summary: z.string() }),
  })),
  'sessions.delete': call(() => ({
    input: z.object({ sessionId: id }).strict(),
    output: Ok,
  })),
  'messages.prompt': call(() => ({
    input: z
      .object({
        sessionId: id,
        requestId: id,
        /** may be empty when the prompt carries attachments (a screenshot alone) */
        text: text(PROMPT_MAX_CHARS),
        agent: id.optional(),
        /** images and text files for the model with this prompt (an `@path` in the text attaches a workspace file by itself) */
        attachments: PromptAttachments.optional(),
        headless: HeadlessRun.optional(),
        /** the front end's MCP servers for this prompt's runs (an editor over ACP); absent → the configured ones only */
        mcpServers: z.array(ClientMcpServer).max(64).optional(),
      })
      .strict()
      .refine((p) => p.text.trim() !== '' || (p.attachments?.length ?? 0) > 0, { path: ['text'], message: 'the prompt is empty: write a message or attach a file' }),
    output: PromptOutput,
  })),
  /**
   * Runs the session's last user message again: Retry after a failed turn, Regenerate the last answer. What followed
   * that message is hidden (kept in the store, out of the transcript and the model's prompt). Idempotent by requestId.
   */
  'messages.retry': call(() => ({
    input: z.object({ sessionId: id, requestId: id, agent: id.optional() }).strict(),
    output: PromptOutput,
  })),
  /** Edits a sent user message: it and everything after it are hidden, and the new text is sent in its place. */
  'messages.edit': call(() => ({
    input: z.object({ sessionId: id, requestId: id, messageId: id, text: text(PROMPT_MAX_CHARS).min(1), agent: id.optional() }).strict(),
    output: PromptOutput,
  })),
  /**
   * Shows another version of an edited message (`messageId`: any version of it; `index`: 1-based, as in `2/3`): the
   * visible version and everything after it are hidden, the chosen version and its branch (what followed it when it
   * was last shown) come back. Refused while the session runs or has queued prompts.
   */
  'messages.version': call(() => ({
    input: z.object({ sessionId: id, messageId: id, index: z.number().int().min(1) }).strict(),
    output: z.object({ messageId: z.string(), versions: MessageVersions }),
  })),
  'messages.abort': call(() => ({
    /**
     * `interrupted`: the client that ran the turn is going away (Ctrl-C or SIGTERM of `agentry run`): the session is
     * left idle, the turn recorded as interrupted (default: the person's Stop)
     */
    input: z.object({ sessionId: id, reason: z.enum(['stop', 'interrupted']).optional() }).strict(),
    /** `returned`: on a Stop, the prompts that were queued behind the run — cancelled, their text handed back */
    output: z.object({ aborted: z.boolean(), returned: z.array(z.object({ queueId: id, text: z.string(), attachments: PromptAttachments.optional() })) }),
  })),
  'queue.list': call(() => ({
    input: z.object({ sessionId: id }).strict(),
    output: z.object({ entries: z.array(QueueEntry) }),
  })),
  'queue.cancel': call(() => ({
    input: z.object({ queueId: id }).strict(),
    output: z.object({ cancelled: z.boolean() }),
  })),
  'approvals.list': call(() => ({
    input: z.object({ rootSessionId: id.optional() }).strict(),
    output: z.object({ approvals: z.array(ApprovalRecord) }),
  })),
  'approvals.answer': call(() => ({
    input: z
      .object({
        approvalId: id,
        decision: z.enum(['allow_once', 'allow_always', 'deny']),
        patterns: z.array(text(1000).min(1)).max(20).optional(),
        scope: AlwaysScope.optional(),
        feedback: text(10_000).optional(),
      })
      .strict(),
    output: z.object({ approval: ApprovalRecord, alsoResolved: z.array(z.string()) }),
  })),
  /** Every agent a conversation started, as one tree (the run map's snapshot; events keep it live: foldRunEvent). */
  'runs.map': call(() => ({
    input: z.object({ rootSessionId: id }).strict(),
    output: z.object({ nodes: z.array(RunNode) }),
  })),
  /**
   * A message for a running session (a root turn or a child, opaque ones too): it is added to its conversation as the
   * person's at its next step — between model calls, never inside a tool call. A session that is not running is
   * refused (conflict): prompt it instead. If the run ends before its next step the text comes back
   * (`message_returned` on the root stream).
   */
  'sessions.steer': call(() => ({
    input: z.object({ sessionId: id, text: text(PROMPT_MAX_CHARS).min(1) }).strict(),
    output: z.object({ delivery: z.literal('next_step') }),
  })),
  'tasks.list': call(() => ({
    input: z.object({ rootSessionId: id }).strict(),
    output: z.object({
      tasks: z.array(
        z.object({
          taskId: z.string(),
          parentSessionId: z.string(),
          agentType: z.string(),
          description: z.string(),
          status: z.string(),
          createdAt: z.number(),
          endedAt: z.number().nullable(),
          /** a running task's spend against its budget (a finished one's is on its card) */
          budget: BudgetView.optional(),
          /** from its card: aborted by the person's Stop (TaskCard.stoppedByUser) */
          stoppedByUser: z.boolean().optional(),
          /** from its card: its denied and failed tool calls (TaskCard.toolCalls) */
          toolCalls: ToolCallCounts.optional(),
        }),
      ),
    }),
  })),
  'tasks.abort': call(() => ({
    input: z.object({ taskId: id }).strict(),
    output: z.object({ aborted: z.boolean() }),
  })),
  /** A task card's worktree (isolation: worktree), found in `sessionId`'s conversation: its diff, remove it, open its folder. */
  'tasks.worktree': call(() => ({
    input: z.object({ sessionId: id, taskId: id, action: z.enum(['diff', 'remove', 'open']) }).strict(),
    output: z.object({ worktree: TaskWorktree, diff: z.string().optional() }),
  })),
  /** Every recorded turn of a session with the files it changed and who changed them; and what Redo would bring back. */
  'changes.list': call(() => ({
    input: z.object({ sessionId: id }).strict(),
    output: z.object({
      turns: z.array(TurnChanges),
      redo: z.object({ messageIds: z.array(z.string()), turns: z.number().int() }).nullable(),
      /** kept worktrees of the conversation's tasks: their changes wait to be applied (changes.applyWorktree) */
      worktrees: z.array(z.object({ taskId: z.string(), agentType: z.string(), description: z.string(), worktree: TaskWorktree })),
    }),
  })),
  /**
   * Takes back the turns from the one that worked on `toMessageId` (default: the last message) to the end, and hides
   * that message and what followed (Redo shows them again). `dryRun`: only the plan. All or nothing.
   */
  'changes.undo': call(() => ({
    input: z.object({ sessionId: id, toMessageId: id.optional(), dryRun: z.boolean().optional(), includeProtected: z.boolean().optional() }).strict(),
    output: RestoreOutcome,
  })),
  /** Puts back what the undos since the last turn took back, and shows their messages again. */
  'changes.redo': call(() => ({
    input: z.object({ sessionId: id, dryRun: z.boolean().optional(), includeProtected: z.boolean().optional() }).strict(),
    output: RestoreOutcome,
  })),
  /**
   * Takes back some recorded changes — files or folders, one turn, one agent and those below it, or one change (hunk)
   * of one file of one turn — keeping the transcript.
   */
  'changes.revert': call(() => ({
    input: z
      .object({
        sessionId: id,
        checkpointId: id.optional(),
        paths: z.array(text(4096).min(1)).max(1000).optional(),
        agentSessionId: id.optional(),
        /** one change of one file: its index in the turn's diff of that file (with `checkpointId` and one path) */
        hunk: z.number().int().min(0).max(100_000).optional(),
        dryRun: z.boolean().optional(),
        includeProtected: z.boolean().optional(),
      })
      .strict(),
    output: RestoreOutcome,
  })),
  /**
   * Applies a kept worktree (a task card's, found in `sessionId`'s conversation) to the workspace: a three-way merge
   * per file against the worktree's base, all or nothing; recorded as a change of its own (Revert, Undo take it back).
   */
  'changes.applyWorktree': call(() => ({
    input: z.object({ sessionId: id, taskId: id, dryRun: z.boolean().optional(), includeProtected: z.boolean().optional() }).strict(),
    output: RestoreOutcome,
  })),
  /** Opens a file of the session's workspace with the person's default application (the Changes panel's Open). */
  'changes.open': call(() => ({
    input: z.object({ sessionId: id, path: text(4096).min(1) }).strict(),
    output: Ok,
  })),
  /** Space the checkpoints take in the data dir; `prune`: drop what no session keeps, and let git pack the rest. */
  'checkpoints.space': call(() => ({
    input: z.object({ prune: z.boolean().optional() }).strict(),
    output: z.object({ bytes: z.number(), workspaces: z.number().int(), enabled: z.boolean(), freedBytes: z.number().optional() }),
  })),
  'settings.get': call(() => ({
    input: z.object({ workspaceRoot: text(4096).optional() }).strict(),
    output: z.object({
      dataDir: z.string(),
      configFile: z.string(),
      permissionsFiles: z.array(z.string()),
      permissionErrors: z.array(z.object({ file: z.string(), reason: z.string() })),
      /** the rules of those files that are in force, in file order (a file that cannot be used is in permissionErrors instead) */
      staticRules: z.array(StaticRuleRow),
      configIssues: z.array(z.object({ file: z.string(), path: z.string(), reason: z.string() })),
      defaultModel: z.string(),
      /** the helper agents' model (title, summary, compaction); null: they use the session's model */
      smallModel: z.string().nullable(),
      subagents: SubagentLimits,
      providers: z.array(ProviderSummary),
      /** the person's sandbox settings, and how bash runs with them on this machine (for the workspace given) */
      sandbox: SandboxSettings.extend({ state: SandboxState }),
    }),
  })),
  /** Problems are `config_error` with `data.fields` (field → reason), e.g. a default model whose provider does not exist. */
  'settings.update': call(() => ({
    input: z
      .object({
        model: text(200).regex(/^[^/\s]+\/\S+$/).optional(),
        /** null removes it (helpers go back to the session's model) */
        smallModel: text(200).regex(/^[^/\s]+\/\S+$/).nullable().optional(),
        subagents: SubagentLimits.partial().optional(),
        sandbox: SandboxSettings.partial().optional(),
      })
      .strict(),
    output: Ok,
  })),
  /**
   * Settings › Budgets: what the person's own config.yaml sets of `budgets`, `subagents.budget` and `runaway`, as the
   * form shows it ('' = not set: no limit, or the default in `defaults`). `set`: saves those settings first (an empty
   * text removes the setting). Problems are `config_error` with `data.fields` (setting → reason), the form's own checks.
   */
  'settings.budgets': call(() => ({
    input: z.object({ set: BudgetDraft.optional() }).strict(),
    output: z.object({ values: z.record(BudgetSettingKey, z.string()), defaults: z.record(BudgetSettingKey, z.string()) }),
  })),
  'providers.setKey': call(() => ({
    input: z.object({ provider: id, key: text(4096).min(1) }).strict(),
    output: Ok,
  })),
  'providers.removeKey': call(() => ({
    input: z.object({ provider: id }).strict(),
    output: Ok,
  })),
  /**
   * Tests a provider with an authenticated request for its model list. `draft`: the form's values, not saved yet (its
   * key, or else the saved key only if type and URL are unchanged).
   */
  'providers.test': call(() => ({
    input: z.object({ provider: id, draft: ProviderDraft.optional() }).strict(),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  })),
  /**
   * Adds or edits a provider in the person's config.yaml (comments and layout kept); a key goes to the key store.
   * Problems come back as `config_error` with `data.fields` (field → reason), the same checks the form runs.
   */
  'providers.save': call(() => ({
    input: z.object({ draft: ProviderDraft, adding: z.boolean() }).strict(),
    output: Ok,
  })),
  /** Removes a provider from the person's config.yaml, and its saved key. */
  'providers.remove': call(() => ({
    input: z.object({ provider: id }).strict(),
    output: Ok,
  })),
  /** The models a provider lists (its own API), for the model picker. */
  'models.list': call(() => ({
    input: z.object({ provider: id, workspaceRoot: text(4096).optional() }).strict(),
    output: z.object({ models: z.array(ListedModel), note: z.string().nullable() }),
  })),
  /** Context window and price of a model (config.yaml overrides, then the price table). */
  'models.info': call(() => ({
    input: z.object({ model: text(300), workspaceRoot: text(4096).optional() }).strict(),
    output: ModelDetails,
  })),
  /**
   * "Always allow" grants: stored ones (workspace, session) and those running agents hold (`run`, in memory).
   * `workspaceRoot`: the workspace's rules and the session and run grants of its conversations; `sessionId`: the
   * session and run grants made in that session and the sessions below it (a conversation's, given its root). Neither:
   * every grant.
   */
  /** The container engine children with `isolation: container` would run on (issue 29): Settings, `agentry containers`. */
  'containers.status': call(() => ({
    input: z.object({}).strict(),
    output: ContainerStatus,
  })),
  'rules.list': call(() => ({
    input: z.object({ workspaceRoot: text(4096).optional(), sessionId: id.optional() }).strict(),
    output: z.object({ rules: z.array(ListedRule) }),
  })),
  'rules.revoke': call(() => ({
    input: z.object({ ruleId: id }).strict(),
    output: z.object({ revoked: z.boolean() }),
  })),
  'trust.get': call(() => ({
    input: z.object({ workspaceRoot: text(4096).min(1) }).strict(),
    output: z.object({ trust: WorkspaceTrust }),
  })),
  'trust.set': call(() => ({
    input: z
      .object({
        workspaceRoot: text(4096).min(1),
        trusted: z.boolean(),
        /** the files as shown to the person; trusting fails (conflict) if they changed since */
        files: z.array(FileHash).max(20).optional(),
      })
      .strict(),
    output: z.object({ trust: WorkspaceTrust }),
  })),
  'mcp.list': call(() => ({
    /** default: the host's default workspace */
    input: z
      .object({
        workspaceRoot: text(4096).min(1).optional(),
        /** connect to every server that may start and is not running first (a health check, as `agentry mcp list` does) */
        start: z.boolean().optional(),
      })
      .strict(),
    output: z.object({
      workspaceRoot: z.string(),
      servers: z.array(McpServerInfo),
      /** MCP files that could not be used at all (a .mcp.json that is not JSON): file, path, reason */
      problems: z.array(z.object({ file: z.string(), path: z.string(), reason: z.string() })),
    }),
  })),
  'mcp.control': call(() => ({
    input: z.object({ workspaceRoot: text(4096).min(1), name: id, action: McpAction }).strict(),
    output: z.object({ server: McpServerInfo }),
  })),
} as const

export type BridgeCallName = keyof typeof BridgeCalls
export type CallInput<N extends BridgeCallName> = z.infer<(typeof BridgeCalls)[N]['input']>
export type CallOutput<N extends BridgeCallName> = z.infer<(typeof BridgeCalls)[N]['output']>

export const BridgeErrorCode = lazy(() =>
  z.enum(['invalid_request', 'not_found', 'conflict', 'config_error', 'internal', 'unavailable'])
)
export type BridgeError = { code: z.infer<typeof BridgeErrorCode>; message: string; data?: unknown }
export type CallResult<T> = { ok: true; data: T } | { ok: false; error: BridgeError }

export const SubscribeInput = lazy(() =>
  z
    .object({ sessionId: z.union([id, z.literal('all')]), afterSeq: z.number().int().min(0).default(0) })
    .strict()
)
export type SubscribeInput = z.infer<typeof SubscribeInput>

/** What a subscription delivers, in order: one snapshot, then replayed and live events; or resync. */
export type SubscriptionMessage =
  | {
      kind: 'snapshot'
      stream: string
      runs: { sessionId: string; status: z.infer<typeof SessionStatus> }[]
      approvals: ApprovalRecord[]
      lastSeq: number
    }
  | { kind: 'event'; event: SequencedEvent }
  | { kind: 'resync'; stream: string; reason: string }
