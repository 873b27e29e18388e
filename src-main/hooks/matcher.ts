/**
 * Claude Code's matcher rules: absent, '' or '*' match everything; a plain name or `A|B` list (letters, digits, _ and
 * |) matches those names exactly; anything else is a JavaScript regular expression tested against the name
 * (unanchored, as Claude Code tests it: `mcp__.*` matches every MCP tool). Compiled once when the hooks are loaded.
 */
export type Matcher = (name: string) => boolean

const ALL: Matcher = () => true

export function compileMatcher(matcher: string | undefined): { ok: true; match: Matcher } | { ok: false; reason: string } {
  const m = (matcher ?? '').trim()
  if (m === '' || m === '*') return { ok: true, match: ALL }
  if (/^[A-Za-z0-9_|]+$/.test(m)) {
    const names = new Set(m.split('|').filter(Boolean))
    return { ok: true, match: (name) => names.has(name) }
  }
  try {
    const re = new RegExp(m)
    return { ok: true, match: (name) => re.test(name) }
  } catch (err) {
    return { ok: false, reason: `matcher "${m}" is not a valid regular expression (${(err as Error).message}); write a tool name, names joined by |, or a valid regex` }
  }
}
