import fs from 'node:fs'
import path from 'node:path'
import { createScanner, findNodeAtLocation, parse, parseTree, printParseErrorCode, stripComments, type ParseError } from 'jsonc-parser'
import { CompactPermission, describeZodIssues } from '../../src-shared'
import { DEFAULT_PERMISSIONS_JSONC } from './defaults'
import { fromCompact, type RuleSource, type Ruleset } from './ruleset'
import { errnoCode, readText } from '../files'

export interface StaticRulesError {
  file: string
  reason: string
}

export const PERMISSIONS_FILE_NAME = 'permissions.jsonc'

/** Rules files are a few levels deep; a deeper file is refused before a recursive parser could overflow the stack. */
export const MAX_RULES_DEPTH = 32
/** Far above any real rules file; bounds the work a hostile file can cause on every prompt. */
export const MAX_RULES_BYTES = 1024 * 1024

/**
 * Read static permission files (e.g. `[{dataDir}/permissions.jsonc, {workdir}/.agents/permissions.jsonc]`)
 * and concatenate their rules in order. A missing file adds nothing. A file that cannot be read or
 * parsed, or does not have the CompactPermission shape, is reported with line/column or field path
 * and contributes `"*": ask` instead of its rules — a rule that names the file, so a denial can say why.
 * With a label, each rule carries its file and label (for `denied by your permissions.jsonc rule …`).
 */
export function loadStaticRules(files: (string | { file: string; label: string })[]): { rules: Ruleset; errors: StaticRulesError[] } {
  const rules: Ruleset = []
  const errors: StaticRulesError[] = []
  for (const entry of files) {
    const { file, label } = typeof entry === 'string' ? { file: entry, label: undefined } : entry
    const result = loadOne(file)
    if (result.kind === 'missing') continue
    if (result.kind === 'error') {
      errors.push({ file, reason: result.reason })
      const source: RuleSource = { file, label: label ?? PERMISSIONS_FILE_NAME, malformed: result.reason }
      // What a file that cannot be trusted contributes: ask for everything, never allow.
      rules.push({ tool: '*', pattern: '*', action: 'ask', source })
      continue
    }
    const source: RuleSource | undefined = label ? { file, label } : undefined
    rules.push(...(source ? result.rules.map((r) => ({ ...r, source })) : result.rules))
  }
  return { rules, errors }
}

type LoadResult = { kind: 'missing' } | { kind: 'error'; reason: string } | { kind: 'ok'; rules: Ruleset }

function loadOne(file: string): LoadResult {
  // Only a file that does not exist is "no rules"; anything else (EACCES, EISDIR) is an error.
  const read = readText(file)
  if (read.kind === 'missing') return { kind: 'missing' }
  if (read.kind === 'unreadable') return { kind: 'error', reason: `cannot read the file (${read.reason})` }
  let text = read.text
  // Editors on Windows save a UTF-8 byte order mark; it is not part of the JSON.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  if (text.length > MAX_RULES_BYTES) {
    return { kind: 'error', reason: `the file is larger than ${MAX_RULES_BYTES / 1024} KB; a rules file is a short list (until it is fixed every tool call asks)` }
  }
  const tooDeep = deeperThan(text, MAX_RULES_DEPTH)
  if (tooDeep) {
    return {
      kind: 'error',
      reason: `nesting deeper than ${MAX_RULES_DEPTH} levels at line ${tooDeep.line}, column ${tooDeep.column}; rules are at most {"tool": {"pattern": "action"}}. Fix the file; until then every tool call asks`,
    }
  }
  if (stripComments(text).trim() === '') {
    return { kind: 'error', reason: 'the file has no content; write {} for "no rules" (until then every tool call asks)' }
  }
  const parseErrors: ParseError[] = []
  const value: unknown = parse(text, parseErrors, { allowTrailingComma: true, disallowComments: false })
  if (parseErrors.length > 0) {
    const first = parseErrors[0]
    const { line, column } = lineColumn(text, first.offset)
    const more = parseErrors.length > 1 ? ` (and ${parseErrors.length - 1} more)` : ''
    return {
      kind: 'error',
      reason: `invalid JSONC at line ${line}, column ${column}: ${printParseErrorCode(first.error)}${more}. Fix the syntax; until then every tool call asks`,
    }
  }
  const checked = CompactPermission.safeParse(value)
  if (!checked.success) {
    const problem = describeZodIssues(checked.error.issues, value, CompactPermission)[0]
    const keys = problem.segments.filter(isKey)
    const field = keys.length > 0 ? keys.join(' › ') : '(top level)'
    const node = findNodeAtLocation(parseTree(text) ?? emptyNode(), keys)
    const pos = node ? lineColumn(text, node.offset) : undefined
    const where = pos ? `line ${pos.line}, column ${pos.column}, ` : ''
    return {
      kind: 'error',
      reason:
        `${where}field "${field}": ${problem.reason}. Expected {"tool": "allow"|"deny"|"ask"} or ` +
        `{"tool": {"pattern": "allow"|"deny"|"ask"}}; until fixed every tool call asks`,
    }
  }
  return { kind: 'ok', rules: fromCompact(checked.data) }
}

/**
 * Write the commented defaults to `{dataDir}/permissions.jsonc` unless a file is already there
 * (a user's edits are never overwritten). Returns the file's path.
 */
export function ensureDefaultPermissionsFile(dataDir: string): string {
  const file = path.join(dataDir, PERMISSIONS_FILE_NAME)
  fs.mkdirSync(dataDir, { recursive: true })
  try {
    // `wx` so two processes starting at once cannot clobber each other or a user's file.
    fs.writeFileSync(file, DEFAULT_PERMISSIONS_JSONC, { encoding: 'utf8', flag: 'wx' })
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err
  }
  return file
}

/** Where the nesting of `{`/`[` first exceeds `max` (scanned iteratively: strings and comments are skipped). */
function deeperThan(text: string, max: number): { line: number; column: number } | undefined {
  const scanner = createScanner(text, true)
  let depth = 0
  // jsonc-parser's SyntaxKind is a const enum (not importable under isolatedModules): 1 `{`, 2 `}`, 3 `[`, 4 `]`, 17 EOF.
  for (let token = scanner.scan(); token !== 17; token = scanner.scan()) {
    if (token === 1 || token === 3) {
      if (++depth > max) return { line: scanner.getTokenStartLine() + 1, column: scanner.getTokenStartCharacter() + 1 }
    } else if (token === 2 || token === 4) depth = Math.max(0, depth - 1)
  }
  return undefined
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - (before.lastIndexOf('\n') + 1) + 1
  return { line, column }
}

function isKey(segment: PropertyKey): segment is string | number {
  return typeof segment === 'string' || typeof segment === 'number'
}

function emptyNode(): NonNullable<ReturnType<typeof parseTree>> {
  return { type: 'null', offset: 0, length: 0 }
}

