import { analyzeShell } from './analyze'
import { shellParser } from './grammar'
import { parseSyntax, SyntaxTooDeep, type SyntaxNode } from './syntax'
import { resolveWord, type ShellWord } from './words'

/**
 * Is a bash line read-only (issue 28)? Judged on the parse tree with an allow-list: every node must be a kind this
 * file knows (commands, pipelines, `&&`/`||`/`;` lists, subshells, `{ …; }`, `!`), every command a known reader used
 * only with reading flags, every word known before the line runs (no `$VAR`, `$(…)`, `~`), no assignment, no
 * background job, and nothing written except to /dev/null. Anything else — including what the grammar adds later — is
 * not read-only, and the line is judged by the rules as before.
 *
 * `reads` lists every word that may name a file the line reads (operands, `--flag=value` values, `< file`): the
 * caller judges them as reads of those paths (outside the workspace, or denied to read_file → not read-only).
 */
export type ReadOnlyVerdict = { readOnly: true; reads: string[] } | { readOnly: false; why: string }

class NotReadOnly extends Error {}

interface ReaderSpec {
  /** flags that write, run a program or read through links: short letters, and long names (`--output`, `-exec` for find) */
  deny?: { short?: string; long?: string[] }
  /** its operands are text, not files (`echo`, `tr`) */
  text?: true
  /** at most this many operands (`uniq in out` writes `out`) */
  maxOperands?: number
  /** it prints its words or facts and reads no file (`echo`, `pwd`): a line of these alone is not a read-only command */
  quiet?: true
  /** it lists names only, so a glob it is given (`ls *.ts`) is fine */
  names?: true
  /** a check of its own (git's subcommands, sed's script) */
  check?: (args: string[]) => void
}

const FILES: ReaderSpec = {}
const TEXT: ReaderSpec = { text: true }
const QUIET: ReaderSpec = { text: true, quiet: true }
const NONE: ReaderSpec = { text: true, maxOperands: 0, quiet: true }

const READERS: Record<string, ReaderSpec> = {
  ls: { names: true }, du: { names: true }, stat: { names: true }, tree: { names: true, deny: { short: 'oR', long: ['--fromfile'] } },
  cat: FILES, head: FILES, tail: FILES, wc: FILES, nl: FILES, tac: FILES, cut: FILES, paste: FILES, fold: FILES, expand: FILES,
  unexpand: FILES, strings: FILES, od: FILES, hexdump: FILES, cmp: FILES, diff: FILES, comm: FILES, df: FILES, realpath: FILES,
  readlink: FILES, md5sum: FILES, sha1sum: FILES, sha256sum: FILES, sha512sum: FILES, cksum: FILES,
  file: { deny: { short: 'C', long: ['--compile'] } },
  sort: { deny: { short: 'oT', long: ['--output', '--compress-program', '--temporary-directory'] } },
  uniq: { maxOperands: 1 },
  grep: { deny: { short: 'R', long: ['--dereference-recursive'] } },
  egrep: { deny: { short: 'R', long: ['--dereference-recursive'] } },
  fgrep: { deny: { short: 'R', long: ['--dereference-recursive'] } },
  // Not `--hidden`/`-u`/`--no-ignore`: rg skips hidden and ignored files (`.env`), and these would read them.
  rg: { deny: { short: 'Lzu.', long: ['--pre', '--pre-glob', '--search-zip', '--follow', '--hidden', '--no-ignore', '--unrestricted', '--hostname-bin'] } },
  find: { deny: { long: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls', '-L', '-follow'] } },
  echo: QUIET, printf: QUIET, which: TEXT, tr: TEXT, basename: TEXT, dirname: TEXT,
  pwd: NONE, true: NONE, false: NONE, whoami: NONE, id: QUIET, uname: QUIET,
  hostname: { ...NONE, deny: { short: 'bF', long: ['--file', '--boot'] } },
  date: { text: true, quiet: true, deny: { short: 'sf', long: ['--set', '--file'] } },
  git: { check: gitCheck },
  sed: { check: sedCheck },
}

/** git subcommands that only read the repository. */
const GIT_READERS = new Set([
  'status', 'diff', 'log', 'show', 'rev-parse', 'ls-files', 'ls-tree', 'blame', 'describe', 'grep', 'merge-base', 'shortlog',
  'rev-list', 'cat-file', 'show-ref', 'for-each-ref', 'name-rev', 'count-objects', 'whatchanged', 'check-ignore', 'diff-tree',
])
/** Never read-only in any git subcommand: they write a file, run a program, or read outside the repository. */
const GIT_DENY = { long: ['--output', '--ext-diff', '--no-index', '--open-files-in-pager', '--exec', '--upload-pack', '--receive-pack'] }
/** `git branch` / `git tag` only list with these. */
const LIST_FLAGS = {
  branch: { short: 'arvlq', long: ['all', 'remotes', 'verbose', 'list', 'show-current', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'color', 'no-color', 'column', 'no-column', 'abbrev', 'no-abbrev', 'ignore-case', 'omit-empty', 'quiet'] },
  tag: { short: 'lni', long: ['list', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'color', 'column', 'no-column', 'ignore-case', 'omit-empty'] },
}
const TAKES_COMMIT = new Set(['--contains', '--no-contains', '--merged', '--no-merged', '--points-at'])
const SAFE_SED_SCRIPT = /^((\d+|\$)(,(\d+|\$))?p|\d+q)$/
const STREAMS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr'])
const CONTAINERS = new Set(['program', 'list', 'pipeline', 'subshell', 'compound_statement', 'negated_command'])
const TOKENS = new Set([';', '&&', '||', '|', '|&', '(', ')', '{', '}', '!', '\n'])

export function readOnlyLine(line: string): ReadOnlyVerdict {
  const analysis = analyzeShell(line)
  if (analysis.mustAsk.length > 0) return { readOnly: false, why: analysis.mustAsk[0] }
  const state = shellParser()
  if (!state.ok) return { readOnly: false, why: state.reason }
  const judge = new Judge()
  try {
    judge.walk(parseSyntax(state.parser, line))
  } catch (err) {
    if (err instanceof NotReadOnly || err instanceof SyntaxTooDeep) return { readOnly: false, why: err.message }
    throw err
  }
  if (judge.commands === 0) return { readOnly: false, why: 'it runs no command' }
  // `echo hi` reads nothing: the person sees such a line as before (and `ls || echo none` still counts).
  if (judge.readers === 0) return { readOnly: false, why: 'it reads nothing' }
  return { readOnly: true, reads: [...new Set(judge.reads)] }
}

const no = (why: string): never => {
  throw new NotReadOnly(why)
}

class Judge {
  readonly reads: string[] = []
  commands = 0
  readers = 0

  walk(node: SyntaxNode): void {
    if (node.broken) no('the line is not complete bash')
    if (!node.named) {
      if (!TOKENS.has(node.type)) no(node.type === '&' ? 'it starts a background job' : `\`${node.type}\` is not read-only syntax`)
      return
    }
    if (node.type === 'comment') return
    if (node.type === 'command') return this.command(node, [])
    if (node.type === 'redirected_statement') {
      const body = node.children.find((c) => c.field === 'body') ?? node.children[0]
      const redirects = node.children.filter((c) => c !== body)
      if (body.type === 'command') return this.command(body, redirects)
      redirects.forEach((r) => this.redirect(r))
      return this.walk(body)
    }
    if (!CONTAINERS.has(node.type)) no(`${describe(node.type)} is more than Agentry judges read-only`)
    node.children.forEach((c) => this.walk(c))
  }

  private word(node: SyntaxNode): ShellWord {
    const w = resolveWord(node, () => {})
    if (!w.literal) no(`\`${w.source}\` is known only when the line runs`)
    if (w.tilde) no(`\`${w.source}\` reads from a home folder`)
    return w
  }

  private redirect(node: SyntaxNode): void {
    if (node.type === 'herestring_redirect') {
      node.children.filter((c) => c.named).forEach((c) => this.word(c))
      return
    }
    if (node.type !== 'file_redirect') no(`${describe(node.type)} is more than Agentry judges read-only`)
    const op = node.children.find((c) => !c.named)?.text ?? ''
    const dest = node.children.filter((c) => c.named && c.type !== 'file_descriptor').at(-1)
    if (!dest) return no('a redirect without a target')
    const target = this.word(dest).value
    if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(target)) return
    if (op === '<') {
      this.reads.push(target)
      return
    }
    if (['>', '>>', '&>', '&>>', '>|'].includes(op) && STREAMS.has(target)) return
    no(`it writes to ${target}`)
  }

  private command(node: SyntaxNode, redirects: SyntaxNode[]): void {
    const words: ShellWord[] = []
    for (const c of node.children) {
      if (c.type === 'variable_assignment') no(`it sets ${c.text.split('=')[0]} for the command`)
      else if (c.field === 'name') words.unshift(this.word(c.children[0] ?? c))
      else if (c.field === 'argument') words.push(this.word(c))
      else if (c.type === 'file_redirect' || c.type === 'herestring_redirect') redirects.push(c)
      else no(`${describe(c.type)} is more than Agentry judges read-only`)
    }
    redirects.forEach((r) => this.redirect(r))
    const [head, ...args] = words
    if (!head) return
    const name = head.value
    if (head.pattern || name.includes('/')) no(`\`${head.source}\` names a program by its path`)
    const spec = Object.hasOwn(READERS, name) ? READERS[name] : undefined
    if (!spec) no(`${name} is not a read-only command`)
    this.commands++
    if (!spec?.quiet) this.readers++
    const values = args.map((a) => {
      if (a.pattern && !spec?.names) no(`the shell expands \`${a.source}\` into file names`)
      return a.value
    })
    if (spec?.check) spec.check(values)
    this.operands(name, spec as ReaderSpec, values)
  }

  /** Flags are checked against the command's deny list; operands and glued flag values are reads. */
  operands(prefix: string, spec: ReaderSpec, args: string[]): void {
    let operands = 0
    let dashDash = false
    for (const a of args) {
      if (dashDash || !a.startsWith('-') || a === '-') {
        operands++
        if (!spec.text) this.reads.push(a)
        continue
      }
      if (a === '--') {
        dashDash = true
        continue
      }
      if (deniedFlag(a, spec.deny)) no(`${prefix} ${a.split('=')[0]} can change things`)
      const eq = a.indexOf('=')
      const glued = a.startsWith('--') ? (eq === -1 ? '' : a.slice(eq + 1)) : a.includes('/') ? a.slice(a.indexOf('/')) : ''
      if (glued && !spec.text) this.reads.push(glued)
    }
    if (spec.maxOperands !== undefined && operands > spec.maxOperands) no(`${prefix} with ${operands} operands may write a file`)
  }
}

/** `--out` abbreviates `--output` (getopt and git accept unique prefixes), `--no-ignore-vcs` extends `--no-ignore`. */
function deniedFlag(flag: string, deny: ReaderSpec['deny']): boolean {
  if (!deny) return false
  const long = flag.split('=')[0]
  const isLong = flag.startsWith('--') || deny.long?.includes(long)
  if (isLong) return (deny.long ?? []).some((d) => d === long || (long.startsWith('--') && long.length > 2 && (d.startsWith(long) || long.startsWith(`${d}-`))))
  for (const c of flag.slice(1)) {
    if (!/[A-Za-z.]/.test(c)) break
    if (deny.short?.includes(c)) return true
  }
  return false
}

function describe(type: string): string {
  return `\`${type.replace(/_/g, ' ')}\``
}

function gitCheck(args: string[]): void {
  let i = 0
  while (args[i]?.startsWith('-')) {
    if (!['--no-pager', '-P', '--no-optional-locks'].includes(args[i])) no(`git ${args[i].split('=')[0]} can change what git reads or runs`)
    i++
  }
  const sub = args[i]
  if (sub === undefined) return no('git without a subcommand')
  const rest = args.slice(i + 1)
  const listing = (kind: 'branch' | 'tag') => {
    const allowed = LIST_FLAGS[kind]
    let list = false
    for (let j = 0; j < rest.length; j++) {
      const a = rest[j]
      if (a.startsWith('--')) {
        if (!allowed.long.includes(a.slice(2).split('=')[0])) no(`git ${kind} ${a.split('=')[0]} can change things`)
        if (a === '--list') list = true
        if (TAKES_COMMIT.has(a)) j++
      } else if (a.startsWith('-') && a.length > 1) {
        const letters = kind === 'tag' ? a.replace(/^-n\d*$/, '-n') : a
        if (![...letters.slice(1)].every((c) => allowed.short.includes(c))) no(`git ${kind} ${a} can change things`)
        if (a.includes('l')) list = true
      } else if (!list) no(`git ${kind} ${a} creates a ${kind}`)
    }
  }
  if (sub === 'branch' || sub === 'tag') return listing(sub)
  if (sub === 'remote') {
    if (rest.length === 0 || (rest.length === 1 && ['-v', '--verbose'].includes(rest[0])) || rest[0] === 'get-url') return
    return no(`git remote ${rest[0]} can change things`)
  }
  if (sub === 'stash' && ['list', 'show'].includes(rest[0] ?? '')) return void new Judge().operands('git stash', { deny: GIT_DENY }, rest.slice(1))
  const reflogShow = sub === 'reflog' && (rest[0] === undefined || rest[0] === 'show' || rest[0].startsWith('-'))
  if (!GIT_READERS.has(sub) && !reflogShow) no(`git ${sub} is not a read-only git command`)
  for (const a of rest) {
    if (a === '--') break
    if (deniedFlag(a, GIT_DENY) || (sub === 'grep' && /^-[A-Za-z]*O/.test(a))) no(`git ${sub} ${a.split('=')[0]} can change things`)
  }
}

/** Only printing lines by number (`sed -n 1,20p`, `sed 5q`): other scripts can write files (`w`) or run commands (`e`). */
function sedCheck(args: string[]): void {
  let script: string | undefined
  for (const a of args) {
    if (['-n', '--quiet', '--silent', '-E', '-r', '--regexp-extended'].includes(a)) continue
    if (a.startsWith('-')) no(`sed ${a} can change things`)
    if (script === undefined) {
      script = a
      if (!SAFE_SED_SCRIPT.test(a)) no(`the sed script \`${a}\` may write or run something`)
    }
  }
  if (script === undefined) no('sed without a script')
}
