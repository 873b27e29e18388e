import type { PermissionAction } from '../../src-shared'
import type { SourcedRule } from './ruleset'

const SEVERITY: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 }

/**
 * The static layer's deciding rule. `person` is the person's file (followed, when they trust the workspace, by
 * the workspace's file: last match wins as before). `workspace` is an untrusted workspace's file, which may only
 * tighten: its deny or ask counts when it is stricter than the person's answer; its allow never counts — a cloned
 * repository cannot lift the person's deny, nor turn their ask into allow.
 */
export function staticRule(person: SourcedRule | undefined, workspace: SourcedRule | undefined): SourcedRule | undefined {
  if (!workspace || workspace.action === 'allow') return person
  if (!person) return workspace
  // On a tie the workspace's stand-in for a broken file is named: the person needs to hear the file is broken.
  if (SEVERITY[workspace.action] === SEVERITY[person.action] && workspace.source?.malformed) return workspace
  return SEVERITY[workspace.action] > SEVERITY[person.action] ? workspace : person
}

/** `permissions.jsonc`, or the file a labelled rule came from (`your permissions.jsonc`). */
export function staticLabel(rule: SourcedRule): string {
  return rule.source?.label ?? 'permissions.jsonc'
}

/** For the `"*": ask` that stands in for a file that could not be used: say so, naming the file and what is wrong. */
export function malformedReason(rule: SourcedRule): string | undefined {
  const m = rule.source?.malformed
  return m ? `asks because ${rule.source?.file} could not be used (${m})` : undefined
}
