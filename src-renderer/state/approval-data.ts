import type { ApprovalRecord } from '../../src-shared'

/**
 * What the approval views show of a record. The record types its own arguments (src-shared/approval.ts): these only
 * name what a view reads, so the views do not reach into the record's shape each on their own.
 */

export type ApprovalArgs = {
  input: Record<string, unknown>
  summary: string | null
  diff: string | null
  /** why the rules ask (the deciding rule, or why a bash line cannot be checked before it runs) */
  reason: string | null
  /** set when the call writes protected configuration: it can be allowed once, never always */
  protectedWrite: { path: string; reason: string } | null
}

export function approvalArgs(a: ApprovalRecord): ApprovalArgs {
  const x = a.arguments
  // A question's input is the question itself (its text and answers).
  const input = a.kind === 'tool' ? (x.input ?? {}) : { ...(x.question !== undefined ? { question: x.question } : {}), ...(x.options ? { options: x.options } : {}), ...(x.plan !== undefined ? { plan: x.plan } : {}) }
  return { input, summary: x.summary ?? null, diff: x.diff ?? null, reason: x.reason ?? null, protectedWrite: x.protected ?? null }
}

export type Suggestion = { pattern: string; risky: boolean; reason: string | null }

/** What "Always allow" offers: one pattern per sub-command, each marked risky or not. */
export function alwaysSuggestions(a: ApprovalRecord): Suggestion[] {
  return a.alwaysSuggestions.map((s) => ({ pattern: s.pattern, risky: s.risky, reason: s.reason ?? null }))
}
