import type { ConfigIssue } from './load-config'

/**
 * One line per issue (`file: path: reason`) and a closing instruction, for the CLI and logs.
 * Returns '' when there is nothing to report so callers can print it unconditionally.
 */
export function formatConfigIssues(issues: readonly ConfigIssue[]): string {
  if (issues.length === 0) return ''
  const lines = issues.map((i) => (i.path ? `${i.file}: ${i.path}: ${i.reason}` : `${i.file}: ${i.reason}`))
  return [...lines, 'Fix the file(s) above.'].join('\n')
}
