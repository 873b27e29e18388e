/**
 * Split a bash command line into the simple commands it would run, so every one of them is
 * checked against the rules (`ls && rm -rf x` must not pass as "ls").
 *
 * Splits on `&&`, `||`, `;`, `|`, `|&`, `&` and newlines outside quotes; recurses into `( … )`
 * subshells, `$( … )`, `<( … )`/`>( … )` and backticks (also inside double quotes, where they still
 * run). Redirections such as `2>&1`, `&>` and `>|` do not split. Leading shell keywords (`if`,
 * `then`, `do`, `!`, `{`, …) are stripped so `if rm x; then …` is checked as `rm x`; lone closers
 * (`fi`, `done`, `}`) are dropped. A command with leading env assignments is returned in BOTH forms
 * (`FOO=1 rm x` and `rm x`), because stripping alone would let `LD_PRELOAD=… ls` pass as `ls`.
 *
 * This is a guard, not a shell: it errs toward more sub-commands (e.g. `$((1+2))` yields `1+2`),
 * which can only make a decision stricter. Results are trimmed, non-empty and de-duplicated.
 */
export function splitBashCommand(line: string): string[] {
  const out: string[] = []
  scan(line, out)
  return [...new Set(out)]
}

const LEADING_KEYWORDS = new Set(['{', '!', 'if', 'then', 'do', 'else', 'elif', 'while', 'until', 'time'])
const LONE_CLOSERS = new Set(['}', 'fi', 'done', 'esac', 'then', 'do', 'else'])

function scan(s: string, out: string[]): void {
  let cur = ''
  let i = 0
  const flush = (): void => {
    pushCommand(cur, out)
    cur = ''
  }
  while (i < s.length) {
    const c = s[i]
    const next = s[i + 1]
    if (c === '\\') {
      // A backslash-newline is a line continuation, not a separator.
      cur += next === '\n' ? ' ' : s.slice(i, i + 2)
      i += 2
      continue
    }
    if (c === "'") {
      const end = s.indexOf("'", i + 1)
      const stop = end === -1 ? s.length : end + 1
      cur += s.slice(i, stop)
      i = stop
      continue
    }
    if (c === '"') {
      const stop = scanDoubleQuoted(s, i + 1, out)
      cur += s.slice(i, stop)
      i = stop
      continue
    }
    if ((c === '$' || c === '<' || c === '>') && next === '(') {
      const close = findClosingParen(s, i + 2)
      scan(s.slice(i + 2, close), out)
      cur += s.slice(i, close + 1)
      i = close + 1
      continue
    }
    if (c === '`') {
      const close = findBacktick(s, i + 1)
      scan(s.slice(i + 1, close), out)
      cur += s.slice(i, close + 1)
      i = close + 1
      continue
    }
    if (c === '(' && isCommandStart(cur)) {
      // A subshell group: its commands are checked individually; the parens themselves run nothing.
      const close = findClosingParen(s, i + 1)
      scan(s.slice(i + 1, close), out)
      i = close + 1
      continue
    }
    if (c === '#' && (cur === '' || /\s$/.test(cur))) {
      const nl = s.indexOf('\n', i)
      i = nl === -1 ? s.length : nl
      continue
    }
    if (c === '\n' || c === ';') {
      flush()
      i++
      continue
    }
    if (c === '&') {
      if (next === '&') {
        flush()
        i += 2
      } else if (next === '>' || /[<>]$/.test(cur)) {
        cur += c // `&>file`, `2>&1`, `<&3` are redirections
        i++
      } else {
        flush() // background `&` still runs the next command
        i++
      }
      continue
    }
    if (c === '|') {
      if (cur.endsWith('>')) {
        cur += c // `>|` noclobber redirection
        i++
        continue
      }
      flush()
      i += next === '|' || next === '&' ? 2 : 1
      continue
    }
    cur += c
    i++
  }
  flush()
}

/** Only leading keywords before the cursor means a `(` opens a subshell rather than being text. */
function isCommandStart(cur: string): boolean {
  const words = cur.trim().split(/\s+/).filter(Boolean)
  return words.every((w) => LEADING_KEYWORDS.has(w))
}

/** Returns the index just past the closing quote; command substitutions inside are scanned. */
function scanDoubleQuoted(s: string, from: number, out: string[]): number {
  let i = from
  while (i < s.length) {
    const c = s[i]
    if (c === '\\') {
      i += 2
      continue
    }
    if (c === '"') return i + 1
    if (c === '$' && s[i + 1] === '(') {
      const close = findClosingParen(s, i + 2)
      scan(s.slice(i + 2, close), out)
      i = close + 1
      continue
    }
    if (c === '`') {
      const close = findBacktick(s, i + 1)
      scan(s.slice(i + 1, close), out)
      i = close + 1
      continue
    }
    i++
  }
  return s.length
}

/** Index of the `)` closing a group opened just before `from` (or s.length when unclosed). */
function findClosingParen(s: string, from: number): number {
  let depth = 1
  let i = from
  while (i < s.length) {
    const c = s[i]
    if (c === '\\') {
      i += 2
      continue
    }
    if (c === "'") {
      const end = s.indexOf("'", i + 1)
      i = end === -1 ? s.length : end + 1
      continue
    }
    if (c === '"') {
      i = skipDoubleQuoted(s, i + 1)
      continue
    }
    if (c === '`') {
      i = findBacktick(s, i + 1) + 1
      continue
    }
    if (c === '(') depth++
    if (c === ')' && --depth === 0) return i
    i++
  }
  return s.length
}

function skipDoubleQuoted(s: string, from: number): number {
  let i = from
  while (i < s.length) {
    if (s[i] === '\\') i += 2
    else if (s[i] === '"') return i + 1
    else if (s[i] === '$' && s[i + 1] === '(') i = findClosingParen(s, i + 2) + 1
    else i++
  }
  return s.length
}

function findBacktick(s: string, from: number): number {
  let i = from
  while (i < s.length) {
    if (s[i] === '\\') i += 2
    else if (s[i] === '`') return i
    else i++
  }
  return s.length
}

function pushCommand(raw: string, out: string[]): void {
  let words = raw.trim()
  // Strip leading keywords one word at a time (`if ! rm x` → `rm x`).
  for (;;) {
    const m = /^(\S+)(\s+|$)/.exec(words)
    if (!m || !LEADING_KEYWORDS.has(m[1])) break
    words = words.slice(m[0].length)
  }
  if (words === '' || LONE_CLOSERS.has(words)) return
  out.push(words)
  const stripped = stripEnvAssignments(words)
  if (stripped !== words && stripped !== '') out.push(stripped)
}

/** `FOO=1 BAR="a b" cmd x` → `cmd x`; values may be quoted. */
export function stripEnvAssignments(cmd: string): string {
  let rest = cmd
  for (;;) {
    const m = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(rest)
    if (!m) return rest
    const end = wordEnd(rest, m[0].length)
    const after = rest.slice(end)
    if (!/^\s/.test(after)) return after === '' ? '' : rest
    rest = after.trimStart()
  }
}

/** Index where the shell word starting at `from` ends (first unquoted whitespace). */
function wordEnd(s: string, from: number): number {
  let i = from
  while (i < s.length && !/\s/.test(s[i])) {
    if (s[i] === '\\') i += 2
    else if (s[i] === "'") {
      const end = s.indexOf("'", i + 1)
      i = end === -1 ? s.length : end + 1
    } else if (s[i] === '"') i = skipDoubleQuoted(s, i + 1)
    else i++
  }
  return Math.min(i, s.length)
}
