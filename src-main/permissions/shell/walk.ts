import { assignmentRisk } from './exec-vectors'
import { parseSyntax, type SyntaxNode } from './syntax'
import type { Parser } from 'web-tree-sitter'
import { unwrap, type Inner } from './unwrap'
import { commandBasename, resolveWord, type ShellWord } from './words'

export interface ShellCommand {
  /** the command as rules see it: normalized words joined with spaces (`rm -f x`) */
  text: string
  /** normalized words; argv[0] is the command's basename (`/bin/rm` → `rm`) */
  argv: string[]
  /** the same command with its leading assignments (`FOO=1 rm x`), checked as well */
  withEnv?: string
  /** what ran it (`sudo`, `bash -c`, `find -exec`, …) */
  via?: string
  /** a wrapper that is also checked as itself (`sudo …`, `doas …`) */
  wrapper?: boolean
}

export interface ShellWrite {
  /** the path as written, `~` expanded; relative paths are relative to the command's folder */
  target: string
  /** what writes it (`>`, `>>`, `tee`, `dd of=`, …) */
  via: string
}

/** How deep `bash -c "bash -c '…'"` and friends are followed before the line simply asks. */
export const MAX_NESTING = 8

interface Ctx {
  /** where the next command's standard input comes from */
  stdin?: { kind: 'text'; word: ShellWord } | { kind: 'pipe' } | { kind: 'file' }
  via?: string
  nesting: number
}

/** Statement containers whose children are walked as they are. */
const NO_STDIN: Omit<Ctx, 'nesting'> = {}
const VAR_NAME_BUILTINS = new Set(['printf', 'read', 'declare', 'typeset', 'local', 'export', 'readonly', 'unset', 'let', 'test', '[', 'mapfile', 'readarray', 'getopts', 'wait'])
const CODE_IN_SUBSCRIPT = /\[[^\]]*(\$\(|`|\$\{)/
const CODE_LIKE = /\$\(|`|\$\{/
const ARITH_BUILTINS = new Set(['let', 'declare', 'typeset', 'local', 'readonly'])
/** Reserved words never name a command; seeing one there means the grammar misread the line (`coproc { …; }`). */
const RESERVED = new Set(['{', '}', '(', ')', '((', '))', '[[', ']]', 'then', 'do', 'done', 'fi', 'esac', 'elif', 'else', 'in', 'function'])

/** One walk over a line (and the scripts it hands to other shells), collecting what would run and write. */
export class ShellWalker {
  readonly commands: ShellCommand[] = []
  readonly mustAsk: string[] = []
  readonly writes: ShellWrite[] = []
  readonly cdTargets: string[] = []
  cdUnknown = false
  private codeLikeAssignment = false
  private evalSite: string | null = null

  constructor(private readonly parser: Parser, private readonly home: string) {}

  run(source: string, ctx: Ctx = { nesting: 0 }): void {
    const root = parseSyntax(this.parser, source)
    this.walk(root, ctx)
    if (this.codeLikeAssignment && this.evalSite) this.ask(`a variable holding shell code may be evaluated by ${this.evalSite}`)
  }

  private ask(reason: string): void {
    if (!this.mustAsk.includes(reason)) this.mustAsk.push(reason)
  }

  private walk(node: SyntaxNode, ctx: Ctx): void {
    if (node.broken) this.ask(node.type === 'ERROR' ? `the line is not valid bash near \`${clip(node.text)}\`` : 'the line is incomplete bash')
    switch (node.type) {
      case 'command':
        return this.command(node, ctx)
      case 'redirected_statement':
        return this.redirected(node, ctx)
      case 'pipeline': {
        let piped = false
        for (const child of node.children) {
          if (child.type === '|' || child.type === '|&') piped = true
          else this.walk(child, piped ? { ...ctx, stdin: { kind: 'pipe' } } : ctx)
        }
        return
      }
      case 'variable_assignment':
        this.assignment(node, ctx)
        return
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, ctx)
      case 'command_substitution':
      case 'process_substitution':
        for (const child of node.children) this.walk(child, { ...NO_STDIN, nesting: ctx.nesting, via: ctx.via })
        return
      case 'expansion':
        if (node.children.some((c, i) => c.text === '@' && node.children[i + 1]?.text === 'P')) {
          this.ask('`${…@P}` expands a variable like a prompt, which runs the command substitutions inside it')
        }
        if (node.children[1]?.text === '!') this.evalSite ??= 'an indirect expansion `${!…}`'
        break
      case 'arithmetic_expansion':
      case 'c_style_for_statement':
      case 'subscript':
        this.evalSite ??= 'arithmetic'
        break
      case 'test_command':
        this.evalSite ??= 'a test `[[ … ]]`'
        break
      case 'compound_statement':
        if (node.children[0]?.type === '((') this.evalSite ??= 'arithmetic `(( … ))`'
        break
      case 'heredoc_body':
      case 'comment':
        // Data. An unquoted here-document's substitutions are found by redirected(); comments never run.
        for (const child of node.children) if (child.type === 'command_substitution') this.walk(child, ctx)
        return
    }
    for (const child of node.children) this.walk(child, { ...ctx, stdin: undefined })
  }

  private word(node: SyntaxNode, ctx: Ctx): ShellWord {
    return resolveWord(node, (dynamic) => this.walk(dynamic, ctx))
  }

  private redirected(node: SyntaxNode, ctx: Ctx): void {
    let stdin = ctx.stdin
    const after: (() => void)[] = []
    for (const r of node.children.filter((c) => c.field === 'redirect' || c.type.endsWith('_redirect'))) {
      if (r.type === 'heredoc_redirect') {
        const body = r.children.find((c) => c.type === 'heredoc_body')
        const start = r.children.find((c) => c.type === 'heredoc_start')?.text ?? ''
        const quoted = /['"\\]/.test(start)
        const dynamic = !quoted && body !== undefined && body.children.some((c) => c.named && c.type !== 'heredoc_content')
        const text = body?.text ?? ''
        stdin = { kind: 'text', word: { value: text, literal: !dynamic, pattern: false, tilde: false, source: text } }
        if (body && !quoted) for (const c of body.children) if (c.type !== 'heredoc_content') this.walk(c, ctx)
        // `cat <<EOF | sh`, `cat <<EOF > out`: the rest of the statement hangs off the here-document node.
        for (const c of r.children) if (c.type === 'pipeline' || c.type === 'file_redirect' || c.type === 'heredoc_redirect') after.push(() => (c.type === 'file_redirect' ? this.fileRedirect(c, ctx) : this.walk(c, ctx)))
      } else if (r.type === 'herestring_redirect') {
        const content = r.children.find((c) => c.named)
        if (content) stdin = { kind: 'text', word: this.word(content, ctx) }
      } else if (r.type === 'file_redirect') {
        if (this.fileRedirect(r, ctx) === 'stdin') stdin = { kind: 'file' }
      } else this.walk(r, ctx)
    }
    const body = node.children.find((c) => c.field === 'body') ?? node.children[0]
    this.walk(body, { ...ctx, stdin })
    after.forEach((f) => f())
  }

  /** A `>`/`>>`/`&>`/`>|` target becomes a write; `<` is reported so a shell reading it knows its stdin. */
  private fileRedirect(node: SyntaxNode, ctx: Ctx): 'stdin' | 'write' | 'other' {
    const op = node.children.find((c) => !c.named)?.text ?? ''
    const dest = node.children.find((c) => c.field === 'destination') ?? node.children.filter((c) => c.named && c.type !== 'file_descriptor').at(-1)
    if (!dest) return 'other'
    const isFd = /^(\d+|-)$/.test(dest.text)
    if ((op === '>&' || op === '<&') && isFd) return 'other'
    if (dest.type === 'process_substitution') {
      this.walk(dest, ctx)
      return 'other'
    }
    const w = this.word(dest, ctx)
    if (op === '<' || op === '<&') return 'stdin'
    this.write(w, op)
    return 'write'
  }

  private write(w: ShellWord, via: string): void {
    if (/^[<>]\(/.test(w.source)) return // a process substitution is a pipe to a command (walked already), not a file
    if (!w.literal) return this.ask(`${via} writes to \`${w.source}\`, a file named only at run time`)
    if (w.pattern) return this.ask(`${via} writes to \`${w.source}\`, a pattern the shell expands`)
    let target = w.value
    if (w.tilde) {
      if (target === '~' || target.startsWith('~/')) target = this.home + target.slice(1)
      else return this.ask(`${via} writes to \`${w.source}\` in another user's home`)
    }
    this.writes.push({ target, via })
  }

  private assignment(node: SyntaxNode, ctx: Ctx): string {
    const name = node.children.find((c) => c.field === 'name')
    const value = node.children.find((c) => c.field === 'value')
    if (name && name.type !== 'variable_name') this.walk(name, ctx)
    const v = value ? this.word(value, ctx) : { value: '', literal: true, pattern: false, tilde: false, source: '' }
    const varName = name?.type === 'subscript' ? (name.children[0]?.text ?? '') : (name?.text ?? '')
    if (v.literal && CODE_LIKE.test(v.value)) this.codeLikeAssignment = true
    this.checkVariable(varName, v, ctx)
    return `${name?.text ?? ''}=${v.value}`
  }

  /** `PAGER='rm x' git log`, `LD_PRELOAD=… ls`: variables that make a program run something else. */
  private checkVariable(name: string, value: ShellWord, ctx: Ctx): void {
    const risk = assignmentRisk(name)
    if (risk === 'code') this.ask(`setting ${name} makes programs load code that this line does not show`)
    if (risk === 'command') this.script(value, `${name}=`, ctx)
  }

  private declaration(node: SyntaxNode, ctx: Ctx): void {
    const words: string[] = []
    for (const c of node.children) {
      if (!c.named) words.push(c.text)
      else if (c.type === 'variable_assignment') words.push(this.assignment(c, ctx))
      else words.push(this.word(c, ctx).value)
    }
    if (ARITH_BUILTINS.has(words[0] ?? '') && words.some((w) => /^-\w*i/.test(w))) this.evalSite ??= `${words[0]} -i`
    if (words.slice(1).some((w) => CODE_IN_SUBSCRIPT.test(w))) this.ask(`${words[0]} evaluates the subscript of a variable name, which can run a command`)
    this.commands.push({ text: words.join(' '), argv: words, via: ctx.via })
  }

  private command(node: SyntaxNode, ctx: Ctx): void {
    const env: string[] = []
    const words: ShellWord[] = []
    let stdin = ctx.stdin
    for (const c of node.children) {
      if (c.type === 'variable_assignment') env.push(this.assignment(c, ctx))
      else if (c.field === 'name') words.unshift(this.word(c.children[0] ?? c, ctx))
      else if (c.field === 'argument') words.push(this.word(c, ctx))
      else if (c.type === 'herestring_redirect') {
        const content = c.children.find((x) => x.named)
        if (content) stdin = { kind: 'text', word: this.word(content, ctx) }
      } else if (c.type === 'file_redirect') {
        if (this.fileRedirect(c, ctx) === 'stdin') stdin = { kind: 'file' }
      } else if (c.named) this.walk(c, ctx)
    }
    if (words.length === 0) return
    this.emit(words, env, { ...ctx, stdin })
  }

  /** Check one command (after its wrappers are peeled off) and whatever it runs in turn. */
  private emit(words: ShellWord[], env: string[], ctx: Ctx): void {
    const [head, ...args] = words
    if (!head.literal) this.ask(`the command name \`${head.source}\` is only known at run time`)
    else if (head.pattern) this.ask(`the command name \`${head.source}\` is a pattern the shell expands`)
    const name = head.literal ? commandBasename(head.value) : head.source
    if (head.literal && RESERVED.has(head.value)) this.ask(`\`${head.value}\` stands where a command should be; Agentry cannot tell what runs`)
    if (VAR_NAME_BUILTINS.has(name) && args.some((a) => a.literal && CODE_IN_SUBSCRIPT.test(a.value))) {
      this.ask(`${name} evaluates the subscript of a variable name, which can run a command`)
    }
    if (ARITH_BUILTINS.has(name) && (name === 'let' || args.some((a) => /^-\w*i/.test(a.value)))) this.evalSite ??= name
    if (name === 'cd' || name === 'pushd') this.cd(args)
    const u = head.literal ? unwrap(name, args) : { self: true, inner: [] as Inner[] }
    if (u.self) {
      const argv = [name, ...(u.selfArgv ?? args).map((w) => (w.literal ? w.value : w.source))]
      const text = argv.join(' ')
      this.commands.push({ text, argv, withEnv: env.length ? `${env.join(' ')} ${text}` : undefined, via: ctx.via, wrapper: u.inner.some((i) => i.kind === 'run') || undefined })
    }
    const via = (what: string): Ctx => ({ ...ctx, stdin: undefined, via: what })
    for (const inner of u.inner) {
      if (inner.kind === 'ask') this.ask(inner.reason)
      else if (inner.kind === 'write') this.write(inner.target, inner.via)
      else if (inner.kind === 'env') this.checkVariable(inner.name, inner.value, ctx)
      else if (inner.kind === 'script') this.script(inner.text, inner.via, ctx)
      else if (inner.kind === 'stdin') {
        if (ctx.stdin?.kind === 'text') this.script(ctx.stdin.word, `${inner.via} <<`, ctx)
        else this.ask(`${inner.via} reads its commands from ${ctx.stdin?.kind === 'pipe' ? 'a pipe' : ctx.stdin?.kind === 'file' ? 'a file' : 'standard input'}, which this line does not show`)
      } else if (inner.argv.length > 0) {
        if (ctx.nesting >= MAX_NESTING) this.ask(`commands are nested more than ${MAX_NESTING} deep`)
        else this.emit(inner.argv, [], { ...via(name), nesting: ctx.nesting + 1, stdin: ctx.stdin })
      }
    }
  }

  /** A string some program runs as a shell script: parsed and walked like the line itself. */
  private script(text: ShellWord, via: string, ctx: Ctx): void {
    if (!text.literal) return this.ask(`${via} runs \`${clip(text.source)}\`, which is only known at run time`)
    if (ctx.nesting >= MAX_NESTING) return this.ask(`commands are nested more than ${MAX_NESTING} deep`)
    this.walk(parseSyntax(this.parser, text.value), { nesting: ctx.nesting + 1, via })
  }

  private cd(args: ShellWord[]): void {
    const operands = args.filter((a) => !(a.literal && /^-[LPe@]+$/.test(a.value)))
    const target = operands[0]
    if (!target) this.cdTargets.push(this.home)
    else if (!target.literal || target.pattern || target.value === '-') this.cdUnknown = true
    else this.cdTargets.push(target.tilde && (target.value === '~' || target.value.startsWith('~/')) ? this.home + target.value.slice(1) : target.value)
  }
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > 60 ? `${one.slice(0, 57)}…` : one
}
