export type SplitResult =
  | { ok: true; yaml: string; body: string; closingDashes: number; closingLine: number }
  | { ok: false; reason: string; line: number }

// Claude Code's parser takes the first line starting with `---` after the opening one, so a frontmatter closed
// by a long dash line (`------…`) loads there; accept it too, with a warning.
const DASHES = /^(-{3,})[ \t]*\r?$/

/**
 * Splits an agent file into its YAML frontmatter (between `---` lines) and the Markdown prompt below it.
 * Tolerates a BOM, CRLF line ends and a missing final newline. Walks the text line by line only up to the
 * closing line: the prompt below (most of the file) is sliced off whole, not split into lines.
 */
export function splitFrontmatter(text: string): SplitResult {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  let end = lineEnd(src, 0)
  if (src.slice(0, end).trimEnd() !== '---') {
    return {
      ok: false,
      line: 1,
      reason: 'missing YAML frontmatter: start the file with a "---" line, then fields such as "description: …", then a closing "---" line',
    }
  }
  const yamlStart = Math.min(end + 1, src.length)
  let line = 1
  for (let start = yamlStart; start <= src.length; start = end + 1) {
    line++
    end = lineEnd(src, start)
    // Only a line that starts with a dash can close it; checking the first character first keeps this cheap.
    const m = src.charCodeAt(start) === 0x2d ? DASHES.exec(src.slice(start, end)) : null
    if (m) {
      const yaml = src.slice(yamlStart, Math.max(yamlStart, start - 1)).replace(/\r$/, '')
      const rest = src.slice(Math.min(end + 1, src.length))
      return {
        ok: true,
        yaml: yaml.includes('\r') ? yaml.replace(/\r\n/g, '\n') : yaml,
        body: (rest.includes('\r') ? rest.replace(/\r\n/g, '\n') : rest).trim(),
        closingDashes: m[1].length,
        closingLine: line,
      }
    }
    if (end >= src.length) break
  }
  const lines = (src.match(/\n/g)?.length ?? 0) + 1
  return { ok: false, line: lines, reason: 'the frontmatter is not closed: add a "---" line after the last field' }
}

function lineEnd(s: string, from: number): number {
  const i = s.indexOf('\n', from)
  return i < 0 ? s.length : i
}
