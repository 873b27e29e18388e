import type { z } from 'zod'

const MAX_ISSUES = 3
const MAX_MESSAGE = 600

/**
 * Turns zod issues into one line a developer can act on: which call, which field, what was expected.
 * Input values are never echoed (they may be huge or secret); key names are clipped.
 */
export function describeIssues(subject: string, issues: readonly z.core.$ZodIssue[], root = 'input'): string {
  const parts = issues.slice(0, MAX_ISSUES).map((issue) => `${formatPath(root, issue.path)}: ${issue.message}`)
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : ''
  return clip(`${subject}: ${parts.join('; ')}${more}`, MAX_MESSAGE)
}

function formatPath(root: string, path: readonly PropertyKey[]): string {
  if (path.length === 0) return root
  return (
    root +
    path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${clip(String(key), 60)}`)).join('')
  )
}

export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`
}
