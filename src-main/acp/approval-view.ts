import type { PermissionOption, ToolCallContent } from '@agentclientprotocol/sdk/unstable'
import type { ApprovalRecord, CallInput } from '../../src-shared'
import { fenced, fileDiff, text, toolTitle } from './tool-view'

/**
 * An approval as an ACP permission request: the same record the desktop UI answers, so an answer from either side
 * resolves it for both. Options: Allow once / Always allow (the suggested patterns in the name; for this conversation
 * or the whole workspace) / Deny. A write to protected configuration can be allowed once, never always. Questions
 * offer their answers; a finished plan offers "switch to build" or "keep planning".
 */

type Answer = Omit<CallInput<'approvals.answer'>, 'approvalId'>

/** The protected path a tool approval is about (then: once, never always). */
function protectedPath(a: ApprovalRecord): string | undefined {
  return a.arguments.protected?.path
}

function questionOptions(a: ApprovalRecord): string[] {
  return a.arguments.options ?? []
}

/** The tool call's title in the request: the agent path first when a subagent asks (`build › general › explore`). */
export function approvalTitle(a: ApprovalRecord): string {
  const title = toolTitle(a.toolName, a.kind === 'tool' ? a.arguments.input : a.arguments)
  return a.agentPath.length > 1 ? `${a.agentPath.join(' › ')}: ${title}` : title
}

function patternsText(a: ApprovalRecord): string {
  return a.alwaysSuggestions.map((s) => `\`${s.pattern}\`${s.risky ? ` (⚠ ${s.reason ?? 'risky'})` : ''}`).join(', ')
}

export function permissionOptions(a: ApprovalRecord): PermissionOption[] {
  if (a.kind === 'plan') {
    return [
      { optionId: 'approve', name: 'Approve the plan and switch to build', kind: 'allow_once' },
      { optionId: 'reject', name: 'Keep planning', kind: 'reject_once' },
    ]
  }
  if (a.kind === 'budget') {
    // A run at its budget, or a fan-out: once, never always (a budget is the person's limit, not a rule to widen).
    const extend = a.toolName === 'budget'
    return [
      { optionId: 'allow_once', name: extend ? 'Extend the budget and go on' : `Start ${a.arguments.budget?.children ?? 'the'} subagents`, kind: 'allow_once' },
      { optionId: 'deny', name: extend ? 'Stop here' : "Don't start them", kind: 'reject_once' },
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
  if (!guarded && a.alwaysSuggestions.length) {
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
export function answerFor(a: ApprovalRecord, optionId: string): Answer | undefined {
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

/**
 * What the person reads before deciding: for a file change, the change as a structured diff first (a client that
 * reviews the first block as the diff opens it), then the summary and why the rules ask; a question or the plan
 * itself. A diff that cannot be given as a block (no path, an old text the diff cannot give back) stays text.
 */
export function approvalContent(a: ApprovalRecord, workdir: string): ToolCallContent[] {
  const x = a.arguments
  if (a.kind === 'question') return [text(x.question ?? '')]
  if (a.kind === 'plan') return [text(x.plan ?? '')]
  const out: ToolCallContent[] = []
  const block = a.kind === 'tool' ? fileDiff(a.toolName, x.input, workdir, x.diff) : undefined
  if (block) out.push(block)
  if (x.summary) out.push(text(x.summary))
  if (x.protected) out.push(text(`Protected: ${x.protected.path} — ${x.protected.reason}. It can be allowed once, never always.`))
  if (x.reason) out.push(text(`Asks because: ${x.reason}`))
  if (x.diff && !block) out.push(text(fenced(x.diff, 'diff')))
  if (!x.summary && !x.diff && x.input !== undefined) out.push(text(fenced(JSON.stringify(x.input, null, 2), 'json')))
  return out
}
