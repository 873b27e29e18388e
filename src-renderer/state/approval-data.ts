import type { ApprovalRecord } from '../../src-shared'

/**
 * Readers for an approval's open fields (`arguments` is whatever the tool's display sent), tolerant of
 * anything missing, like part-data.ts is for parts.
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
  // The host sends `{ input, summary, diff }`; older records and questions hold the tool input directly.
  const raw = a.arguments && typeof a.arguments === 'object' ? (a.arguments as Record<string, unknown>) : {}
  const input = raw.input && typeof raw.input === 'object' && !Array.isArray(raw.input) ? (raw.input as Record<string, unknown>) : raw
  return {
    input,
    summary: typeof raw.summary === 'string' ? raw.summary : null,
    diff: typeof raw.diff === 'string' ? raw.diff : null,
    reason: typeof raw.reason === 'string' ? raw.reason : null,
    protectedWrite: protectedOf(raw.protected),
  }
}

function protectedOf(p: unknown): { path: string; reason: string } | null {
  if (!p || typeof p !== 'object') return null
  const o = p as Record<string, unknown>
  return typeof o.path === 'string' && typeof o.reason === 'string' ? { path: o.path, reason: o.reason } : null
}

export type Suggestion = { pattern: string; risky: boolean; reason: string | null }

/**
 * What "Always allow" offers: one pattern per sub-command. A host that marks risky suggestions sends
 * `alwaysSuggestions: [{ pattern, risky, reason }]`; otherwise the plain `alwaysPatterns` (or the matched
 * patterns) are offered unmarked.
 */
export function alwaysSuggestions(a: ApprovalRecord): Suggestion[] {
  const marked = (a as Record<string, unknown>).alwaysSuggestions
  if (Array.isArray(marked)) {
    const list = marked.flatMap((m): Suggestion[] => {
      if (!m || typeof m !== 'object') return []
      const o = m as Record<string, unknown>
      if (typeof o.pattern !== 'string' || !o.pattern) return []
      return [{ pattern: o.pattern, risky: o.risky === true, reason: typeof o.reason === 'string' ? o.reason : null }]
    })
    if (list.length > 0) return list
  }
  return (a.alwaysPatterns.length ? a.alwaysPatterns : a.patterns).map((pattern) => ({ pattern, risky: false, reason: null }))
}

/** The host may flag the whole call as risky (`risky: true`, optional `riskReason`). */
export function approvalRisk(a: ApprovalRecord): { risky: boolean; reason: string | null } {
  const o = a as Record<string, unknown>
  return { risky: o.risky === true, reason: typeof o.riskReason === 'string' ? o.riskReason : null }
}
