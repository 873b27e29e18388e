import { z } from 'zod'
import { lazy } from './lazy'

/** What a permission rule decides for a call. */
export const PermissionAction = lazy(() => z.enum(['allow', 'deny', 'ask']))
export type PermissionAction = z.infer<typeof PermissionAction>

/**
 * CompactPermission: tool name (glob) → action, or tool name → { pattern glob → action }.
 * Order matters: within a ruleset the last matching rule wins.
 */
export const CompactPermission = lazy(() =>
  z.record(
    z.string().min(1),
    z.union([PermissionAction, z.record(z.string().min(1), PermissionAction)]),
  )
)
export type CompactPermission = z.infer<typeof CompactPermission>

/** One flattened rule. `tool` and `pattern` are picomatch globs (dot: true). */
export const PermissionRule = lazy(() =>
  z.object({
    tool: z.string(),
    pattern: z.string(),
    action: PermissionAction,
  })
)
export type PermissionRule = z.infer<typeof PermissionRule>

export const RuleScope = lazy(() => z.enum(['session', 'workspace']))
export type RuleScope = z.infer<typeof RuleScope>

/**
 * How far an "Always allow" answer reaches. `run`: the asking agent's current run and the agents it starts, until it
 * ends (never stored); `session`: the asking session and every session below it, from now on (never its parent or
 * another conversation); `workspace`: every conversation of the workspace.
 */
export const AlwaysScope = lazy(() => z.enum(['run', 'session', 'workspace']))
export type AlwaysScope = z.infer<typeof AlwaysScope>

/** A runtime "Always allow" rule as stored and listed. */
export const RuntimeRule = lazy(() =>
  z.object({
    id: z.string(),
    scope: RuleScope,
    /** session id for scope=session, workspace root for scope=workspace */
    scopeKey: z.string(),
    tool: z.string(),
    pattern: z.string(),
    action: PermissionAction,
    createdAt: z.number(),
  })
)
export type RuntimeRule = z.infer<typeof RuntimeRule>

/**
 * A pattern offered for "Always allow", with a mark for the ones worth a second look (network, deleting files,
 * privileges, inline code, package runners) and why.
 */
export const AlwaysSuggestion = lazy(() =>
  z.object({
    pattern: z.string(),
    risky: z.boolean(),
    reason: z.string().optional(),
  })
)
export type AlwaysSuggestion = z.infer<typeof AlwaysSuggestion>

/**
 * A grant as Settings and the conversation list it: a stored rule, or a `run` grant (held by a running agent, in
 * memory, gone when the run ends; its id starts with `run:`). `conversation`: the conversation a session or run grant
 * was made in (its root session and title), so it can be named rather than shown as an id.
 */
export const ListedRule = lazy(() =>
  z.object({
    id: z.string(),
    scope: AlwaysScope,
    /** session id for scope=session and run, workspace root for scope=workspace */
    scopeKey: z.string(),
    tool: z.string(),
    pattern: z.string(),
    action: PermissionAction,
    createdAt: z.number(),
    conversation: z.object({ id: z.string(), title: z.string(), workspaceRoot: z.string() }).nullable(),
  })
)
export type ListedRule = z.infer<typeof ListedRule>

/**
 * One rule of a static permissions file, as Settings › Permissions shows it. `from`: the person's own file or the
 * workspace's; `tightenOnly`: a rule of an untrusted workspace, which can tighten the person's rules but never loosen them.
 */
export const StaticRuleRow = lazy(() =>
  z.object({
    tool: z.string(),
    pattern: z.string(),
    action: PermissionAction,
    file: z.string(),
    from: z.enum(['yours', 'workspace']),
    tightenOnly: z.boolean(),
  })
)
export type StaticRuleRow = z.infer<typeof StaticRuleRow>
