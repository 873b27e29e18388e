/**
 * Flags that make a command safe to run (a dry run, a check, a prompt), kept as data so the list is easy to review.
 * "Always allow" keeps such a flag in the pattern it offers (`git clean -n` → `git clean -n`, never `git clean *`),
 * and an allow rule that names one does not cover a command that turns it off again (`--no-dry-run`,
 * `--dry-run=none`, `-f` after `rm -i`): see suggestion and matching in command-suggestion.ts and ruleset.ts.
 */
export interface SafetySpec {
  /** the command's leading words (`git clean`, `make`, `kubectl` for every subcommand) */
  command: string[]
  /** short options that make it safe, alone (`-n`) or in a group of short options (`-nd`) */
  short?: string
  /** short options that take an argument: a group ends there (`-C dir`) */
  shortArg?: string
  /** whole words that make it safe (`--dry-run`, `--dry-run=client`) */
  long?: string[]
  /** words that turn the safety off again, wherever they stand */
  undo?: (word: string) => boolean
  /** the flag still lives after `--` (`cargo fmt -- --check` hands it to rustfmt) */
  afterDashDash?: boolean
  /** still worth a second look with the flag (`rm -i` deletes what the answer allows) */
  risky?: boolean
}

const DRY = ['--dry-run']
/** git's long options accept unique prefixes: `--no-dry` is `--no-dry-run`. */
const gitUndo = (w: string) => w.startsWith('--no-d')
/** npm reads `--dry-run=false` and `--no-dry-run`. */
const npmUndo = (w: string) => w === '--no-dry-run' || w.startsWith('--dry-run=')
/** kubectl and helm: only `client` and `server` are dry runs; `none`, `false`, a bare `--dry-run` … are not. */
const k8sLong = ['--dry-run=client', '--dry-run=server']
const k8sUndo = (w: string) => w.startsWith('--dry-run') && !k8sLong.includes(w)

export const SAFETY_SPECS: SafetySpec[] = [
  ...['clean', 'add', 'rm', 'mv', 'push'].map((sub): SafetySpec => ({ command: ['git', sub], short: 'n', long: DRY, undo: gitUndo })),
  // `git commit -n` and `git fetch -n` mean something else (no-verify, no tags).
  ...['commit', 'fetch'].map((sub): SafetySpec => ({ command: ['git', sub], long: DRY, undo: gitUndo })),
  { command: ['make'], short: 'n', shortArg: 'CfIjlWoO', long: ['--dry-run', '--just-print', '--recon'] },
  ...['apt-get', 'apt'].map((name): SafetySpec => ({
    command: [name],
    short: 's',
    shortArg: 'oct',
    long: ['--simulate', '--just-print', '--dry-run', '--recon', '--no-act'],
    // `--no-simulate`, `--simulate=no`, and any `-o`/`-c` (a setting or a config file may turn simulation off).
    undo: (w) => /^(--no-(simulate|just-print|dry-run|recon)$|--(simulate|just-print|dry-run|recon|no-act)=|-o|--option|-c|--config-file)/.test(w),
  })),
  ...['ansible-playbook', 'ansible'].map((name): SafetySpec => ({ command: [name], long: ['--check', '-C'] })),
  ...['publish', 'install', 'i', 'ci', 'uninstall', 'update', 'dedupe', 'prune', 'unpublish', 'pack'].flatMap((sub): SafetySpec[] => [
    { command: ['npm', sub], long: DRY, undo: npmUndo },
    { command: ['pnpm', sub], long: DRY, undo: npmUndo },
  ]),
  { command: ['cargo', 'publish'], long: DRY },
  ...['pip', 'pip3'].map((name): SafetySpec => ({ command: [name, 'install'], long: DRY })),
  { command: ['kubectl'], long: k8sLong, undo: k8sUndo },
  { command: ['helm'], long: ['--dry-run', ...k8sLong], undo: (w) => w.startsWith('--dry-run=') && !k8sLong.includes(w) },
  { command: ['prettier'], long: ['--check', '-c', '--list-different', '-l'], undo: (w) => w === '-w' || w.startsWith('--write') },
  { command: ['black'], long: ['--check', '--diff'] },
  { command: ['isort'], long: ['--check-only', '--check', '-c', '--diff'] },
  { command: ['ruff', 'format'], long: ['--check', '--diff'] },
  { command: ['cargo', 'fmt'], long: ['--check'], afterDashDash: true },
  { command: ['rustfmt'], long: ['--check'] },
  { command: ['dotnet', 'format'], long: ['--verify-no-changes'] },
  {
    command: ['rm'],
    short: 'i',
    long: ['--interactive', '--interactive=always'],
    // `-f` after `-i` wins; GNU accepts `--f`, `--forc`, `--inter=never`.
    undo: (w) => /^-[a-zA-Z]*[fI]/.test(w) || /^--f/.test(w) || /^--in[a-z]*=(?!always$)/.test(w),
    risky: true,
  },
]

/** Package runners whose next word is the command they run (`npx prettier --check .`). */
export const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx', 'dlx'])

/** Where the command proper starts: after a package runner (`npx prettier` → 1). */
export function commandStart(argv: readonly string[]): number {
  return PACKAGE_RUNNERS.has(argv[0] ?? '') && argv[1] !== undefined && !argv[1].startsWith('-') ? 1 : 0
}

function specFor(argv: readonly string[]): { spec: SafetySpec; from: number } | null {
  const start = commandStart(argv)
  for (const spec of SAFETY_SPECS) {
    if (spec.command.every((w, i) => argv[start + i] === w)) return { spec, from: start + spec.command.length }
  }
  return null
}

function isSafetyFlag(spec: SafetySpec, word: string): boolean {
  if (spec.long?.includes(word)) return true
  if (!spec.short || !/^-[A-Za-z]+$/.test(word)) return false
  // A group of short options: the flag counts only before a letter that takes an argument (`-Cn` is `-C n`).
  for (const c of word.slice(1)) {
    if (spec.short.includes(c)) return true
    if (spec.shortArg?.includes(c)) return false
  }
  return false
}

/**
 * The index in `argv` of the first flag that makes this command safe, or -1 (none, or a later word turns it off).
 * `argv` is a command's normalized words (argv[0] the command name).
 */
export function safetyFlagIndex(argv: readonly string[]): { index: number; spec: SafetySpec } | null {
  const found = specFor(argv)
  if (!found) return null
  const { spec, from } = found
  let index = -1
  let dashDash = false
  for (let i = from; i < argv.length; i++) {
    const w = argv[i]
    if (w === '--' && !dashDash) {
      dashDash = true
      if (!spec.afterDashDash) break
      continue
    }
    if (index === -1 && isSafetyFlag(spec, w)) index = i
  }
  if (index === -1 || argv.some((w) => spec.undo?.(w))) return null
  return { index, spec }
}

/**
 * Does an allow `pattern` keep a safety flag that `subject` turns off again? Such a rule must not cover it:
 * `git clean -n *` never allows `git clean -n --no-dry-run -f`. Patterns without a safety flag are unaffected.
 */
export function undoesSafetyFlag(pattern: string, subject: string): boolean {
  const words = pattern.split(' ')
  const found = specFor(words)
  if (!found?.spec.undo) return false
  const { spec, from } = found
  if (!words.slice(from).some((w) => isSafetyFlag(spec, w))) return false
  return subject.split(/\s+/).some((w) => spec.undo?.(w))
}
