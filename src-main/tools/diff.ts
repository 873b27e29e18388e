/** A small line-based unified diff, enough for approval dialogs and edit results. */

type Op = { kind: ' ' | '-' | '+'; line: string }

/** Above this many cells the LCS table is too costly; the changed middle is shown as replaced. */
const MAX_LCS_CELLS = 4_000_000

function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

function diffMiddle(a: string[], b: string[]): Op[] {
  const n = a.length
  const m = b.length
  if (n * m > MAX_LCS_CELLS) {
    return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))]
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], flattened row-major.
  const w = m + 1
  const lcs = new Uint32Array((n + 1) * w)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1])
    }
  }
  const ops: Op[] = []
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] })
      i++
      j++
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
      ops.push({ kind: '-', line: a[i++] })
    } else {
      ops.push({ kind: '+', line: b[j++] })
    }
  }
  while (i < n) ops.push({ kind: '-', line: a[i++] })
  while (j < m) ops.push({ kind: '+', line: b[j++] })
  return ops
}

function diffOps(a: string[], b: string[]): Op[] {
  let pre = 0
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++
  let suf = 0
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++
  const same = (lines: string[]) => lines.map((line) => ({ kind: ' ' as const, line }))
  return [
    ...same(a.slice(0, pre)),
    ...diffMiddle(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf)),
    ...same(a.slice(a.length - suf)),
  ]
}

/**
 * Unified diff of two texts with `context` lines around each change; '' when equal.
 * `path` names both sides (`--- a/path`, `+++ b/path`).
 */
export function unifiedDiff(oldText: string, newText: string, path: string, context = 3): string {
  if (oldText === newText) return ''
  const ops = diffOps(splitLines(oldText), splitLines(newText))
  const changed = ops.map((op, idx) => (op.kind === ' ' ? -1 : idx)).filter((idx) => idx >= 0)
  if (changed.length === 0) {
    // Only a trailing newline differs; splitLines hides it, so say it in words.
    return `--- a/${path}\n+++ b/${path}\n(only the newline at end of file changed)`
  }

  // Group changes whose context windows touch into hunks.
  const ranges: Array<[number, number]> = []
  for (const idx of changed) {
    const start = Math.max(0, idx - context)
    const end = Math.min(ops.length - 1, idx + context)
    const last = ranges[ranges.length - 1]
    if (last && start <= last[1] + 1) last[1] = end
    else ranges.push([start, end])
  }

  // Line numbers before each op, to label hunks.
  const oldNo: number[] = []
  const newNo: number[] = []
  let o = 1
  let n = 1
  for (const op of ops) {
    oldNo.push(o)
    newNo.push(n)
    if (op.kind !== '+') o++
    if (op.kind !== '-') n++
  }

  const out = [`--- a/${path}`, `+++ b/${path}`]
  for (const [start, end] of ranges) {
    const slice = ops.slice(start, end + 1)
    const oldLen = slice.filter((op) => op.kind !== '+').length
    const newLen = slice.filter((op) => op.kind !== '-').length
    const oldStart = oldLen === 0 ? oldNo[start] - 1 : oldNo[start]
    const newStart = newLen === 0 ? newNo[start] - 1 : newNo[start]
    out.push(`@@ -${oldStart},${oldLen} +${newStart},${newLen} @@`)
    for (const op of slice) out.push(`${op.kind}${op.line}`)
  }
  return out.join('\n')
}
