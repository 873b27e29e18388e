import type { ChangeAuthor, RestoreConflict, RestoreStep } from '../../src-shared'
import type { Checkpoints, Entry } from '../checkpoints'
import type { TurnCheckpointRecord } from '../store'
import { authorsOf } from './attribution'

const NESTED = '160000'

/** One file one turn changed: its entry before and after the turn (null: not there), and who changed it. */
export type Touch = { turn: TurnCheckpointRecord; order: number; path: string; old: Entry | null; new: Entry | null; authors: ChangeAuthor[] }

/** What to write for one path, and what must be on disk for it to be written. */
export type PathPlan = { path: string; expected: Entry | null; target: Entry | null }

export type Plan = { plans: PathPlan[]; steps: RestoreStep[]; conflicts: RestoreConflict[]; skipped: { path: string; reason: string }[] }

/** Every file each recorded turn changed, oldest turn first (turns without both snapshots have none). */
export async function touchesOf(store: Checkpoints, turns: TurnCheckpointRecord[]): Promise<Touch[]> {
  const out: Touch[] = []
  for (const [order, turn] of turns.entries()) {
    if (!turn.beforeTree || !turn.afterTree || turn.state === 'expired') continue
    for (const e of await store.rawChanges(turn.beforeTree, turn.afterTree)) {
      out.push({
        turn,
        order,
        path: e.path,
        old: e.oldMode && e.oldBlob ? { mode: e.oldMode, blob: e.oldBlob } : null,
        new: e.newMode && e.newBlob ? { mode: e.newMode, blob: e.newBlob } : null,
        authors: authorsOf([e.path], turn.writes),
      })
    }
  }
  return out
}

/** Two entries (null: not there) record the same file. */
export const sameEntry = (a: Entry | null, b: Entry | null) => (a === null ? b === null : b !== null && a.mode === b.mode && a.blob === b.blob)

/** What writing a plan does to its path, as the plan lists it. */
export function stepOf(p: PathPlan): RestoreStep {
  return { path: p.path, action: p.target === null ? 'delete' : p.expected === null ? 'recreate' : 'restore' }
}

/**
 * Taking back the selected changes: each path goes back to its entry before the first selected touch, provided the
 * disk still holds what the last selected touch left. Refused per path (a conflict) when taking it back would lose a
 * change that is not selected — a later turn (or the person, between turns) changed the same file since.
 */
export function planBack(touches: Touch[], selected: (t: Touch) => boolean, describe: (t: Touch) => string): Plan {
  return planPaths(touches, selected, describe, 'back')
}

/** Putting undone changes forward again (redo): each path from its entry before the first touch to after the last. */
export function planForward(touches: Touch[]): Plan {
  return planPaths(touches, () => true, () => '', 'forward')
}

function planPaths(touches: Touch[], selected: (t: Touch) => boolean, describe: (t: Touch) => string, direction: 'back' | 'forward'): Plan {
  const plan: Plan = { plans: [], steps: [], conflicts: [], skipped: [] }
  const byPath = new Map<string, Touch[]>()
  for (const t of touches) byPath.set(t.path, [...(byPath.get(t.path) ?? []), t])
  for (const [p, all] of [...byPath].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const firstAt = all.findIndex(selected)
    if (firstAt < 0) continue
    const chain = all.slice(firstAt)
    const first = chain[0]
    const last = chain.at(-1)!
    if (chain.some((t) => t.old?.mode === NESTED || t.new?.mode === NESTED)) {
      plan.skipped.push({ path: p, reason: 'a nested git repository: its own git keeps its files' })
      continue
    }
    const later = chain.find((t) => !selected(t))
    if (later) {
      plan.conflicts.push({ path: p, reason: 'changed since', detail: `${p} was changed again afterwards (${describe(later)}); taking this back would lose that change` })
      continue
    }
    const gap = chain.findIndex((t, i) => i > 0 && !sameEntry(chain[i - 1].new, t.old))
    if (gap > 0) {
      plan.conflicts.push({ path: p, reason: 'changed between turns', detail: `${p} was changed between two turns by something other than the agents; taking it back would lose that change` })
      continue
    }
    const [expected, target] = direction === 'back' ? [last.new, first.old] : [first.old, last.new]
    if (sameEntry(expected, target)) continue
    const planned = { path: p, expected, target }
    plan.plans.push(planned)
    plan.steps.push(stepOf(planned))
  }
  return plan
}
