import { memo, useMemo } from 'react'

type Line = { kind: ' ' | '-' | '+' | '@'; text: string }

/** Line diff by longest common subsequence; big inputs fall back to "all removed, all added" to stay fast. */
export function diffLines(a: string, b: string): Line[] {
  const x = a.split('\n')
  const y = b.split('\n')
  if (x.length * y.length > 250_000) return [...x.map((t) => ({ kind: '-' as const, text: t })), ...y.map((t) => ({ kind: '+' as const, text: t }))]
  const n = x.length
  const m = y.length
  const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i][j] = x[i] === y[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1])
  const out: Line[] = []
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      out.push({ kind: ' ', text: x[i] })
      i++
      j++
    } else if (dp[i + 1][j] >= dp[i][j + 1]) out.push({ kind: '-', text: x[i++] })
    else out.push({ kind: '+', text: y[j++] })
  }
  while (i < n) out.push({ kind: '-', text: x[i++] })
  while (j < m) out.push({ kind: '+', text: y[j++] })
  return out
}

function parseUnified(diff: string): Line[] {
  return diff
    .split('\n')
    .filter((l) => !l.startsWith('---') && !l.startsWith('+++'))
    .map((l) => {
      const c = l[0]
      if (c === '-' || c === '+') return { kind: c, text: l.slice(1) }
      if (c === '@') return { kind: '@' as const, text: l }
      return { kind: ' ' as const, text: l.startsWith(' ') ? l.slice(1) : l }
    })
}

type Props = { path?: string; before?: string; after?: string; unified?: string }

export const DiffView = memo(function DiffView({ path, before, after, unified }: Props) {
  const lines = useMemo(() => (unified !== undefined ? parseUnified(unified) : diffLines(before ?? '', after ?? '')), [before, after, unified])
  return (
    <div className="diff" data-testid="diff-view">
      {path && <div className="diff-path">{path}</div>}
      <pre>
        {lines.map((l, i) => (
          <div key={i} className={`diff-line d${l.kind === ' ' ? 'ctx' : l.kind === '-' ? 'del' : l.kind === '+' ? 'add' : 'hunk'}`}>
            <span className="diff-sign">{l.kind === '@' ? '' : l.kind}</span>
            {l.text}
          </div>
        ))}
      </pre>
    </div>
  )
})
