import { PermissionRule, type CompactPermission } from '../../src-shared'
import { isAbsolutePath, matchOutsideForDeny, matchSubject, matchTool, type SubjectKind } from './matcher'
import { undoesSafetyFlag } from './shell/safety-flags'

/** Which file a static rule came from, for the reason text; `malformed` when it stands in for a broken file. */
export interface RuleSource {
  file: string
  /** e.g. `your permissions.jsonc`, `the workspace's .agents/permissions.jsonc` */
  label: string
  malformed?: string
}

/** A rule and, for rules read from a file, where it came from. */
export type SourcedRule = PermissionRule & { source?: RuleSource }

/** Ordered rules; the last matching rule wins. */
export type Ruleset = SourcedRule[]

/**
 * Flatten a CompactPermission, keeping object order:
 * `"bash": "ask"` → `{tool:'bash', pattern:'*', action:'ask'}`,
 * `"read_file": {"*": "allow", "*.env": "deny"}` → two rules.
 * (JS objects put integer-like keys first; tool names and globs are never integers in practice.)
 */
export function fromCompact(c: CompactPermission): Ruleset {
  const rules: Ruleset = []
  for (const [tool, value] of Object.entries(c)) {
    if (typeof value === 'string') {
      rules.push({ tool, pattern: '*', action: value })
      continue
    }
    for (const [pattern, action] of Object.entries(value)) rules.push({ tool, pattern, action })
  }
  return rules
}

/**
 * The rule deciding `tool` on `subject` within one ruleset: scanned from the end, first match
 * wins; `undefined` when nothing matches. Path subjects that are absolute count as outside the
 * workspace (pass `outsideWorkspace` to force that for a relative one): only absolute patterns can
 * allow or ask for them, while a relative catch-all or name pattern can still deny them. An allow for a command
 * that names a safety flag (`git clean -n *`) does not cover a command that turns it off (`--no-dry-run`).
 */
export function evaluateRuleset(
  rules: Ruleset,
  tool: string,
  subject: string,
  kind: SubjectKind,
  outsideWorkspace = false,
): SourcedRule | undefined {
  const outside = kind === 'path' && (outsideWorkspace || isAbsolutePath(subject))
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]
    if (!matchTool(rule.tool, tool)) continue
    if (outside && !isAbsolutePath(rule.pattern)) {
      if (rule.action === 'deny' && matchOutsideForDeny(rule.pattern, subject)) return rule
      continue
    }
    if (kind === 'command' && rule.action === 'allow' && undoesSafetyFlag(rule.pattern, subject)) continue
    if (matchSubject(rule.pattern, subject, kind, outsideWorkspace)) return rule
  }
  return undefined
}
