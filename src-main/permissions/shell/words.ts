import { decodeAnsiC } from './ansi-c'
import type { SyntaxNode } from './syntax'

/** One shell word as the permission check sees it. */
export interface ShellWord {
  /** the value after quote removal and escapes (`'rm'`, `r\m`, `$'\x72m'` → `rm`); the source text when not literal */
  value: string
  /** known without running anything: no parameter, command or arithmetic expansion inside */
  literal: boolean
  /** has unquoted glob or brace characters, so the shell may turn it into other words */
  pattern: boolean
  /** starts with an unquoted `~` (tilde expansion) */
  tilde: boolean
  /** the source text */
  source: string
}

/** Called for each part of a word whose value is only known at run time (to find the commands inside it). */
export type OnDynamic = (node: SyntaxNode) => void

const UNQUOTED_GLOB = /[*?[]/
const BRACE = /\{[^{}]*(,|\.\.)[^{}]*\}/

const isPattern = (plain: string) => UNQUOTED_GLOB.test(plain) || BRACE.test(plain)

/**
 * `r\m` → `rm`; a backslash-newline disappears. `plain` keeps only the unescaped characters (escaped ones become
 * `_`), to look for glob and brace syntax; `pattern` says whether it has any.
 */
function unescapeUnquoted(text: string): { value: string; plain: string; pattern: boolean } {
  let value = ''
  let plain = '' // unescaped characters only, to look for glob syntax
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i]
      if (next !== '\n') value += next
      plain += '_'
      continue
    }
    value += c
    plain += c
  }
  return { value, plain, pattern: isPattern(plain) }
}

/** Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c))
}

function literalWord(value: string, source: string, extra: Partial<ShellWord> = {}): ShellWord {
  return { value, literal: true, pattern: false, tilde: false, source, ...extra }
}

function dynamicWord(node: SyntaxNode, onDynamic: OnDynamic): ShellWord {
  onDynamic(node)
  return { value: node.text, literal: false, pattern: false, tilde: false, source: node.text }
}

/** A double-quoted string: literal text and escapes, or dynamic as soon as one expansion is inside. */
function resolveString(node: SyntaxNode, onDynamic: OnDynamic): ShellWord {
  const inner = node.children.filter((c) => c.type !== '"')
  let value = ''
  let literal = true
  for (const part of inner) {
    if (part.type === 'string_content') value += unescapeDoubleQuoted(part.text)
    else if (!part.named) value += part.text // a lone `$` before the closing quote is literal
    else {
      literal = false
      onDynamic(part)
    }
  }
  return literal ? literalWord(value, node.text) : { value: node.text, literal: false, pattern: false, tilde: false, source: node.text }
}

/**
 * Resolves a word node (word, string, raw_string, ansi_c_string, concatenation, expansions, …). Every command
 * or process substitution inside is passed to `onDynamic`, so the commands it runs are checked too.
 */
export function resolveWord(node: SyntaxNode, onDynamic: OnDynamic): ShellWord {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'extglob_pattern':
    case 'variable_name': {
      const { value, pattern } = unescapeUnquoted(node.text)
      return literalWord(value, node.text, { pattern: pattern || node.type === 'extglob_pattern', tilde: node.text.startsWith('~') })
    }
    case 'raw_string':
      return literalWord(node.text.slice(1, -1), node.text)
    case 'ansi_c_string':
      return literalWord(decodeAnsiC(node.text.slice(2, -1)), node.text)
    case 'string':
      return resolveString(node, onDynamic)
    case 'translated_string': {
      const str = node.children.find((c) => c.type === 'string')
      return str ? { ...resolveString(str, onDynamic), source: node.text } : dynamicWord(node, onDynamic)
    }
    case 'concatenation': {
      const parts = node.children.map((c) => resolveWord(c, onDynamic))
      const literal = parts.every((p) => p.literal)
      // `rm{,}` arrives in pieces (`rm`, `{`, `,`, `}`): look for brace and glob syntax across the unquoted ones.
      const plain = node.children.map((c) => (c.type === 'word' || !c.named ? unescapeUnquoted(c.text).plain : '_')).join('')
      return {
        value: literal ? parts.map((p) => p.value).join('') : node.text,
        literal,
        pattern: parts.some((p) => p.pattern) || isPattern(plain),
        tilde: parts[0]?.tilde ?? false,
        source: node.text,
      }
    }
    default:
      // Expansions, substitutions, arithmetic, brace expressions, arrays, and anything the grammar adds later.
      if (!node.named && /^[^$`(){}[\]<>|&;]+$/.test(node.text)) return literalWord(node.text, node.text)
      return dynamicWord(node, onDynamic)
  }
}

/** `/bin/rm` → `rm`, `./tool` → `tool`; a bare name stays as it is. */
export function commandBasename(name: string): string {
  const trimmed = name.replace(/\/+$/, '')
  const slash = trimmed.lastIndexOf('/')
  return slash === -1 ? trimmed : trimmed.slice(slash + 1)
}

/** A word with a known value that no source text produced (an option's attached argument, `echo` for xargs). */
export function knownWord(value: string): ShellWord {
  return { value, literal: true, pattern: false, tilde: false, source: value }
}

/** Words joined with spaces, the way `eval`, `watch` and `parallel` hand them to a shell. */
export function joinWords(words: ShellWord[]): ShellWord {
  const isLiteral = words.every((w) => w.literal)
  const source = words.map((w) => w.source).join(' ')
  return { value: isLiteral ? words.map((w) => w.value).join(' ') : source, literal: isLiteral, pattern: false, tilde: false, source }
}
