export type SplitResult =
  | { ok: true; yaml: string; body: string; closingDashes: number; closingLine: number }
  | { ok: false; reason: string; line: number }

const OPENING = /^---\s*$/
// Claude Code's parser takes the first line starting with `---` after the opening one, so a frontmatter closed
// by a long dash line (`------…`) loads there; accept it too, with a warning.
const CLOSING = /^(-{3,})\s*$/

/**
 * Splits an agent file into its YAML frontmatter (between `---` lines) and the Markdown prompt below it.
 * Tolerates a BOM, CRLF line ends and a missing final newline.
 */
export function splitFrontmatter(text: string): SplitResult {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  if (!OPENING.test(lines[0] ?? '')) {
    return {
      ok: false,
      line: 1,
      reason: 'missing YAML frontmatter: start the file with a "---" line, then fields such as "description: …", then a closing "---" line',
    }
  }
  for (let i = 1; i < lines.length; i++) {
    const m = CLOSING.exec(lines[i])
    if (!m) continue
    return {
      ok: true,
      yaml: lines.slice(1, i).join('\n'),
      body: lines
        .slice(i + 1)
        .join('\n')
        .trim(),
      closingDashes: m[1].length,
      closingLine: i + 1,
    }
  }
  return { ok: false, line: lines.length, reason: 'the frontmatter is not closed: add a "---" line after the last field' }
}
