/**
 * Glob matching for command patterns (`git push *`, `rm *`, `npm run test`). Commands are not paths: `*` must match
 * any text — slashes, dots, `..` segments and newlines included — or a deny like `rm *` would miss `rm a/../b`
 * (path globbing refuses `..` segments) or a quoted argument with a newline. So: `*` any text, `?` one character,
 * `[…]` a character class (`[!…]`/`[^…]` negated), `\` makes the next character literal, everything else is
 * literal.
 */
const cache = new Map<string, RegExp>()
const MAX_CACHED = 5_000

export function commandPatternRegExp(pattern: string): RegExp {
  const hit = cache.get(pattern)
  if (hit) return hit
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '*') {
      while (pattern[i + 1] === '*') i++
      re += '[\\s\\S]*'
    } else if (c === '?') re += '[\\s\\S]'
    else if (c === '\\' && i + 1 < pattern.length) re += escape(pattern[++i])
    else if (c === '[') {
      const close = classEnd(pattern, i)
      if (close === -1) re += '\\['
      else {
        let body = pattern.slice(i + 1, close)
        const negate = body.startsWith('!') || body.startsWith('^')
        if (negate) body = body.slice(1)
        re += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, (m) => `\\${m}`)}]`
        i = close
      }
    } else re += escape(c)
  }
  const compiled = new RegExp(`^${re}$`, 'u')
  if (cache.size >= MAX_CACHED) cache.clear()
  cache.set(pattern, compiled)
  return compiled
}

/** Index of the `]` closing a class opened at `open` (a `]` right after `[`, `[!` or `[^` is literal), or -1. */
function classEnd(pattern: string, open: number): number {
  let i = open + 1
  if (pattern[i] === '!' || pattern[i] === '^') i++
  if (pattern[i] === ']') i++
  for (; i < pattern.length; i++) if (pattern[i] === ']') return i
  return -1
}

/** With the `u` flag only syntax characters may be escaped: `\-` outside a class is an error (`rm -rf *` threw). */
function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, (m) => `\\${m}`)
}
