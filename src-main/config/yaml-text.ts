import { parseDocument } from 'yaml'

export type YamlResult = { ok: true; value: unknown } | { ok: false; errors: YamlSyntaxError[] }

export interface YamlSyntaxError {
  line: number
  col: number
  /** e.g. `YAML syntax error at line 3:5: Map keys must be unique` */
  reason: string
}

/**
 * Parses YAML text, reporting syntax errors with positions in the *file*.
 * `lineOffset` shifts line numbers for text cut out of a larger file (agent frontmatter
 * starts on line 2), so the number points where the user has to look.
 */
export function parseYamlText(text: string, lineOffset = 0): YamlResult {
  const doc = parseDocument(text)
  if (doc.errors.length === 0) return { ok: true, value: doc.toJS() }
  const errors = doc.errors.map((e) => {
    const pos = e.linePos?.[0] ?? { line: 1, col: 1 }
    const line = pos.line + lineOffset
    // yaml appends " at line L, column C:" plus a code excerpt; keep only the sentence.
    const message = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
    return { line, col: pos.col, reason: `YAML syntax error at line ${line}:${pos.col}: ${message}` }
  })
  return { ok: false, errors }
}
