import { parsePatch, structuredPatch, type StructuredPatchHunk } from 'diff'

/**
 * The one line diff of Agentry, on jsdiff (Myers): the host's edit tools use `unifiedDiff` for the approval and
 * the tool result; the renderer draws the host's text with `diffRows`, and computes a preview with
 * `diffTexts` only while the host has not sent one. Pure JS, no Node, no DOM.
 */

/** Above this the diff gives up searching for the best alignment and shows the middle as replaced. */
const TIMEOUT_MS = 1500

export type DiffRow =
  | { kind: 'add' | 'del' | 'ctx'; text: string; oldNo: number | null; newNo: number | null }
  | { kind: 'hunk' | 'note'; text: string; oldNo: null; newNo: null }

/**
 * Unified diff of two texts with `context` lines around each change; '' when equal.
 * `path` names both sides (`--- a/path`, `+++ b/path`).
 */
export function unifiedDiff(oldText: string, newText: string, path: string, context = 3): string {
  if (oldText === newText) return ''
  const hunks = diffHunks(oldText, newText, context)
  const out = [`--- a/${path}`, `+++ b/${path}`]
  for (const h of hunks) out.push(hunkHeader(h), ...h.lines)
  return out.join('\n')
}

/** jsdiff numbers an empty side from 1; diff(1) and git write it as "before line 1" (0). */
function hunkHeader(h: StructuredPatchHunk): string {
  const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart
  const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart
  return `@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`
}

function diffHunks(oldText: string, newText: string, context: number): StructuredPatchHunk[] {
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context, timeout: TIMEOUT_MS })
  if (patch) return patch.hunks
  // Timed out (huge, unrelated texts): everything old removed, everything new added, in one hunk.
  const a = lines(oldText)
  const b = lines(newText)
  return [{ oldStart: 1, oldLines: a.length, newStart: 1, newLines: b.length, lines: [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)] }]
}

function lines(text: string): string[] {
  if (text === '') return []
  const list = text.split('\n')
  if (list[list.length - 1] === '') list.pop()
  return list
}

/** Rows with old/new line numbers for a diff computed here (an edit the host has not reported on yet). */
export function diffTexts(oldText: string, newText: string, context = 3): DiffRow[] {
  if (oldText === newText) return []
  return rowsOfHunks(diffHunks(oldText, newText, context))
}

/**
 * Rows of a unified diff text: the host's, or one a model wrote in a ```diff block. A text jsdiff cannot parse
 * (hand-written hunks whose counts do not add up, a cut-off diff) is still shown line by line, by its markers.
 */
export function diffRows(text: string): DiffRow[] {
  let patches
  try {
    patches = parsePatch(text)
  } catch {
    return rowsByMarker(text)
  }
  const hunks = patches.flatMap((p) => p.hunks)
  if (hunks.length === 0) return rowsByMarker(text)
  const rows = rowsOfHunks(hunks)
  // parsePatch drops trailing lines it does not understand (e.g. "… [diff cut]"); show them as notes.
  const all = text.replace(/\n+$/, '').split('\n')
  let k = all.length
  while (k > 0 && !/^[ +\-\\@]/.test(all[k - 1])) k--
  for (const t of all.slice(k)) rows.push({ kind: 'note', text: t, oldNo: null, newNo: null })
  return rows
}

function rowsOfHunks(hunks: StructuredPatchHunk[]): DiffRow[] {
  const rows: DiffRow[] = []
  for (const h of hunks) {
    rows.push({ kind: 'hunk', text: hunkHeader(h), oldNo: null, newNo: null })
    let o = h.oldStart
    let n = h.newStart
    for (const l of h.lines) {
      const mark = l[0]
      const body = l.slice(1)
      if (mark === '+') rows.push({ kind: 'add', text: body, oldNo: null, newNo: n++ })
      else if (mark === '-') rows.push({ kind: 'del', text: body, oldNo: o++, newNo: null })
      else if (mark === '\\') rows.push({ kind: 'note', text: l, oldNo: null, newNo: null })
      else rows.push({ kind: 'ctx', text: body, oldNo: o++, newNo: n++ })
    }
  }
  return rows
}

function rowsByMarker(text: string): DiffRow[] {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((l): DiffRow => {
      if (l.startsWith('@@')) return { kind: 'hunk', text: l, oldNo: null, newNo: null }
      if (l.startsWith('+++') || l.startsWith('---') || l.startsWith('diff ') || l.startsWith('index ')) return { kind: 'note', text: l, oldNo: null, newNo: null }
      if (l.startsWith('+')) return { kind: 'add', text: l.slice(1), oldNo: null, newNo: null }
      if (l.startsWith('-')) return { kind: 'del', text: l.slice(1), oldNo: null, newNo: null }
      return { kind: 'ctx', text: l.startsWith(' ') ? l.slice(1) : l, oldNo: null, newNo: null }
    })
}
