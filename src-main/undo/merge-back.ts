import type { Checkpoints } from '../checkpoints'
import { mergeFile } from './merge-file'
import { sameEntry, type Plan, type Touch } from './plan'

const TEXT_MODES = new Set(['100644', '100755'])

/**
 * Revert keeps what happened since: a file changed again after the reverted change (by a later turn, or by the person)
 * is not refused outright — its lines of that change are taken back by a three-way merge (the file as it is now, the
 * change's after as the base, its before as theirs: git's own way of reverting a commit). Refused, as before, when
 * the later change touched the same lines, or for what cannot be merged (binary files, links, files gone or new).
 * `currentTree`: a snapshot of the workspace as it is now. `plan` is updated in place.
 */
export async function mergeBack(store: Checkpoints, plan: Plan, selected: Touch[], currentTree: string): Promise<void> {
  const mergeable = new Set(plan.conflicts.filter((c) => c.reason === 'changed since').map((c) => c.path))
  const paths = [...new Set([...plan.plans.map((p) => p.path), ...mergeable])]
  if (!paths.length) return
  const now = await store.entries(currentTree, paths)
  for (const p of paths) {
    const planned = plan.plans.find((x) => x.path === p)
    const current = now.get(p) ?? null
    if (planned && sameEntry(planned.expected, current)) continue
    const mine = selected.filter((t) => t.path === p)
    const before = mine[0]?.old ?? null
    const after = mine.at(-1)?.new ?? null
    const detail = (why: string) => ({ path: p, reason: 'changed since' as const, detail: `${p} was changed again since${why === 'deleted' ? ' (deleted)' : `, ${why}`}; take it back by hand` })
    let conflict: ReturnType<typeof detail> | undefined
    if (!current) conflict = detail('deleted')
    else if (!before || !after || ![current, before, after].every((e) => TEXT_MODES.has(e.mode))) {
      conflict = detail('and only a text file that both changes kept can be merged')
    } else {
      const merged = await mergeFile(await store.readEntry(current), await store.readEntry(after), await store.readEntry(before))
      if (merged === null) conflict = detail('on the same lines (or it is binary)')
      else {
        const target = await store.writeEntry(merged, current.mode)
        const entry = { path: p, expected: current, target }
        if (planned) Object.assign(planned, entry)
        else {
          plan.plans.push(entry)
          plan.steps.push({ path: p, action: 'restore' })
        }
        plan.conflicts = plan.conflicts.filter((c) => c.path !== p)
        continue
      }
    }
    plan.conflicts = [...plan.conflicts.filter((c) => c.path !== p), conflict]
    plan.plans = plan.plans.filter((x) => x.path !== p)
    plan.steps = plan.steps.filter((x) => x.path !== p)
  }
}
