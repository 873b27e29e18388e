import type { Reply } from './matrix-script'
import { caseReplies, caseRepliesWith, tok } from './matrix-script'
import { KINDS, MODES, PARENTS, type MatrixCase, type Outcome } from './matrix-table'

/**
 * The power features' rows of the combination matrix (issue 16): each feature is one more dimension value of the
 * last `task` call, crossed with parent {root, opaque, inspectable} × child {opaque, inspectable} × mode
 * {blocking, background}. The rows reuse the matrix's scripts and expectations (matrix-script / matrix-expect);
 * what a feature adds on top is checked by power-expect.ts.
 */
export type Feature = 'model' | 'max_turns' | 'timeout_seconds' | 'label' | 'cleanup-delete' | 'cleanup-keep' | 'tool-policy' | 'announce-skip' | 'fork' | 'worktree-changed' | 'worktree-unchanged'

export interface PowerCase extends MatrixCase {
  feature: Feature
}

export const MODEL_ALIAS = 'quick'
export const MODEL_TARGET = 'script/quick-model'
export const LABEL = 'Quick check'
export const TURN_LIMIT_TEXT = 'answered at the turn limit'
export const PER_CALL_TIMEOUT = 2
export const SKIP = 'ANNOUNCE_SKIP'
/** `subagents.tools` of the tool-policy rows: allow-only, with a deny that wins over the allow. */
export const TOOL_POLICY = { allow: ['task', 'read_file', 'list_dir'], deny: ['list_dir'] }

/** Per feature: the last call's extra input, how the last child ends, and the group's config. */
/** What the parent reads of a kept worktree (a regular expression's source): the branch and how to review and merge it. */
const keptNote = (stat: string) =>
  `Worktree kept: branch agentry/ses_\\w+ \\(${stat}\\), started from [0-9a-f]{12}\\.\\nTo review: git diff [0-9a-f]{12}\\.\\.\\.agentry/ses_\\w+ — to merge: git merge agentry/ses_\\w+ \\(in \\S+\\)\\.`

export const FEATURES: Record<Feature, { extra: Record<string, unknown>; outcome: Outcome; leafText?: string; resultSuffix?: string; incomplete?: string; config?: Record<string, unknown>; git?: true }> = {
  model: { extra: { model: MODEL_ALIAS }, outcome: 'success', config: { models: { aliases: { [MODEL_ALIAS]: MODEL_TARGET } } } },
  // At its turn cap the child answers, and the parent reads that answer as incomplete.
  max_turns: { extra: { max_turns: 1 }, outcome: 'success', leafText: TURN_LIMIT_TEXT, incomplete: 'it used all 1 of its steps before finishing' },
  // The per-call timeout fires while the configured one (300 s) would not.
  timeout_seconds: { extra: { timeout_seconds: PER_CALL_TIMEOUT }, outcome: 'timeout' },
  label: { extra: { label: LABEL }, outcome: 'success' },
  'cleanup-delete': { extra: { cleanup: 'delete' }, outcome: 'success' },
  'cleanup-keep': { extra: { cleanup: 'keep' }, outcome: 'success' },
  // The last child tries a tool the policy leaves out (write_file: not in allow) and one it denies (list_dir: deny
  // wins over allow), then reads a file it may read; its parents still delegate (task is allowed).
  'tool-policy': { extra: {}, outcome: 'success', config: { subagents: { tools: TOOL_POLICY } } },
  // The last child's final answer is exactly ANNOUNCE_SKIP: in the background, nothing is announced.
  'announce-skip': { extra: {}, outcome: 'success', leafText: SKIP },
  // The last call forks its caller (subagent_type "fork"): rows are parent × mode only, the child is always a fork.
  fork: { extra: {}, outcome: 'success' },
  // isolation: worktree in a real git repository: the last child writes a file (kept, and named in the result) or not (removed).
  'worktree-changed': { extra: { isolation: 'worktree' }, outcome: 'success', git: true, resultSuffix: `\\n${keptNote('1 file changed, 1 insertion\\(\\+\\)')}` },
  'worktree-unchanged': { extra: { isolation: 'worktree' }, outcome: 'success', git: true },
}

export function powerCases(features: Feature[] = Object.keys(FEATURES) as Feature[]): PowerCase[] {
  const rows: Omit<PowerCase, 'id' | 'name'>[] = []
  for (const feature of features) {
    const f = FEATURES[feature]
    for (const parent of PARENTS) {
      for (const child of feature === 'fork' ? (['fork'] as const) : KINDS) {
        // A fork always runs in the background.
        for (const mode of feature === 'fork' ? (['background'] as const) : MODES) {
          rows.push({
            feature,
            chain: parent === 'root' ? [child] : [parent, child],
            mode,
            outcome: f.outcome,
            extra: f.extra,
            ...(f.leafText ? { leafText: f.leafText } : {}),
            ...(f.resultSuffix ? { resultSuffix: f.resultSuffix } : {}),
            ...(f.incomplete ? { incomplete: f.incomplete } : {}),
          })
        }
      }
    }
  }
  return rows.map((r, i) => ({ ...r, id: `p${String(i).padStart(3, '0')}`, name: `${r.feature}: root → ${r.chain.join(' → ')} (${r.mode})` }))
}

/**
 * The restart rows of worktree isolation: the host is killed while every last child runs in its worktree; the new
 * host keeps each worktree and says where it is in what the parent reads.
 */
export function worktreeRestartCases(): PowerCase[] {
  const rows: PowerCase[] = []
  for (const parent of PARENTS) {
    for (const child of KINDS) {
      for (const mode of MODES) {
        const id = `w${String(rows.length).padStart(3, '0')}`
        const chain = parent === 'root' ? [child] : [parent, child]
        rows.push({
          id,
          name: `worktree restart: root → ${chain.join(' → ')} (${mode})`,
          feature: 'worktree-unchanged',
          chain,
          mode,
          outcome: 'restart',
          extra: { isolation: 'worktree' },
          resultSuffix: `\\.\\n${keptNote('not inspected \\(interrupted by host restart\\)')}\\nChanges it left uncommitted are only in its worktree, not on the branch: tell the user \\(its card shows the diff\\)\\.`,
        })
      }
    }
  }
  return rows
}

/** The script replies of a power row: the matrix's, with the last child's own where the feature changes them. */
export function powerReplies(c: PowerCase): Reply[] {
  if (c.feature === 'max_turns') {
    // Step 1 uses a tool; the cap (1) makes step 2 the forced final answer, whose prompt ends with the loop's notice.
    const at = tok(c, c.chain.length)
    return caseRepliesWith(c, [
      { match: at, step: 1, repeat: true, tools: [{ name: 'list_dir', input: {} }] },
      { match: at, step: 2, repeat: true, tools: [{ name: 'list_dir', input: {} }] },
    ])
  }
  const at = tok(c, c.chain.length)
  if (c.feature === 'tool-policy') {
    return caseRepliesWith(c, [
      { match: at, step: 1, repeat: true, tools: [{ name: 'write_file', input: { path: `w-${c.id}.txt`, content: 'x' } }, { name: 'list_dir', input: {} }, { name: 'read_file', input: { path: 'seed.txt' } }] },
      { match: at, step: 2, repeat: true, text: `${c.id} level ${c.chain.length} done` },
    ])
  }
  if (c.feature === 'announce-skip') return caseRepliesWith(c, [{ match: at, repeat: true, text: SKIP }])
  if (c.feature === 'worktree-changed') {
    return caseRepliesWith(c, [
      { match: at, step: 1, repeat: true, tools: [{ name: 'write_file', input: { path: `wt-${c.id}.txt`, content: `${c.id}\n` } }] },
      { match: at, step: 2, repeat: true, text: `${c.id} level ${c.chain.length} done` },
    ])
  }
  return caseReplies(c)
}

/** Shared by every max_turns row: the forced final step's prompt carries no case token, only the notice. */
export const TURN_LIMIT_REPLY: Reply = { match: 'You have used all the tool steps', repeat: true, text: TURN_LIMIT_TEXT }
