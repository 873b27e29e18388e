import { gitConfigRisk } from './exec-vectors'
import type { Inner, Unwrapped } from './unwrap'
import { joinWords, knownWord as literal, type ShellWord } from './words'

const GLOBAL_FLAGS = new Set([
  '-p', '--paginate', '-P', '--no-pager', '--no-replace-objects', '--bare', '--literal-pathspecs', '--glob-pathspecs',
  '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks', '--no-advice', '-v', '--version', '-h', '--help',
  '--html-path', '--man-path', '--info-path', '--exec-path',
])
const GLOBAL_WITH_ARG = new Set(['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--list-cmds', '--attr-source'])
/** Options of any subcommand whose value is a command git runs through the shell. */
const COMMAND_OPTIONS = ['--upload-pack', '--receive-pack', '--exec', '--extcmd']

/**
 * git runs commands of its own: `-c alias.x='!cmd'`, `-c core.fsmonitor=cmd`, `rebase --exec`, `bisect run`,
 * `submodule foreach`, `--upload-pack=cmd`. Those are checked like the line; config keys that are not known to be
 * harmless ask.
 */
export function gitInner(args: ShellWord[]): Unwrapped {
  const inner: Inner[] = []
  const askFor = (reason: string): Unwrapped => ({ self: true, inner: [...inner, { kind: 'ask', reason }] })
  let i = 0
  for (; i < args.length; i++) {
    const w = args[i]
    if (!w.literal) return askFor(`cannot tell whether \`${w.source}\` is an option of git`)
    const v = w.value
    if (!v.startsWith('-')) break
    if (v === '-c' || v === '--config-env') {
      const kv = args[++i]
      if (!kv) return askFor(`git ${v} is missing its KEY=VALUE`)
      if (!kv.literal) return askFor(`git ${v} \`${kv.source}\` is only known at run time`)
      const risk = gitConfigRisk(kv.value)
      if (risk) inner.push({ kind: 'ask', reason: risk })
    } else if (v.startsWith('-c') || v.startsWith('--config-env=')) {
      const risk = gitConfigRisk(v.startsWith('-c') ? v.slice(2) : v.slice('--config-env='.length))
      if (risk) inner.push({ kind: 'ask', reason: risk })
    } else if (v.startsWith('--exec-path=')) {
      return askFor('git --exec-path=DIR runs git commands from that folder')
    } else if (GLOBAL_WITH_ARG.has(v)) i++
    else if (!GLOBAL_FLAGS.has(v) && ![...GLOBAL_WITH_ARG].some((o) => v.startsWith(`${o}=`))) {
      return askFor(`git has a global option Agentry does not know (\`${v}\`)`)
    }
  }
  const sub = args[i]?.literal ? args[i].value : undefined
  const rest = args.slice(i + 1)
  for (let j = 0; j < rest.length; j++) {
    const w = rest[j]
    const v = w.literal ? w.value : w.source
    const command = COMMAND_OPTIONS.find((o) => v === o || v.startsWith(`${o}=`))
    const rebaseExec = sub === 'rebase' && (v === '-x' || (v.startsWith('-x') && v.length > 2))
    const difftoolExec = (sub === 'difftool' || sub === 'mergetool') && v === '-x'
    if (command || rebaseExec || difftoolExec) {
      const attached = command ? v.slice(command.length + 1) : v.slice(2)
      const text = (command ? v.includes('=') : v.length > 2) ? literal(attached) : rest[++j]
      if (!text) return askFor(`git ${sub} ${v} is missing its command`)
      if (!w.literal) return askFor(`git ${sub} \`${w.source}\` is only known at run time`)
      inner.push({ kind: 'script', text, via: `git ${sub} ${command ?? '-x'}` })
    }
    if ((sub === 'clone' || sub === 'init') && (v === '-c' || v === '--config' || v.startsWith('--config=')) && w.literal) {
      const kv = v.startsWith('--config=') ? v.slice(9) : rest[++j]?.value
      const risk = kv === undefined ? 'git clone -c is missing its KEY=VALUE' : gitConfigRisk(kv)
      if (risk) inner.push({ kind: 'ask', reason: risk })
    }
    if (sub === 'clone' && (v === '--template' || v.startsWith('--template='))) inner.push({ kind: 'ask', reason: 'git clone --template installs hooks that git then runs' })
  }
  if (sub === 'bisect' && rest[0]?.literal && rest[0].value === 'run') inner.push({ kind: 'run', argv: rest.slice(1) })
  if (sub === 'submodule') {
    const at = rest.findIndex((w) => w.literal && w.value === 'foreach')
    if (at !== -1) {
      const cmd = rest.slice(at + 1).filter((w, k, all) => !(w.literal && ['--recursive', '-q', '--quiet'].includes(w.value) && all.slice(0, k).every((x) => x.value.startsWith('-'))))
      if (cmd.length) inner.push({ kind: 'script', text: joinWords(cmd), via: 'git submodule foreach' })
    }
  }
  return { self: true, inner }
}
