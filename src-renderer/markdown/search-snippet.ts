import { markdownToPlainText } from './plain-text'

/** The host marks each matched word of a snippet with these (see src-main/store/search.ts). */
const MARK_START = '\u0002'
const MARK_END = '\u0003'
/**
 * What the markers become while the Markdown is parsed: private-use characters, which Markdown reads like letters
 * (control characters may not stand in a link address, so a match there broke the link into raw syntax).
 */
const PARSE_START = '\uE002'
const PARSE_END = '\uE003'

export type SnippetSegment = { text: string; mark: boolean }

/**
 * A hit's snippet as a person reads it: the Markdown it was cut from read as plain text (issue 28: snippets showed
 * `**` and backticks), split into plain and matched runs. A marker left without its pair is dropped.
 */
export function snippetSegments(snippet: string): SnippetSegment[] {
  const text = markdownToPlainText(snippet.replaceAll(MARK_START, PARSE_START).replaceAll(MARK_END, PARSE_END), { keepUrlWith: PARSE_START })
    .replaceAll(PARSE_START, MARK_START)
    .replaceAll(PARSE_END, MARK_END)
  const out: SnippetSegment[] = []
  const push = (t: string, mark: boolean) => {
    if (!t) return
    const last = out.at(-1)
    if (last && last.mark === mark) last.text += t
    else out.push({ text: t, mark })
  }
  let rest = text
  while (rest) {
    const start = rest.indexOf(MARK_START)
    const end = start < 0 ? -1 : rest.indexOf(MARK_END, start + 1)
    if (start < 0 || end < 0) {
      push(strip(rest), false)
      break
    }
    push(strip(rest.slice(0, start)), false)
    push(strip(rest.slice(start + 1, end)), true)
    rest = rest.slice(end + 1)
  }
  return out
}

const strip = (s: string) => s.replaceAll(MARK_START, '').replaceAll(MARK_END, '')

/** The distinct words a snippet marks: what the opened message highlights. */
export function markedTerms(snippet: string): string[] {
  const terms = new Set<string>()
  for (const s of snippetSegments(snippet)) if (s.mark && s.text.trim()) terms.add(s.text.trim())
  return [...terms]
}
