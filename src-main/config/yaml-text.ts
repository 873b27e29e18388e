import jsyaml from 'js-yaml'
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
const KEY_DEPTH = 3

/**
 * The one YAML parser for user-written files (config.yaml, agent frontmatter, script files): bounded and never
 * throwing. Problems come back with positions in the *file* (shifted by `lineOffset` for text cut out of a
 * larger file) and the usual fix, so the message points where the person has to look and says what to do.
 *
 * Two libraries, one behaviour: js-yaml (core schema) reads text about four times faster than `yaml` (hundreds
 * of agent files load at every CLI start) and reports syntax errors; `yaml` — which counts alias expansions —
 * takes over for text that shares collections through aliases (a possible alias bomb) or nests too deep for
 * js-yaml's stack. Either way the value is YAML 1.2 core: no timestamps, no merge keys.
 */
export function parseYamlText(text: string, limits: YamlLimits = {}): YamlResult {
  const offset = limits.lineOffset ?? 0
  const max = limits.maxChars ?? MAX_YAML_CHARS
  if (text.length > max) {
    return refused(offset + 1, 1, `the YAML is ${formatSize(text.length)}, more than the ${formatSize(max)} allowed; shorten the file`)
  }
  let value: unknown
  try {
    value = jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA })
  } catch (err) {
    if (err instanceof jsyaml.YAMLException) return { ok: false, errors: [fromJsYaml(err, text, offset)] }
    // Nesting too deep for the stack: `yaml` reports that with the line.
    if (err instanceof RangeError) return parseCarefully(text, offset)
    throw err
  }
  // An alias of a collection is shared, not copied: harmless here, but whoever walks the value (validation,
  // JSON) would expand it — an alias bomb. Such text goes through `yaml` and its alias limit.
  if (sharesCollections(value)) return parseCarefully(text, offset)
  // Key lines are only read to point a message at its line: found on first use (most agent files have none).
  let keyLines: KeyLines | undefined
  return {
    ok: true,
    value: value ?? null,
    get keyLines() {
      return (keyLines ??= locateKeys(text, value, offset))
    },
  }
}

/** The `yaml` library's parse: positions, error codes, and a limit on alias expansion. */
function parseCarefully(text: string, offset: number): YamlResult {
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
    return refused(
      pos.line + offset,
      pos.col,
      `aliases (*name) expand to more than ${MAX_ALIAS_COUNT} copies, which looks like an alias bomb; write the values out instead of repeating aliases of aliases`,
    )
  }
  return { ok: true, value, keyLines: keyLinesOf(doc, lineCounter, offset) }
}

/** js-yaml's error (its reason, 0-based mark) as a file position, with the usual fix. */
function fromJsYaml(err: jsyaml.YAMLException, text: string, offset: number): YamlSyntaxError {
  const line = (err.mark?.line ?? 0) + 1
  const col = (err.mark?.column ?? 0) + 1
  const said = err.reason || err.message.split('\n')[0]
  const reason = /nesting exceeded maxDepth/.test(said) ? 'the values are nested too deeply (more than 100 levels)' : said
  return syntaxError(line + offset, col, `${reason}${jsYamlFix(reason, text.split('\n')[line - 1] ?? '')}`)
}

/** The usual fix for what js-yaml reports, judged from its reason and the line it stopped on. */
function jsYamlFix(reason: string, line: string): string {
  if (/bad indentation of a mapping entry|end of the stream or a document separator is expected/.test(reason)) {
    // `description: Use it for: this` — a plain value may not contain ": ".
    if (/^\s*[^\s:#'"][^:]*:\s+[^\s'"|>].*:(\s|$)/.test(line)) return QUOTE_COLON
    if (/^\s*[^\s:#'"][^:]*:\s+[@`]/.test(line)) return '; quote a value that starts with a special character (such as @ or `)'
    return '; check the indentation of this line against the lines above'
  }
  if (/duplicated mapping key/.test(reason)) return '; remove or rename one of the two keys'
  if (/multiline key may not be an implicit key/.test(reason)) return '; a value that continues on the next line must be quoted or indented under its key'
  if (/tab characters must not be used/.test(reason)) return '; indent with spaces, not tabs'
  if (/within a flow collection/.test(reason)) return '; a { … } or [ … ] opened above is not closed'
  if (/within a (double|single) quoted scalar/.test(reason)) return '; a quoted value opened above is not closed'
  return ''
}

const QUOTE_COLON = '; quote a value that contains ": " (e.g. description: "Use it when: …")'

/** A file refused for its size or its aliases (valid syntax, but not parsed further). */
function refused(line: number, col: number, message: string): YamlResult {
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
  if (code === 'BLOCK_AS_IMPLICIT_KEY' || /nested mappings are not allowed in compact mappings/i.test(message)) return QUOTE_COLON
  if (code === 'MULTILINE_IMPLICIT_KEY') return '; a value that continues on the next line must be quoted or indented under its key'
  if (code === 'DUPLICATE_KEY') return '; remove or rename one of the two keys'
  if (code === 'TAB_AS_INDENT') return '; indent with spaces, not tabs'
  if (code === 'BAD_INDENT') return '; check the indentation of this line against the lines above'
  if (code === 'BAD_SCALAR_START') return '; quote a value that starts with a special character (such as @, `, | or >)'
  return ''
}

/** Whether one collection is reached twice (an alias of a mapping or list, or a cycle). */
function sharesCollections(root: unknown): boolean {
  const seen = new Set<object>()
  const stack: unknown[] = [root]
  while (stack.length) {
    const v = stack.pop()
    if (v === null || typeof v !== 'object') continue
    if (seen.has(v)) return true
    seen.add(v)
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push(child)
  }
  return false
}

/**
 * The lines of the keys of an already parsed block mapping, for messages (js-yaml gives values, not positions).
 * Not a parser: the keys and their order are known from the value; this only finds each one at the start of a
 * line, below and indented deeper than its parent. A key it cannot find (flow style `{a: 1}`) is left out, and
 * messages fall back to the parent's line.
 */
function locateKeys(text: string, value: unknown, offset: number): KeyLines {
  const out: KeyLines = {}
  if (!isRecord(value)) return out
  const heads = text.split('\n').map(keyHead)
  const walk = (obj: Record<string, unknown>, prefix: string, from: number, to: number, parentIndent: number, depth: number) => {
    let at = from
    // Siblings share one indentation: the first key found sets it, so a deeper line never passes for a sibling.
    let siblingIndent: number | undefined
    const found: { key: string; line: number; indent: number }[] = []
    for (const key of Object.keys(obj)) {
      for (let i = at; i < to; i++) {
        const h = heads[i]
        if (h?.key !== key || (siblingIndent === undefined ? h.indent <= parentIndent : h.indent !== siblingIndent)) continue
        siblingIndent = h.indent
        found.push({ key, line: i, indent: h.indent })
        at = i + 1
        break
      }
    }
    found.forEach((f, i) => {
      const path = prefix ? `${prefix}.${f.key}` : f.key
      out[path] = f.line + 1 + offset
      const child = obj[f.key]
      if (depth < KEY_DEPTH && isRecord(child)) walk(child, path, f.line + 1, found[i + 1]?.line ?? to, f.indent, depth + 1)
    })
  }
  walk(value, '', 0, heads.length, -1, 1)
  return out
}

// `  key:`, `"quoted key":`, `'single': value` at the start of a line.
const KEY_HEAD = /^( *)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-[\]{}][^:]*?)[ \t]*:(?:[ \t]|$)/

/** The key a line starts with, if it looks like `key:` (used only to find keys already parsed). */
function keyHead(line: string): { indent: number; key: string } | undefined {
  const m = KEY_HEAD.exec(line)
  if (!m) return undefined
  const raw = m[2]
  let key = raw
  if (raw.startsWith("'")) key = raw.slice(1, -1).replace(/''/g, "'")
  else if (raw.startsWith('"')) {
    try {
      key = JSON.parse(raw) as string
    } catch (err) {
      // A YAML escape JSON does not know (\x41): compare the text between the quotes.
      if (!(err instanceof SyntaxError)) throw err
      key = raw.slice(1, -1)
    }
  }
  return { indent: m[1].length, key }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
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
      if (depth < KEY_DEPTH) walk(pair.value, key, depth + 1)
    }
  }
  walk(doc.contents, '', 1)
  return out
}

function formatSize(chars: number): string {
  return `${Math.ceil(chars / 1024).toLocaleString('en-US')} KiB`
}
