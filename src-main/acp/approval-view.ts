import type { PermissionOption, ToolCallContent } from '@agentclientprotocol/sdk'
import type { AlwaysSuggestion, ApprovalRecord, CallInput } from '../../src-shared'
import { field, fenced, text, toolTitle } from './tool-view'

/**
 * An approval as an ACP permission request: the same record the desktop UI answers, so an answer from either side
 * resolves it for both. Options: Allow once / Always allow (the suggested patterns in the name; for this conversation
 * or the whole workspace) / Deny. A write to protected configuration can be allowed once, never always. Questions
 * offer their answers; a finished plan offers "switch to build" or "keep planning".
 */

/** What the view needs of an approval: an `ApprovalRecord` (snapshot) or a `tool_approval_required` event. */
export interface PendingApproval {
  approvalId: string
  sessionId: string
  kind: ApprovalRecord['kind']
  toolName: string
  toolCallId: string
  agentPath: string[]
  arguments: unknown
  alwaysPatterns: string[]
  alwaysSuggestions?: AlwaysSuggestion[]
}

export function approvalFromRecord(r: ApprovalRecord): PendingApproval {
  return { ...r, approvalId: r.id }
}

/** The kind, which an event does not carry: questions and plans are asked by their own tools. */
export function kindOf(toolName: string): ApprovalRecord['kind'] {
  return toolName === 'question' ? 'question' : toolName === 'plan_exit' ? 'plan' : 'tool'
}

type Answer = Omit<CallInput<'approvals.answer'>, 'approvalId'>

function args(a: PendingApproval): Record<string, unknown> {
  return a.arguments && typeof a.arguments === 'object' ? (a.arguments as Record<string, unknown>) : {}
}

/** The protected path a tool approval is about (then: once, never always). */
function protectedPath(a: PendingApproval): string | undefined {
  const p = args(a).protected as { path?: unknown } | undefined
  return p ? (typeof p.path === 'string' ? p.path : 'a protected path') : undefined
}

function questionOptions(a: PendingApproval): string[] {
  const options = args(a).options
  return Array.isArray(options) ? options.filter((o): o is string => typeof o === 'string') : []
}

/** The tool call's title in the request: the agent path first when a subagent asks (`build › general › explore`). */
export function approvalTitle(a: PendingApproval): string {
  const input = a.kind === 'tool' ? args(a).input : a.arguments
  const title = toolTitle(a.toolName, input)
  return a.agentPath.length > 1 ? `${a.agentPath.join(' › ')}: ${title}` : title
}

function patternsText(a: PendingApproval): string {
  const suggestions = a.alwaysSuggestions?.length ? a.alwaysSuggestions : a.alwaysPatterns.map((pattern) => ({ pattern, risky: false, reason: undefined }))
  return suggestions.map((s) => `\`${s.pattern}\`${s.risky ? ` (⚠ ${s.reason ?? 'risky'})` : ''}`).join(', ')
}

export function permissionOptions(a: PendingApproval): PermissionOption[] {
  if (a.kind === 'plan') {
    return [
      { optionId: 'approve', name: 'Approve the plan and switch to build', kind: 'allow_once' },
      { optionId: 'reject', name: 'Keep planning', kind: 'reject_once' },
    ]
  }
  if (a.kind === 'question') {
    return [
      ...questionOptions(a).map((name, i): PermissionOption => ({ optionId: `answer:${i}`, name, kind: 'allow_once' })),
      { optionId: 'skip', name: 'Skip (answer in your next message)', kind: 'reject_once' },
    ]
  }
  const guarded = protectedPath(a)
  const options: PermissionOption[] = [{ optionId: 'allow_once', name: guarded ? `Allow once (protected: ${guarded})` : 'Allow once', kind: 'allow_once' }]
  if (!guarded && a.alwaysPatterns.length) {
    const patterns = patternsText(a)
    options.push(
      { optionId: 'allow_always_session', name: `Always allow ${patterns} in this conversation`, kind: 'allow_always' },
      { optionId: 'allow_always_workspace', name: `Always allow ${patterns} in this workspace`, kind: 'allow_always' },
    )
  }
  options.push({ optionId: 'deny', name: 'Deny', kind: 'reject_once' })
  return options
}

/** The `approvals.answer` input for the option the person picked; undefined for an option this request did not offer. */
export function answerFor(a: PendingApproval, optionId: string): Answer | undefined {
  if (!permissionOptions(a).some((o) => o.optionId === optionId)) return undefined
  if (a.kind === 'question') {
    const i = /^answer:(\d+)$/.exec(optionId)
    return i ? { decision: 'allow_once', feedback: questionOptions(a)[Number(i[1])] } : { decision: 'deny' }
  }
  switch (optionId) {
    case 'allow_once':
    case 'approve':
      return { decision: 'allow_once' }
    case 'allow_always_session':
      return { decision: 'allow_always', scope: 'session' }
    case 'allow_always_workspace':
      return { decision: 'allow_always', scope: 'workspace' }
    default:
      return { decision: 'deny' }
  }
}

/** What the person reads before deciding: the summary, why the rules ask, the diff; a question or the plan itself. */
export function approvalContent(a: PendingApproval): ToolCallContent[] {
  const x = args(a)
  if (a.kind === 'question') return [text(field(x, 'question') ?? '')]
  if (a.kind === 'plan') return [text(field(x, 'plan') ?? '')]
  const out: ToolCallContent[] = []
  const summary = field(x, 'summary')
  if (summary) out.push(text(summary))
  const guarded = x.protected as { path?: string; reason?: string } | undefined
  if (guarded) out.push(text(`Protected: ${guarded.path ?? ''} — ${guarded.reason ?? 'this changes what agents may do'}. It can be allowed once, never always.`))
  const reason = field(x, 'reason')
  if (reason) out.push(text(`Asks because: ${reason}`))
  const diff = field(x, 'diff')
  if (diff) out.push(text(fenced(diff, 'diff')))
  if (!summary && !diff && x.input !== undefined) out.push(text(fenced(JSON.stringify(x.input, null, 2), 'json')))
  return out
}
