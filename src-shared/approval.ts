import { z } from 'zod'
import { lazy } from './lazy'
import { Budget, BudgetView } from './budget'
import { AlwaysSuggestion } from './permission'

/**
 * One approval record from the host to every client: the stored row, what `approvals.list` answers, what the
 * `tool_approval_required` event carries, what the app and editors (ACP) render. Its `kind` and its `arguments`
 * are typed here, so no client guesses them again from the tool's name or parses an open object.
 */
export const ApprovalKind = lazy(() => z.enum(['tool', 'plan', 'question', 'budget']))
export type ApprovalKind = z.infer<typeof ApprovalKind>
export const ApprovalStatus = lazy(() => z.enum(['pending', 'approved', 'denied', 'cancelled', 'expired']))
export type ApprovalStatus = z.infer<typeof ApprovalStatus>

/** What the person decides on: a tool call (its input and what it would do), a question, or a plan. */
export const ApprovalArguments = lazy(() =>
  z.object({
    /** tool: the call's input as the model sent it */
    input: z.record(z.string(), z.unknown()).optional(),
    /** tool: in words (`Write src/a.ts`), and the change as a diff for edits */
    summary: z.string().optional(),
    diff: z.string().optional(),
    /** tool: why the rules ask (the deciding rule, or why a bash line cannot be checked before it runs) */
    reason: z.string().optional(),
    /** what each subagent on the way was asked to do (its task's label), from the root's child down to the asker */
    labels: z.array(z.string()).optional(),
    /** tool: the call writes protected configuration — it can be allowed once, never always */
    protected: z.object({ path: z.string(), reason: z.string() }).optional(),
    /** question: the question and the answers it suggests */
    question: z.string().optional(),
    options: z.array(z.string()).optional(),
    /** plan: the plan to approve */
    plan: z.string().optional(),
    /** budget: a run at its budget asks to go on (`extendBy` more), or a fan-out asks before it starts (its `children`) */
    budget: z
      .object({
        view: BudgetView.optional(),
        extendBy: Budget.optional(),
        children: z.number().int().optional(),
        childrenCostUsd: z.number().optional(),
      })
      .optional(),
  })
)
export type ApprovalArguments = z.infer<typeof ApprovalArguments>

export const ApprovalRecord = lazy(() =>
  z.object({
    id: z.string(),
    sessionId: z.string(),
    rootSessionId: z.string(),
    messageId: z.string().nullable(),
    toolCallId: z.string(),
    toolName: z.string(),
    kind: ApprovalKind,
    agentPath: z.array(z.string()),
    arguments: ApprovalArguments,
    /** what the rules were asked about (the path, the sub-commands, the host) */
    patterns: z.array(z.string()),
    /** what "Always allow" offers: one pattern per sub-command, each marked risky or not */
    alwaysSuggestions: z.array(AlwaysSuggestion),
    status: ApprovalStatus,
    answer: z.unknown().nullable(),
    createdAt: z.number(),
    resolvedAt: z.number().nullable(),
    /** where it was asked, for a list across workspaces (the inbox): the conversation's workspace and title */
    workspaceRoot: z.string().optional(),
    conversationTitle: z.string().optional(),
  })
)
export type ApprovalRecord = z.infer<typeof ApprovalRecord>

/**
 * A stored approval's arguments as the record types them. Rows written before the shape was fixed held a tool's input
 * directly (or a question's fields at the top); fields of the wrong type are left out, never guessed.
 */
export function approvalArguments(kind: ApprovalKind, raw: unknown): ApprovalArguments {
  const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {}
  const shaped = kind === 'tool' && !('input' in o) ? { input: o } : o
  const out: ApprovalArguments = {}
  for (const [key, schema] of Object.entries(ApprovalArguments.shape)) {
    const parsed = (schema as z.ZodType).safeParse(shaped[key])
    if (parsed.success && parsed.data !== undefined) (out as Record<string, unknown>)[key] = parsed.data
  }
  return out
}
