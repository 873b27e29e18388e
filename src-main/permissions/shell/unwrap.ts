import { gitInner } from './unwrap-git'
import { scanOptions, type OptionSpec } from './options'
import { joinWords, knownWord, type ShellWord } from './words'

/**
 * The unwrap table: commands that run other commands. Each entry says what else runs when the command does, so
 * `sudo rm x`, `timeout 5 rm x`, `bash -c "rm x"` and `find . -exec rm {} \;` are all checked as `rm`.
 * README ("The shell") lists the table; keep the two in step.
 */
export type Inner =
  /** another command runs with these words (its own wrappers are unwrapped in turn) */
  | { kind: 'run'; argv: ShellWord[] }
  /** a string run as a shell script (`bash -c`, `eval`, `watch`, `parallel`, alias and trap bodies) */
  | { kind: 'script'; text: ShellWord; via: string }
  /** a shell that reads its commands from standard input */
  | { kind: 'stdin'; via: string }
  /** an environment variable set for the command (`env NAME=V cmd`, `sudo NAME=V cmd`) */
  | { kind: 'env'; name: string; value: ShellWord }
  /** a file the command writes (`tee FILE`, `dd of=FILE`, `time -o FILE`, `find -fprint FILE`) */
  | { kind: 'write'; target: ShellWord; via: string }
  /** it cannot be told statically what runs: the line asks */
  | { kind: 'ask'; reason: string }

export interface Unwrapped {
  /** the command is also checked as itself (sudo, doas, find, tee, …); plain wrappers like `nice` are not */
  self: boolean
  /** the words to check it as, when not all of them (find without its -exec parts) */
  selfArgv?: ShellWord[]
  inner: Inner[]
}

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'lksh'])
/** Script files that are really standard input (`bash /dev/stdin <<< …`, `source /dev/stdin`). */
const STDIN_FILES = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0', '-'])
/** Other descriptors as script files: their content is whatever the line wired to them. */
const FD_FILE = /^\/(dev\/fd|proc\/[^/]+\/fd)\//

/** What a script operand means: stdin, an unknowable descriptor, or an ordinary file judged by the command. */
function scriptFile(name: string, file: ShellWord): Unwrapped | null {
  if (!file.literal) return ask(`${name} runs a script whose name is only known at run time`)
  if (STDIN_FILES.has(file.value)) return { self: false, inner: [{ kind: 'stdin', via: name }] }
  if (FD_FILE.test(file.value)) return ask(`${name} reads commands from ${file.value}, which this line does not show`)
  return null
}
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*|BASH_FUNC_[^=]*)=/s

const literal = knownWord

const ask = (reason: string): Unwrapped => ({ self: true, inner: [{ kind: 'ask', reason }] })
const run = (argv: ShellWord[], self = false, extra: Inner[] = []): Unwrapped => ({ self, inner: [...extra, ...(argv.length ? [{ kind: 'run' as const, argv }] : [])] })

/** A wrapper with options and then the command: `nice -n 5 CMD`, `stdbuf -oL CMD`, … */
function optionsThenCommand(spec: OptionSpec, o: { self?: boolean; positionals?: number; noRun?: string } = {}) {
  return (name: string, args: ShellWord[]): Unwrapped => {
    const scan = scanOptions(name, args, spec)
    if (!scan.ok) return ask(scan.reason)
    if (o.noRun && [...o.noRun].some((c) => scan.seen.has(c))) return { self: true, inner: [] }
    const argv = args.slice(scan.operand + (o.positionals ?? 0))
    return argv.length ? run(argv, o.self ?? false) : { self: true, inner: [] }
  }
}

/** `env`/`sudo`: `NAME=VALUE` words before the command are variables for it. */
function envThenCommand(args: ShellWord[], self: boolean): Unwrapped {
  const inner: Inner[] = []
  let i = 0
  for (; i < args.length; i++) {
    const w = args[i]
    const m = ASSIGNMENT.exec(w.literal ? w.value : w.source)
    if (!m) break
    inner.push({ kind: 'env', name: m[1], value: w.literal ? literal(w.value.slice(m[0].length)) : w })
  }
  return run(args.slice(i), self, inner)
}

function shell(name: string, args: ShellWord[]): Unwrapped {
  let command = false
  let stdin = false
  let i = 0
  for (; i < args.length; i++) {
    const w = args[i]
    if (!w.literal) {
      if (command) break // the command string itself: judged below
      return ask(`cannot tell whether \`${w.source}\` is an option of ${name}`)
    }
    const v = w.value
    if (v === '--' || v === '-') {
      i++
      break
    }
    if (v.startsWith('--')) {
      if (['--rcfile', '--init-file'].includes(v)) i++
      else if (!['--norc', '--noprofile', '--login', '--posix', '--verbose', '--noediting', '--restricted', '--debugger', '--dump-strings', '--dump-po-strings', '--pretty-print', '--help', '--version', '--wordexp'].includes(v)) {
        return ask(`${name} has an option Agentry does not know (\`${v}\`)`)
      }
      continue
    }
    if (!/^[-+]/.test(v)) break
    for (const c of v.slice(1)) {
      if (c === 'c') command = true
      else if (c === 's') stdin = true
      else if (c === 'o' || c === 'O') i++
      else if (!'abefhiklmnprtuvxBCDEHPT'.includes(c)) return ask(`${name} has an option Agentry does not know (\`${v}\`)`)
    }
  }
  const operands = args.slice(i)
  if (command) {
    if (operands.length === 0) return ask(`${name} -c has no command string`)
    return { self: false, inner: [{ kind: 'script', text: operands[0], via: `${name} -c` }] }
  }
  if (stdin || operands.length === 0) return { self: false, inner: [{ kind: 'stdin', via: name }] }
  // `bash script.sh`: the script is a file the line does not show; it is judged by this command as written.
  return scriptFile(name, operands[0]) ?? { self: true, inner: [] }
}

function find(_name: string, args: ShellWord[]): Unwrapped {
  const selfArgv: ShellWord[] = []
  const inner: Inner[] = []
  for (let i = 0; i < args.length; i++) {
    const v = args[i].literal ? args[i].value : ''
    if (['-exec', '-execdir', '-ok', '-okdir'].includes(v)) {
      const argv: ShellWord[] = []
      let j = i + 1
      for (; j < args.length; j++) {
        const t = args[j].literal ? args[j].value : ''
        if (t === ';' || (t === '+' && argv.at(-1)?.value === '{}')) break
        argv.push(args[j])
      }
      if (argv.length === 0) return ask(`find ${v} has no command`)
      inner.push({ kind: 'run', argv })
      i = j
      continue
    }
    if (['-fprint', '-fprint0', '-fls', '-fprintf'].includes(v) && i + 1 < args.length) inner.push({ kind: 'write', target: args[i + 1], via: `find ${v}` })
    selfArgv.push(args[i])
  }
  return { self: true, selfArgv, inner }
}

const XARGS: OptionSpec = {
  shortFlags: '0oprtx', shortArg: 'adEILnPs', shortAttached: 'eil',
  longFlags: ['null', 'open-tty', 'interactive', 'no-run-if-empty', 'verbose', 'exit', 'show-limits'],
  longArg: ['arg-file', 'delimiter', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
}
const PARALLEL: OptionSpec = {
  shortFlags: '0kqrtuvXmeg', shortArg: 'jPnNLSaIdC',
  longFlags: ['keep-order', 'quote', 'no-run-if-empty', 'verbose', 'tag', 'dry-run', 'progress', 'eta', 'bar', 'line-buffer', 'group', 'ungroup', 'null', 'will-cite', 'xargs', 'halt-on-error'],
  longArg: ['jobs', 'max-args', 'max-lines', 'sshlogin', 'arg-file', 'delimiter', 'colsep', 'results', 'joblog', 'tmpdir', 'workdir', 'env', 'timeout', 'delay', 'retries', 'halt', 'tag-string', 'max-procs', 'replace', 'load', 'memfree', 'nice'],
}
const WATCH: OptionSpec = {
  shortFlags: 'bcdegtxpwC', shortArg: 'nq',
  longFlags: ['beep', 'color', 'no-color', 'differences', 'errexit', 'chgexit', 'no-title', 'exec', 'precise', 'no-wrap', 'no-rerun'],
  longArg: ['interval', 'equexit'],
}
const SUDO: OptionSpec = {
  shortFlags: 'AbEeHiKklnPSsVvBN', shortArg: 'CDghpRrTtUu',
  longFlags: ['askpass', 'background', 'preserve-env', 'edit', 'set-home', 'login', 'remove-timestamp', 'reset-timestamp', 'list', 'non-interactive', 'preserve-groups', 'stdin', 'shell', 'version', 'validate', 'bell', 'no-update'],
  longArg: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'command-timeout', 'type', 'other-user', 'user'],
}
const ENV: OptionSpec = {
  shortFlags: '0iv', shortArg: 'uCSPa',
  longFlags: ['ignore-environment', 'null', 'debug', 'list-signal-handling', 'block-signal', 'default-signal', 'ignore-signal'],
  longArg: ['unset', 'chdir', 'split-string', 'argv0'],
}

type Handler = (name: string, args: ShellWord[]) => Unwrapped

const TABLE: Record<string, Handler> = {
  sudo: (name, args) => {
    const scan = scanOptions(name, args, SUDO)
    if (!scan.ok) return ask(scan.reason)
    if (['l', 'v', 'k', 'K', 'V', 'e', 'list', 'validate', 'edit', 'version'].some((o) => scan.seen.has(o))) return { self: true, inner: [] }
    return envThenCommand(args.slice(scan.operand), true)
  },
  doas: optionsThenCommand({ shortFlags: 'Lns', shortArg: 'Cu' }, { self: true, noRun: 'Ls' }),
  env: (name, args) => {
    const scan = scanOptions(name, args, ENV)
    if (!scan.ok) return ask(scan.reason)
    if (scan.seen.has('S') || scan.seen.has('split-string')) return ask('env -S splits a string into a command')
    const rest = args.slice(scan.operand)
    return envThenCommand(rest[0]?.literal && rest[0].value === '-' ? rest.slice(1) : rest, false)
  },
  command: optionsThenCommand({ shortFlags: 'pvV' }, { noRun: 'vV' }),
  builtin: (_name, args) => run(args),
  exec: optionsThenCommand({ shortFlags: 'cl', shortArg: 'a' }),
  nice: optionsThenCommand({ shortArg: 'n', longArg: ['adjustment'], numeric: true }),
  nohup: optionsThenCommand({}),
  timeout: optionsThenCommand(
    { shortFlags: 'v', shortArg: 'ks', longFlags: ['foreground', 'preserve-status', 'verbose'], longArg: ['kill-after', 'signal'] },
    { positionals: 1 },
  ),
  time: (name, args) => {
    const scan = scanOptions(name, args, { shortFlags: 'apqvV', shortArg: 'of', longFlags: ['append', 'verbose', 'quiet', 'portability'], longArg: ['output', 'format'] })
    if (!scan.ok) return ask(scan.reason)
    const out = scan.seen.get('o') ?? scan.seen.get('output')
    return run(args.slice(scan.operand), false, typeof out === 'string' ? [{ kind: 'write', target: literal(out), via: 'time -o' }] : [])
  },
  stdbuf: optionsThenCommand({ shortArg: 'ioe', longArg: ['input', 'output', 'error'] }),
  setsid: optionsThenCommand({ shortFlags: 'cfw', longFlags: ['ctty', 'fork', 'wait'] }),
  ionice: optionsThenCommand({ shortFlags: 't', shortArg: 'cnpPu', longFlags: ['ignore'], longArg: ['class', 'classdata', 'pid', 'pgid', 'uid'] }, { noRun: 'pPu' }),
  taskset: optionsThenCommand({ shortFlags: 'acp', longFlags: ['all-tasks', 'cpu-list', 'pid'] }, { positionals: 1, noRun: 'p' }),
  coproc: (_name, args) => run(args),
  busybox: (_name, args) => run(args),
  xargs: (name, args) => {
    const scan = scanOptions(name, args, XARGS)
    if (!scan.ok) return ask(scan.reason)
    const argv = args.slice(scan.operand)
    return run(argv.length ? argv : [literal('echo')])
  },
  find,
  parallel: (name, args) => {
    const scan = scanOptions(name, args, PARALLEL)
    if (!scan.ok) return ask(scan.reason)
    const rest = args.slice(scan.operand)
    const end = rest.findIndex((w) => w.literal && /^::::?\+?$/.test(w.value))
    const command = end === -1 ? rest : rest.slice(0, end)
    if (command.length === 0) return ask('parallel runs commands it reads from its input')
    return { self: false, inner: [{ kind: 'script', text: joinWords(command), via: 'parallel' }] }
  },
  watch: (name, args) => {
    const scan = scanOptions(name, args, WATCH)
    if (!scan.ok) return ask(scan.reason)
    const rest = args.slice(scan.operand)
    if (rest.length === 0) return { self: true, inner: [] }
    if (scan.seen.has('x') || scan.seen.has('exec')) return run(rest)
    return { self: false, inner: [{ kind: 'script', text: joinWords(rest), via: 'watch' }] }
  },
  eval: (_name, args) => ({ self: false, inner: [{ kind: 'script', text: joinWords(args), via: 'eval' }] }),
  flock: (name, args) => {
    const scan = scanOptions(name, args, {
      shortFlags: 'sxunoFv', shortArg: 'wE', longFlags: ['shared', 'exclusive', 'unlock', 'nonblock', 'nb', 'close', 'no-fork', 'verbose'], longArg: ['wait', 'timeout', 'conflict-exit-code'],
    })
    if (!scan.ok) return ask(scan.reason)
    const rest = args.slice(scan.operand + 1)
    if (rest[0]?.literal && ['-c', '--command'].includes(rest[0].value)) {
      return rest[1] ? { self: false, inner: [{ kind: 'script', text: rest[1], via: 'flock -c' }] } : ask('flock -c has no command')
    }
    return run(rest)
  },
  su: suLike,
  runuser: suLike,
  script: suLike,
  trap: (_name, args) => {
    if (args.length < 2 || (args[0].literal && ['-l', '-p', '-', ''].includes(args[0].value))) return { self: true, inner: [] }
    return { self: true, inner: [{ kind: 'script', text: args[0], via: 'trap' }] }
  },
  alias: (_name, args) => ({
    self: true,
    inner: args.flatMap((w): Inner[] => {
      if (!w.literal) return [{ kind: 'ask', reason: `alias \`${w.source}\` is only known at run time` }]
      const eq = w.value.indexOf('=')
      return eq === -1 ? [] : [{ kind: 'script', text: literal(w.value.slice(eq + 1)), via: 'alias' }]
    }),
  }),
  source: sourceLike,
  // `hash -p /bin/rm ls` makes `ls` run rm; `enable -f lib.so name` loads a builtin from a shared object.
  hash: (_name, args) => (args.some((w) => !w.literal || /^-\w*p/.test(w.value)) ? ask('hash -p makes a command name run another program') : { self: true, inner: [] }),
  enable: (_name, args) => (args.some((w) => !w.literal || /^-\w*f/.test(w.value)) ? ask('enable -f loads a builtin from a shared library') : { self: true, inner: [] }),
  '.': sourceLike,
  tee: (name, args) => {
    const scan = scanOptions(name, args, { shortFlags: 'aip', longFlags: ['append', 'ignore-interrupts', 'output-error'] })
    if (!scan.ok) return ask(scan.reason)
    return { self: true, inner: args.slice(scan.operand).map((target) => ({ kind: 'write' as const, target, via: 'tee' })) }
  },
  dd: (_name, args) => ({
    self: true,
    inner: args.filter((w) => w.source.startsWith('of=')).map((w) => ({ kind: 'write' as const, target: w.literal ? literal(w.value.slice(3)) : w, via: 'dd of=' })),
  }),
  git: (_name, args) => gitInner(args),
}

/** `su -c CMD`, `runuser -lc CMD`, `script -qc CMD`: the command string is a shell script. */
function suLike(name: string, args: ShellWord[]): Unwrapped {
  for (let i = 0; i < args.length; i++) {
    const w = args[i]
    if (!w.literal) continue
    const v = w.value
    const script = (text: ShellWord | undefined): Unwrapped => (text ? { self: true, inner: [{ kind: 'script', text, via: `${name} -c` }] } : ask(`${name} -c has no command`))
    if (v === '--command') return script(args[i + 1])
    if (v.startsWith('--command=')) return script(literal(v.slice(10)))
    // A group of short options that includes c: the rest of the group, or the next word, is the command.
    const group = /^-([A-Za-z]*?)c(.*)$/.exec(v)
    if (group && !v.startsWith('--')) return script(group[2] ? literal(group[2]) : args[i + 1])
  }
  return { self: true, inner: [] }
}

function sourceLike(name: string, args: ShellWord[]): Unwrapped {
  return (args[0] && scriptFile(name, args[0])) || { self: true, inner: [] }
}

/** What else runs when `name` runs with `args`; `{ self: true, inner: [] }` for an ordinary command. */
export function unwrap(name: string, args: ShellWord[]): Unwrapped {
  if (SHELLS.has(name)) return shell(name, args)
  if (name === 'fish' || name === 'pwsh' || name === 'powershell') {
    return args.some((w) => !w.literal || /^-(c|command|Command|e)$/.test(w.value)) ? ask(`${name} runs a script in a language Agentry does not parse`) : { self: true, inner: [] }
  }
  const handler = Object.hasOwn(TABLE, name) ? TABLE[name] : undefined
  return handler ? handler(name, args) : { self: true, inner: [] }
}

/** Names the table unwraps (for suggestions: these are never offered as a prefix). */
export const WRAPPER_NAMES: ReadonlySet<string> = new Set([...SHELLS, ...Object.keys(TABLE).filter((n) => !['tee', 'dd', 'git', 'alias', 'trap', 'find', 'source', '.'].includes(n))])
