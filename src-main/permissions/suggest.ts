import picomatch from 'picomatch/posix'
import type { AlwaysSuggestion } from '../../src-shared'
import { analyzeShell } from './shell'
import { commandSuggestion, escapeCommandGlob } from './shell/command-suggestion'
import { normalizePathSubject } from './matcher'
import type { PermissionRequest } from './decide'


/**
 * Patterns offered for "Always allow": bash → one pattern per command the line runs, at the command's arity
 * (`git push origin main` → `git push *`, `npm run test` → `npm run test`, see shell/command-suggestion.ts), none
 * for a line that must ask anyway; path → the parent directory (`src/a/b.ts` → `src/a/**`), a root file → itself;
 * host/name/other → the subject. Deduped, in subject order.
 */
export function suggestAlways(req: PermissionRequest): AlwaysSuggestion[] {
  const out: AlwaysSuggestion[] = []
  for (const subject of req.subjects) {
    if (req.kind === 'command') out.push(...commandSuggestions(subject))
    else if (req.kind === 'path') out.push({ pattern: pathPattern(subject), risky: false })
    else out.push({ pattern: subject, risky: false })
  }
  const seen = new Set<string>()
  return out.filter((s) => s.pattern !== '' && s.pattern !== '*' && !seen.has(s.pattern) && Boolean(seen.add(s.pattern)))
}

/** Just the patterns (of the approval record's `alwaysSuggestions`). */
export function suggestAlwaysPatterns(req: PermissionRequest): string[] {
  return suggestAlways(req).map((s) => s.pattern)
}

function commandSuggestions(line: string): AlwaysSuggestion[] {
  const analysis = analyzeShell(line)
  // An "always" rule could never let such a line through: offering one would only mislead.
  if (analysis.mustAsk.length > 0) return []
  return analysis.commands.flatMap((c) => {
    const s = commandSuggestion(c)
    if (!s) return []
    if (!c.withEnv) return [s]
    // The line is also checked with its assignments (`FOO=1 npm test`), so that form needs a pattern too.
    const env = c.withEnv.slice(0, c.withEnv.length - c.text.length)
    return [{ ...s, pattern: `${escapeCommandGlob(env)}${s.pattern}` }, s]
  })
}

function pathPattern(subject: string): string {
  const p = normalizePathSubject(subject)
  const scanned = picomatch.scan(p)
  // A glob subject (from glob/grep) can only be generalised to its literal base directory.
  if (/[*?{]/.test(p) && scanned.isGlob) return scanned.base === '' ? '**' : `${escapeGlob(scanned.base)}/**`
  const slash = p.replace(/\/+$/, '').lastIndexOf('/')
  if (slash === -1) return escapeGlob(p)
  if (slash === 0) return `/${escapeGlob(p.slice(1))}` // a file directly under `/`
  return `${escapeGlob(p.slice(0, slash))}/**`
}

/** Literal text inside a pattern: `app/[id]` must not become a character class. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}()!+@\\]/g, (c) => `\\${c}`)
}
