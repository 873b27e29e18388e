/**
 * A small Markdown subset, parsed to plain data (never HTML strings), so model output cannot inject markup.
 * Tolerates half-written input: an unclosed code fence while streaming is an open code block.
 */

export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'h'; level: number; text: string }
  | { kind: 'code'; lang: string; code: string; open: boolean }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'hr' }

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/
const ORDERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/
const HR = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/
const QUOTE = /^\s{0,3}>\s?(.*)$/

export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n')
  const blocks: Block[] = []
  let para: string[] = []
  const endPara = (): void => {
    if (para.length) blocks.push({ kind: 'p', text: para.join('\n') })
    para = []
  }
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    const fence = FENCE.exec(line)
    if (fence) {
      endPara()
      const marker = fence[1]
      const code: string[] = []
      i++
      while (i < lines.length && !lines[i].trimStart().startsWith(marker)) code.push(lines[i++])
      const open = i >= lines.length
      blocks.push({ kind: 'code', lang: fence[2].toLowerCase(), code: code.join('\n'), open })
      i++
      continue
    }
    if (line.trim() === '') {
      endPara()
      i++
      continue
    }
    const h = HEADING.exec(line)
    if (h) {
      endPara()
      blocks.push({ kind: 'h', level: h[1].length, text: h[2] })
      i++
      continue
    }
    if (HR.test(line)) {
      endPara()
      blocks.push({ kind: 'hr' })
      i++
      continue
    }
    const q = QUOTE.exec(line)
    if (q) {
      endPara()
      const text: string[] = []
      while (i < lines.length) {
        const m = QUOTE.exec(lines[i])
        if (!m) break
        text.push(m[1])
        i++
      }
      blocks.push({ kind: 'quote', text: text.join('\n') })
      continue
    }
    const b = BULLET.exec(line)
    const o = b ? null : ORDERED.exec(line)
    if (b || o) {
      endPara()
      const ordered = o !== null
      const items: string[] = []
      const re = ordered ? ORDERED : BULLET
      while (i < lines.length) {
        const m = re.exec(lines[i])
        if (m) {
          items.push(ordered ? m[2] : m[1])
        } else if (lines[i].trim() !== '' && /^\s{2,}/.test(lines[i]) && items.length) {
          // an indented continuation line belongs to the item above
          items[items.length - 1] += '\n' + lines[i].trim()
        } else break
        i++
      }
      blocks.push({ kind: 'list', ordered, start: o ? Number(o[1]) : 1, items })
      continue
    }
    para.push(line)
    i++
  }
  endPara()
  return blocks
}

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'br' }

const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|\*([^*\s][^*]*?)\*|(?<![\w])_([^_\s][^_]*?)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])|\n/g

/** Only web and mail links become links; anything else (javascript:, file:, relative) stays text. */
export function safeHref(href: string): string | null {
  return /^(https?:\/\/|mailto:)/i.test(href) ? href : null
}

export function parseInline(src: string): Inline[] {
  const out: Inline[] = []
  let last = 0
  // A fresh regex per call: the nested calls below (bold, links) must not move the caller's lastIndex.
  const re = new RegExp(INLINE.source, INLINE.flags)
  for (let m = re.exec(src); m; m = re.exec(src)) {
    if (m.index > last) out.push({ kind: 'text', text: src.slice(last, m.index) })
    last = m.index + m[0].length
    if (m[0] === '\n') out.push({ kind: 'br' })
    else if (m[2] !== undefined) out.push({ kind: 'code', text: m[2].replace(/^ (.*) $/, '$1') })
    else if (m[3] !== undefined || m[4] !== undefined) out.push({ kind: 'strong', children: parseInline(m[3] ?? m[4]) })
    else if (m[5] !== undefined || m[6] !== undefined) out.push({ kind: 'em', children: parseInline(m[5] ?? m[6]) })
    else if (m[7] !== undefined) {
      const href = safeHref(m[8])
      const children = parseInline(m[7])
      out.push(href ? { kind: 'link', href, children } : { kind: 'text', text: m[0] })
    } else if (m[9] !== undefined) out.push({ kind: 'link', href: m[9], children: [{ kind: 'text', text: m[9] }] })
  }
  if (last < src.length) out.push({ kind: 'text', text: src.slice(last) })
  return out
}
