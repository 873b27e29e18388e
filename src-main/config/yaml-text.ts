import { isAlias, isMap, isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml'

export type YamlResult = { ok: true; value: unknown; keyLines: KeyLines } | { ok: false; errors: YamlSyntaxError[] }

/** File line of each mapping key at the top three levels: `description` → 3, `permission.read_file.*.env` → 7. */
export type KeyLines = Record<string, number>

export interface YamlSyntaxError {
  line: number
  col: number
  /** e.g. `YAML syntax error at line 3:5: Map keys must be unique` */
  reason: string
}

export interface YamlLimits {
  /** Lines before the text in its file: agent frontmatter starts on the file's second line. */
  lineOffset?: number
  /** Longer text is refused before parsing (default 1 MiB). */
  maxChars?: number
}

/**
 * Alias expansions allowed while converting to plain values. yaml's own default is 100; real config, agent and
 * script files use a handful at most, and a low limit stops an alias bomb (nested aliases expanding
 * exponentially) before it costs memory or time.
 */
export const MAX_ALIAS_COUNT = 50
export const MAX_YAML_CHARS = 1024 * 1024
const MAX_REPORTED = 5

/**
 * The one YAML parser for user-written files (config.yaml, agent frontmatter, script files): bounded and never
 * throwing. Problems come back with positions in the *file* (shifted by `lineOffset` for text cut out of a
 * larger file) and the usual fix, so the message points where the person has to look and says what to do.
 */
export function parseYamlText(text: string, limits: YamlLimits = {}): YamlResult {
  const offset = limits.lineOffset ?? 0
  const max = limits.maxChars ?? MAX_YAML_CHARS
  if (text.length > max) {
    return fail(offset + 1, 1, `the YAML is ${formatSize(text.length)}, more than the ${formatSize(max)} allowed; shorten the file`)
  }
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true })
  if (doc.errors.length > 0) {
    // One mistake often produces several errors on its line; the first says it, the rest are fallout.
    const lines = new Set<number>()
    const first = doc.errors.filter((e) => {
      const line = e.linePos?.[0].line ?? 1
      if (lines.has(line)) return false
      lines.add(line)
      return true
    })
    const errors = first.slice(0, MAX_REPORTED).map((e) => {
      const pos = e.linePos?.[0] ?? { line: 1, col: 1 }
      const line = pos.line + offset
      // yaml appends " at line L, column C:" plus a code excerpt; keep only the sentence.
      const message = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
      return syntaxError(line, pos.col, `${rephrase(message)}${fixFor(e.code, message)}`)
    })
    return { ok: false, errors }
  }
  let value: unknown
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (err) {
    // yaml throws a ReferenceError for too many alias expansions ("resource exhaustion"); name where they are.
    if (!(err instanceof ReferenceError || err instanceof RangeError)) throw err
    const pos = lineCounter.linePos(firstAliasOffset(doc))
    return fail(
      pos.line + offset,
      pos.col,
      `aliases (*name) expand to more than ${MAX_ALIAS_COUNT} copies, which looks like an alias bomb; write the values out instead of repeating aliases of aliases`,
    )
  }
  return { ok: true, value, keyLines: keyLinesOf(doc, lineCounter, offset) }
}

/** A file refused for its size or its aliases (valid syntax, but not parsed further). */
function fail(line: number, col: number, message: string): YamlResult {
  return { ok: false, errors: [{ line, col, reason: `YAML refused at line ${line}:${col}: ${message}` }] }
}

function syntaxError(line: number, col: number, message: string): YamlSyntaxError {
  return { line, col, reason: `YAML syntax error at line ${line}:${col}: ${message}` }
}

function rephrase(message: string): string {
  // The parser hit its own recursion limit: say what that means for the file.
  if (/call stack/i.test(message)) return 'the values are nested too deeply'
  return message
}

/** The usual fix for the mistakes people make in hand-written frontmatter and config. */
function fixFor(code: string, message: string): string {
  if (code === 'BLOCK_AS_IMPLICIT_KEY' || /nested mappings are not allowed in compact mappings/i.test(message)) {
    return '; quote a value that contains ": " (e.g. description: "Use it when: …")'
  }
  if (code === 'MULTILINE_IMPLICIT_KEY') return '; a value that continues on the next line must be quoted or indented under its key'
  if (code === 'DUPLICATE_KEY') return '; remove or rename one of the two keys'
  if (code === 'TAB_AS_INDENT') return '; indent with spaces, not tabs'
  if (code === 'BAD_INDENT') return '; check the indentation of this line against the lines above'
  if (code === 'BAD_SCALAR_START') return '; quote a value that starts with a special character (such as @, `, | or >)'
  return ''
}

function firstAliasOffset(doc: Document): number {
  let offset = 0
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0] ?? 0
      return visit.BREAK
    },
  })
  return offset
}

function keyLinesOf(doc: Document, lc: LineCounter, offset: number): KeyLines {
  const out: KeyLines = {}
  const walk = (node: unknown, prefix: string, depth: number) => {
    if (!isMap(node)) return
    for (const pair of node.items) {
      if (!isScalar(pair.key) || isAlias(pair.key)) continue
      const name = String(pair.key.value)
      const at = pair.key.range?.[0]
      const key = prefix ? `${prefix}.${name}` : name
      if (at !== undefined) out[key] = lc.linePos(at).line + offset
      if (depth < 3) walk(pair.value, key, depth + 1)
    }
  }
  walk(doc.contents, '', 1)
  return out
}

function formatSize(chars: number): string {
  return `${Math.ceil(chars / 1024).toLocaleString('en-US')} KiB`
}
