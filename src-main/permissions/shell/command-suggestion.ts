import { commandStart, PACKAGE_RUNNERS, safetyFlagIndex } from './safety-flags'
import { WRAPPER_NAMES } from './unwrap'
import type { ShellCommand } from './walk'

/** One "Always allow" pattern for a command, and whether granting it for good deserves a second look. */
export interface CommandSuggestion {
  pattern: string
  risky: boolean
  reason?: string
}

/** Commands whose second word is a subcommand worth keeping (`git push *`, not `git *`). */
const HAS_SUBCOMMANDS = new Set([
  'apt', 'apt-get', 'brew', 'bun', 'cargo', 'composer', 'conda', 'deno', 'docker', 'docker-compose', 'dotnet', 'gh', 'git',
  'go', 'gradle', 'helm', 'kubectl', 'make', 'mvn', 'npm', 'nx', 'pip', 'pip3', 'pnpm', 'podman', 'poetry', 'rustup',
  'systemctl', 'terraform', 'turbo', 'uv', 'yarn',
])
/** `npm run test`: these two-word prefixes take one more word (the script, the resource, …). */
const THREE_WORDS = new Set([
  'npm run', 'pnpm run', 'yarn run', 'bun run', 'uv run', 'poetry run', 'docker compose', 'gh pr', 'gh issue', 'gh repo',
  'gh run', 'gh release', 'python -m', 'python3 -m', 'git stash',
])
/**
 * Commands that are safe because a flag is ABSENT (`sed` without `-i`, `eslint` without `--fix`, `git branch`
 * without `-D`). A glob cannot say "without", so their pattern is the command itself.
 */
const SAFE_BY_ABSENCE = new Set(['sed', 'gsed', 'eslint', 'gofmt', 'git branch', 'git tag', 'git remote', 'npm audit', 'ruff check', 'biome check', 'biome lint'])
const SUBCOMMAND_WORD = /^[A-Za-z][A-Za-z0-9:._-]*$/

const NETWORK = new Set(['curl', 'wget', 'ssh', 'scp', 'sftp', 'rsync', 'nc', 'ncat', 'netcat', 'telnet', 'ftp', 'socat'])
const NETWORK_SUB = new Set(['git push', 'git fetch', 'git pull', 'git clone', 'npm install', 'npm i', 'npm publish', 'npm add', 'pnpm add', 'pnpm install', 'yarn add', 'pip install', 'pip3 install', 'cargo install', 'docker push', 'docker pull', 'gh api'])
const DELETE = new Set(['rm', 'rmdir', 'shred', 'unlink', 'truncate', 'dd', 'mkfs', 'wipefs', 'srm'])
const DELETE_SUB = new Set(['git clean', 'git reset', 'git checkout', 'git restore', 'git branch', 'git stash'])
const PRIVILEGE = new Set(['sudo', 'doas', 'su', 'pkexec', 'runuser', 'chmod', 'chown', 'chgrp', 'chattr', 'setcap', 'mount', 'umount'])
const INTERPRETERS = new Set(['python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'php', 'lua', 'Rscript', 'osascript', 'pwsh', 'powershell', 'awk', 'gawk', 'mawk', 'nawk', 'jshell', 'irb'])
const CODE_FLAGS = new Set(['-c', '-e', '-E', '--eval', '-r', '--exec', '-p', '--print', 'eval', '-x'])

/** Literal text inside a pattern: `app/[id]` must not become a character class. */
export function escapeCommandGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`)
}

/**
 * The pattern offered for one command: its words up to the command's arity (`git push *`, `npm run test`), never
 * a wrapper prefix and never `*` alone. Commands that run code given inline, or wrap other commands, get their
 * exact text. Risky ones (network, deleting, privileges, inline code, package runners) say so.
 */
export function commandSuggestion(c: ShellCommand): CommandSuggestion | null {
  const [name, second] = c.argv
  if (!name) return null
  const exact = escapeCommandGlob(c.text)
  if (c.wrapper || WRAPPER_NAMES.has(name)) {
    return { pattern: exact, risky: true, reason: PRIVILEGE.has(name) ? 'runs a command with other privileges' : 'runs other commands' }
  }
  if (INTERPRETERS.has(name) && (name.endsWith('awk') || c.argv.some((w) => CODE_FLAGS.has(w)))) {
    return { pattern: exact, risky: true, reason: 'runs code given on the command line' }
  }
  if (name === 'find') {
    const risky = c.argv.some((w) => ['-delete', '-fprint', '-fprint0', '-fprintf', '-fls'].includes(w))
    return { pattern: exact, risky, ...(risky ? { reason: 'deletes or writes files' } : {}) }
  }
  if (NETWORK.has(name)) return { pattern: exact, risky: true, reason: 'uses the network' }
  const usual = byArity(c)
  // A dry run (`git clean -n`, `kubectl … --dry-run=client`) keeps its flag: the words up to it stay as they are.
  const safety = safetyFlagIndex(c.argv)
  if (safety) {
    const kept = c.argv.slice(0, safety.index + 1).map(escapeCommandGlob).join(' ') + (c.argv.length > safety.index + 1 ? ' *' : '')
    return safety.spec.risky ? { ...usual, pattern: kept } : { pattern: kept, risky: false }
  }
  const start = commandStart(c.argv)
  const tool = c.argv.slice(start, start + 2)
  if (SAFE_BY_ABSENCE.has(tool[0]) || SAFE_BY_ABSENCE.has(tool.join(' '))) return { ...usual, pattern: exact }
  // `git stash -u` changes the working tree; `git stash *` would also cover `git stash drop`.
  if (name === 'git' && second === 'stash' && c.argv[2]?.startsWith('-')) return { ...usual, pattern: exact }
  return usual
}

/** The usual pattern: the command's words up to its arity, then ` *` when more follow. */
function byArity(c: ShellCommand): CommandSuggestion {
  const [name, second] = c.argv
  let arity = 1
  if (HAS_SUBCOMMANDS.has(name) && second !== undefined && SUBCOMMAND_WORD.test(second)) arity = 2
  if (PACKAGE_RUNNERS.has(name) && second !== undefined && !second.startsWith('-')) arity = 2
  if (second !== undefined && THREE_WORDS.has(`${name} ${second}`) && c.argv[2] !== undefined && !c.argv[2].startsWith('-')) arity = 3
  if (INTERPRETERS.has(name) && arity === 1 && second !== undefined && !second.startsWith('-')) arity = 2
  const words = c.argv.slice(0, arity)
  const pattern = words.map(escapeCommandGlob).join(' ') + (c.argv.length > arity ? ' *' : '')
  const prefix2 = `${name} ${second ?? ''}`
  const why = PACKAGE_RUNNERS.has(name) || (name === 'npm' && second === 'exec')
    ? 'downloads and runs a package'
    : NETWORK_SUB.has(prefix2) ? 'uses the network'
      : DELETE.has(name) || DELETE_SUB.has(prefix2) ? 'deletes or overwrites files'
        : PRIVILEGE.has(name) ? 'changes permissions or privileges'
          : undefined
  return { pattern, risky: why !== undefined, ...(why ? { reason: why } : {}) }
}
