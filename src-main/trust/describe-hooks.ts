import type { HookProblem, TrustChange } from '../../src-shared'
import { loadHooks } from '../hooks'

/**
 * What a workspace's hooks would run once trusted (Claude Code's `.claude/settings*.json`, or `hooks:` in its
 * `.agents/config.yaml`): each command with its event and matcher, shown before the person decides.
 */
export function describeHooks(file: string, format: 'json' | 'yaml'): TrustChange[] {
  const set = loadHooks([{ file, format, workspace: true }], { trusted: true })
  const problems = set.problems.map((p: HookProblem) => ({ kind: 'problem' as const, text: `${p.path ? `${p.path}: ` : ''}${p.reason}`, needsTrust: false }))
  const hooks = set.all.map((h) => ({
    kind: 'hook' as const,
    text: `runs \`${h.command}\` as a ${h.event} hook${h.matcher ? ` for ${h.matcher}` : ''} (in the sandbox, the workspace as its folder)`,
    needsTrust: true,
  }))
  return [...hooks, ...problems]
}
