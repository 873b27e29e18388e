import type { z } from 'zod'
import { clip, describeZodIssues, problemsLine } from '../../src-shared'

const MAX_ISSUES = 3
const MAX_MESSAGE = 600

/**
 * One line a developer can act on: which call, which field, what was expected (the shared zod-issue wording).
 * Payload values are never echoed — they may be huge or secret — only their kind; key names are clipped.
 */
export function describeIssues(subject: string, issues: readonly z.core.$ZodIssue[], value: unknown, schema?: z.core.$ZodType, root = 'input'): string {
  const problems = describeZodIssues(issues, value, schema, { echoValues: false })
  return clip(`${subject}: ${problemsLine(problems, { root, max: MAX_ISSUES })}`, MAX_MESSAGE)
}
