/**
 * A subagent's answer reaches the model wrapped in `<task_result agent="…" task_id="…">…</task_result>` (or
 * `<task_error …>`), and models (the demo one included) quote it back, often inside a `>` quote and cut short.
 * The person should see a compact result block, not the tags: this splits a text into Markdown and such blocks.
 */

export type TextSegment =
  | { kind: 'md'; text: string }
  | { kind: 'task'; failed: boolean; agent: string; taskId: string | null; body: string; stats: string | null; incomplete: boolean }

const OPEN = /^(\s*(?:>\s?)*)<task_(result|error)\b([^>]*)>(.*)$/
const CLOSE = /<\/task_(?:result|error)>/
const QUOTE = /^\s*(?:>\s?)+/
const STATS = /^runtime \d/

function attr(attrs: string, name: string): string | null {
  return new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? null
}

export function splitTaskResults(text: string): TextSegment[] {
  if (!text.includes('<task_')) return [{ kind: 'md', text }]
  const lines = text.split('\n')
  const out: TextSegment[] = []
  let md: string[] = []
  const flush = (): void => {
    if (md.length) out.push({ kind: 'md', text: md.join('\n') })
    md = []
  }
  let i = 0
  while (i < lines.length) {
    const open = OPEN.exec(lines[i])
    if (!open) {
      md.push(lines[i++])
      continue
    }
    flush()
    const quoted = open[1].includes('>')
    const body: string[] = []
    let rest = open[4]
    let closed = false
    i++
    for (;;) {
      const close = CLOSE.exec(rest)
      if (close) {
        body.push(rest.slice(0, close.index))
        rest = rest.slice(close.index + close[0].length)
        closed = true
        break
      }
      body.push(rest)
      rest = ''
      // A quoted result ends with the quote (the model may have cut it short); a plain one at the closing tag.
      if (i >= lines.length || (quoted && !QUOTE.test(lines[i]))) break
      rest = quoted ? lines[i].replace(QUOTE, '') : lines[i]
      i++
    }
    let stats: string | null = null
    const after = rest.trim()
    if (after && STATS.test(after)) stats = after
    else if (after) md.push(after)
    if (closed && !stats && i < lines.length) {
      const next = quoted ? lines[i].replace(QUOTE, '').trim() : lines[i].trim()
      if (STATS.test(next) && (!quoted || QUOTE.test(lines[i]))) {
        stats = next
        i++
      }
    }
    out.push({
      kind: 'task',
      failed: open[2] === 'error',
      agent: attr(open[3], 'agent') ?? 'subagent',
      taskId: attr(open[3], 'task_id'),
      incomplete: attr(open[3], 'status') === 'incomplete',
      body: body.join('\n').trim(),
      stats,
    })
  }
  flush()
  return out
}
