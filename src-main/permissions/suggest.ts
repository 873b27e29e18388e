import picomatch from 'picomatch/posix'
import { splitBashCommand } from './bash-split'
import { normalizePathSubject } from './matcher'
import type { PermissionRequest } from './decide'

/**
 * Commands whose second word is a subcommand worth keeping in an "always" pattern
 * (`git push *`, not `git *`). Unknown commands get just their first word (`ls *`), because a
 * second word is usually an argument (`rm x`, `cat README`) and keeping it would make the
 * pattern uselessly narrow.
 */
const HAS_SUBCOMMANDS = new Set([
  'apt', 'apt-get', 'brew', 'bun', 'cargo', 'composer', 'conda', 'deno', 'docker', 'docker-compose',
  'dotnet', 'gh', 'git', 'go', 'gradle', 'helm', 'kubectl', 'make', 'mvn', 'npm', 'nx', 'pip', 'pip3',
  'pnpm', 'podman', 'poetry', 'rustup', 'systemctl', 'terraform', 'turbo', 'uv', 'yarn',
])
const SUBCOMMAND_WORD = /^[A-Za-z][A-Za-z0-9:_-]*$/
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

/**
 * Patterns offered for "Always allow": bash → one `prefix *` per sub-command, e.g.
 * `git push origin main` → `git push *`; path → the parent directory (`src/a/b.ts` → `src/a/**`),
 * a root file → itself; host/name/other → the subject. Deduped, in subject order.
 */
export function suggestAlwaysPatterns(req: PermissionRequest): string[] {
  const out: string[] = []
  for (const subject of req.subjects) {
    if (req.kind === 'command') out.push(...splitBashCommand(subject).map(commandPattern))
    else if (req.kind === 'path') out.push(pathPattern(subject))
    else out.push(subject)
  }
  return [...new Set(out.filter((p) => p !== ''))]
}

function commandPattern(cmd: string): string {
  const words = cmd.split(/\s+/).filter(Boolean)
  const prefix: string[] = []
  // Keep env assignments: the sub-command was checked in this exact form too.
  while (words.length > 0 && ENV_ASSIGNMENT.test(words[0])) prefix.push(words.shift() as string)
  const [first, second] = words
  if (first === undefined) return `${prefix.map(escapeGlob).join(' ')} *`
  prefix.push(first)
  if (second !== undefined && HAS_SUBCOMMANDS.has(first) && SUBCOMMAND_WORD.test(second)) prefix.push(second)
  return `${prefix.map(escapeGlob).join(' ')} *`
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
