import { splitFrontmatter } from './frontmatter-split'
import { parseYamlText, type KeyLines, type YamlSyntaxError } from './yaml-text'

/** A problem the reader recovered from: the line, the field, and the fix. */
export interface FrontmatterWarning {
  line: number
  field: string
  reason: string
}

export type FrontmatterYaml =
  | { ok: true; value: unknown; keyLines: KeyLines; warnings: FrontmatterWarning[] }
  | { ok: false; errors: YamlSyntaxError[] }

// A top-level `key: value` line as people write them: a name without spaces, a colon, then the rest of the line.
const KEY_LINE = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*))?$/

/**
 * The YAML frontmatter of an agent, skill or command file, read leniently (issue 27). Strict YAML first; when that
 * fails, the file is read as the flat list of top-level `key: value` lines its author evidently meant — the common
 * case being an unquoted value that contains `: ` (`description: Triggers on: 'analyze A/B test', …`), which YAML
 * takes for a nested mapping and rejects. Each top-level entry is parsed on its own; one that still fails and is a
 * single line is taken as the plain text after its colon, with a warning naming the line and the fix (quote it).
 * Only a file with something that is no top-level entry at all (text at the left margin without a colon, a broken
 * nested block) fails, with the strict parser's error. Claude Code drops such files silently; we load them and say so.
 * `lineOffset`: lines of the file above the YAML (1 for frontmatter after its opening `---`).
 */
export function parseFrontmatterYaml(yaml: string, lineOffset = 1): FrontmatterYaml {
  const strict = parseYamlText(yaml, { lineOffset })
  if (strict.ok) return { ...withKeyLines(strict), warnings: [] }
  const entries = topLevelEntries(yaml)
  if (!entries) return strict
  const value: Record<string, unknown> = {}
  const keyLines: KeyLines = {}
  const warnings: FrontmatterWarning[] = []
  for (const e of entries) {
    if (e.key in value) return strict
    const line = lineOffset + e.start + 1
    const alone = parseYamlText(e.text, { lineOffset: lineOffset + e.start })
    if (alone.ok && alone.value && typeof alone.value === 'object' && !Array.isArray(alone.value) && e.key in alone.value) {
      value[e.key] = (alone.value as Record<string, unknown>)[e.key]
      for (const [k, l] of Object.entries(alone.keyLines)) keyLines[k] = l
      continue
    }
    // Only what is evidently text is read as meant: one line whose value holds ": " (or starts with a character YAML
    // reserves, `@` or a backquote). A broken nested block, an unclosed [ or {, an alias: those fail as they are.
    if (e.lines > 1 || e.rest === undefined || !looksLikeText(e.rest)) return strict
    value[e.key] = plainText(e.rest)
    keyLines[e.key] = line
    warnings.push({ line, field: e.key, reason: `the value is not valid YAML (it contains ": " or another character YAML reads as syntax); it was read as plain text. Quote it: ${e.key}: "${quoteHint(e.rest)}"` })
  }
  return { ok: true, value, keyLines, warnings }
}

/** The strict result as this module returns it: key lines read now (they are a getter in parseYamlText). */
function withKeyLines(r: { value: unknown; keyLines: KeyLines }): { ok: true; value: unknown; keyLines: KeyLines } {
  return { ok: true, value: r.value, keyLines: r.keyLines }
}

interface Entry {
  key: string
  /** the value on the key's own line (undefined when the value is a block below it) */
  rest: string | undefined
  /** 0-based line of the key in the YAML */
  start: number
  /** how many lines belong to it (continuation lines, indented or blank) */
  lines: number
  text: string
}

/** The YAML cut into its top-level entries, or undefined when some line belongs to none (truly broken). */
function topLevelEntries(yaml: string): Entry[] | undefined {
  const lines = yaml.split('\n')
  const entries: Entry[] = []
  let current: { key: string; rest: string | undefined; start: number; body: string[] } | undefined
  const close = () => {
    if (!current) return
    // Trailing blank or comment lines are not part of the value.
    let n = current.body.length
    while (n > 1 && /^\s*(#.*)?$/.test(current.body[n - 1])) n--
    entries.push({ key: current.key, rest: current.rest, start: current.start, lines: n, text: current.body.slice(0, n).join('\n') })
    current = undefined
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (/^\s*(#.*)?$/.test(line)) {
      current?.body.push(line)
      continue
    }
    if (/^[ \t]/.test(line) || /^-/.test(line)) {
      if (!current) return undefined
      current.body.push(line)
      continue
    }
    const m = KEY_LINE.exec(line)
    if (!m) return undefined
    close()
    const rest = m[2]?.trim()
    current = { key: m[1], rest: rest === '' ? undefined : rest, start: i, body: [line] }
  }
  close()
  return entries
}

function looksLikeText(rest: string): boolean {
  // A value opening a list or mapping ([ or {) was meant as one: left to fail, not turned into text.
  return !/^[[{]/.test(rest) && (/:\s/.test(rest) || /^[@`]/.test(rest))
}

/** What the author meant by an unparsable one-line value: the text, without a pair of quotes around all of it. */
function plainText(rest: string): string {
  const t = rest.trim()
  const q = t[0]
  if ((q === '"' || q === "'") && t.endsWith(q) && t.length >= 2 && !t.slice(1, -1).includes(q)) return t.slice(1, -1)
  return t
}

function quoteHint(rest: string): string {
  const text = plainText(rest).replace(/\\/g, '\\\\').replace(/"/g, '\\"')
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

export type Frontmatter =
  | { ok: true; value: unknown; keyLines: KeyLines; warnings: FrontmatterWarning[]; body: string; closingDashes: number; closingLine: number }
  | { ok: false; line: number; reason: string }

/**
 * A Markdown file with YAML frontmatter (an agent, a skill's SKILL.md, a command): the frontmatter read leniently
 * (parseFrontmatterYaml) and the body below it. The first problem comes back with its line in the file.
 */
export function readFrontmatter(text: string): Frontmatter {
  const split = splitFrontmatter(text)
  if (!split.ok) return split
  const yaml = parseFrontmatterYaml(split.yaml, 1)
  if (!yaml.ok) return { ok: false, line: yaml.errors[0].line, reason: yaml.errors[0].reason }
  const warnings = [...yaml.warnings]
  if (split.closingDashes > 3) warnings.push({ field: 'frontmatter', line: split.closingLine, reason: `closed by a line of ${split.closingDashes} dashes; use exactly "---"` })
  return { ok: true, value: yaml.value, keyLines: yaml.keyLines, warnings, body: split.body, closingDashes: split.closingDashes, closingLine: split.closingLine }
}
