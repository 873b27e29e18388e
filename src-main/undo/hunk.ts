import { applyPatch, reversePatch, type StructuredPatch } from 'diff'
import type { Hunk, RestoreConflict } from '../../src-shared'
import type { Checkpoints, Entry } from '../checkpoints'
import type { PathPlan } from './plan'

/**
 * Taking back one hunk of a turn's change to a text file: the hunk, reversed, is applied to the file as it is now —
 * so later changes to other lines of the file stay — and refused when the lines it covers (or their context) are no
 * longer as the turn left them.
 */
export async function planHunk(store: Checkpoints, o: { path: string; hunk: Hunk; current: Entry | undefined }): Promise<{ plan?: PathPlan; conflict?: RestoreConflict }> {
  if (!o.current) return { conflict: { path: o.path, reason: 'deleted since', detail: `${o.path} no longer exists; there is no line to take back` } }
  const text = (await store.readEntry(o.current)).toString('utf8')
  const patch: StructuredPatch = {
    oldFileName: o.path,
    newFileName: o.path,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [
      {
        oldStart: o.hunk.oldStart,
        oldLines: o.hunk.oldLines,
        newStart: o.hunk.newStart,
        newLines: o.hunk.newLines,
        lines: o.hunk.lines.flatMap((l) => [`${l.kind === 'add' ? '+' : l.kind === 'delete' ? '-' : ' '}${l.text}`, ...(l.noNewlineAtEnd ? ['\\ No newline at end of file'] : [])]),
      },
    ],
  }
  // Lines may have moved (a later change above this hunk): the context must still match, nowhere a guess beyond it.
  const result = applyPatch(text, reversePatch(patch), { fuzzFactor: 0 })
  if (result === false) {
    return { conflict: { path: o.path, reason: 'changed since', detail: `the lines of this change in ${o.path} (${o.hunk.header}) were changed since; take it back by hand or revert the whole file` } }
  }
  const target = await store.writeEntry(Buffer.from(result, 'utf8'), o.current.mode)
  return { plan: { path: o.path, expected: o.current, target } }
}
