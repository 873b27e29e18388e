import { z } from 'zod'

/**
 * The one place zod issues become words — for user-written files (config, agents, permissions, scripts), tool
 * arguments the model sent, and bridge payloads. One problem per mistake, phrased for whoever has to fix it.
 */
export interface FieldProblem {
  /** dotted path such as `subagents.maxDepth` or `permission.read_file["*.env"]`; '' for the whole value */
  path: string
  /** the same path as keys, for callers that locate it in a source text */
  segments: PropertyKey[]
  reason: string
}

export interface DescribeOptions {
  /**
   * Quote the offending value in the reason (default true). Off for untrusted payloads (bridge calls): those
   * values may be huge or secret, so the reason names only their type.
   */
  echoValues?: boolean
}

type Issue = z.core.$ZodIssue
type Path = readonly PropertyKey[]

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/
const MAX_KEY = 60

/** `['permission', 'read_file', '*.env']` → `permission.read_file["*.env"]` */
export function formatPath(path: Path): string {
  let out = ''
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`
    else if (typeof seg === 'string' && PLAIN_KEY.test(seg) && seg.length <= MAX_KEY) out += out ? `.${seg}` : seg
    else out += `[${JSON.stringify(clip(String(seg), MAX_KEY))}]`
  }
  return out
}

/** `root` + path: `input.sessionId`, `input.patterns[1]`, `output` for the whole value. */
export function pathUnder(root: string, path: string): string {
  if (!path) return root
  return path.startsWith('[') ? `${root}${path}` : `${root}.${path}`
}

/** `a: reason; b: reason (and 2 more)` — problems as one line, optionally under a root name such as `input`. */
export function problemsLine(problems: readonly FieldProblem[], o: { root?: string; top?: string; max?: number } = {}): string {
  const max = o.max ?? problems.length
  const where = (p: FieldProblem) => (o.root !== undefined ? pathUnder(o.root, p.path) : p.path || (o.top ?? '(top level)'))
  const shown = problems.slice(0, max).map((p) => `${where(p)}: ${p.reason}`)
  const more = problems.length > max ? ` (and ${problems.length - max} more)` : ''
  return `${shown.join('; ')}${more}`
}

export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`
}

export function valueAt(root: unknown, path: Path): unknown {
  let cur = root
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<PropertyKey, unknown>)[seg]
  }
  return cur
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/**
 * Turns zod issues into one plain-words problem per mistake. zod's own messages
 * ("Invalid input", "expected record") read like a stack trace to a user editing YAML;
 * here every reason says what the value must be and what was found.
 */
export function describeZodIssues(issues: readonly Issue[], input: unknown, schema?: z.core.$ZodType, options: DescribeOptions = {}): FieldProblem[] {
  const ctx: Ctx = { root: input, schema, echo: options.echoValues ?? true }
  return issues.flatMap((issue) => describeIssue(issue, [], ctx))
}

type Ctx = { root: unknown; schema: z.core.$ZodType | undefined; echo: boolean }

function describeIssue(issue: Issue, prefix: Path, ctx: Ctx): FieldProblem[] {
  const path = [...prefix, ...issue.path]
  const value = valueAt(ctx.root, path)
  const at = (reason: string): FieldProblem[] => [{ path: formatPath(path), segments: [...path], reason }]
  const got = (v: unknown) => (ctx.echo ? gotValue(v) : '')
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return at('required')
      return at(`must be ${expectedName(issue.expected)}, not ${ctx.echo ? typeName(value) : kindName(value)}`)
    case 'invalid_value':
      if (isCustom(issue)) return at(issue.message)
      return at(`must be ${oneOf(issue.values)}${got(value)}`)
    case 'unrecognized_keys': {
      const known = ctx.schema ? objectKeysAt(ctx.schema, path) : undefined
      const hint = known ? `; known keys: ${known.join(', ')}` : ''
      return issue.keys.map((key) => ({ path: formatPath([...path, key]), segments: [...path, key], reason: `unknown key${hint}` }))
    }
    case 'invalid_key': {
      const last = path[path.length - 1]
      const inner = issue.issues.map((i) => reasonOf(i)).join('; ')
      return at(`invalid name ${JSON.stringify(clip(String(last), MAX_KEY))}: ${inner}`)
    }
    case 'invalid_union':
      return describeUnion(issue, path, value, ctx)
    default:
      return at(reasonOf(issue) + got(value))
  }
}

/** A message the schema's author wrote (zod's own all start like this): it is used as it is. */
function isCustom(issue: Issue): boolean {
  return !/^(Invalid|Too (small|big)|Unrecognized)/.test(issue.message)
}

/** Reason text for issues whose meaning does not depend on where the value sits. */
function reasonOf(issue: Issue): string {
  if (isCustom(issue) && issue.code !== 'custom') return issue.message
  switch (issue.code) {
    case 'too_small': {
      const n = String(issue.minimum)
      if (issue.origin === 'string') return issue.minimum === 1 ? 'must not be empty' : `must be at least ${n} characters`
      if (issue.origin === 'array') return `must have at least ${n} items`
      return issue.inclusive === false ? `must be greater than ${n}` : `must be at least ${n}`
    }
    case 'too_big': {
      const n = String(issue.maximum)
      if (issue.origin === 'string') return `must be at most ${n} characters`
      if (issue.origin === 'array') return `must have at most ${n} items`
      return issue.inclusive === false ? `must be less than ${n}` : `must be at most ${n}`
    }
    case 'invalid_format':
      if (issue.format === 'url') return 'must be a URL such as http://127.0.0.1:11434'
      // Schemas in src-shared give regex checks a human message; zod's default one starts with "Invalid".
      if (!issue.message.startsWith('Invalid')) return issue.message
      return issue.pattern ? `must match ${issue.pattern}` : `must be a valid ${issue.format}`
    case 'invalid_type':
      return `must be ${expectedName(issue.expected)}`
    case 'invalid_value':
      return `must be ${oneOf(issue.values)}`
    default:
      return issue.message
  }
}

function describeUnion(issue: Extract<Issue, { code: 'invalid_union' }>, path: Path, value: unknown, ctx: Ctx): FieldProblem[] {
  const branches = issue.errors
  // A mapping was clearly meant for the branch that accepts mappings: report that branch's inner problems.
  if (isPlainObject(value)) {
    // The branch that accepted the mapping itself reports problems only *inside* it.
    const fitting = branches.find((b) => b.length > 0 && b.every((i) => i.path.length > 0))
    if (fitting) return fitting.flatMap((i) => describeIssue(i, path, ctx))
  }
  const options = branches.flatMap((b) => b.filter((i) => i.path.length === 0).map((i) => expectation(i)))
  const unique = [...new Set(options)]
  const reason = unique.length ? `must be ${unique.join(' or ')}${ctx.echo ? gotValue(value) : ''}` : issue.message
  return [{ path: formatPath(path), segments: [...path], reason }]
}

function expectation(issue: Issue): string {
  if (issue.code === 'invalid_value') return oneOf(issue.values)
  if (issue.code === 'invalid_type') {
    return issue.expected === 'record' ? 'a mapping of pattern → action' : expectedName(issue.expected)
  }
  return reasonOf(issue).replace(/^must be /, '')
}

function expectedName(expected: string): string {
  switch (expected) {
    case 'int':
      return 'a whole number'
    case 'boolean':
      return 'true or false'
    case 'record':
    case 'object':
      return 'a mapping (key: value)'
    case 'array':
      return 'a list'
    default:
      return `a ${expected}`
  }
}

/** What kind of value it is, without showing it. */
function kindName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  return `a ${typeof value}`
}

export function typeName(value: unknown): string {
  if (value === null) return 'null (empty)'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value === 'string') return `the text ${preview(value)}`
  return `${typeof value === 'number' ? 'the number' : typeof value} ${String(value)}`
}

function oneOf(values: readonly unknown[]): string {
  const shown = values.map((v) => JSON.stringify(v))
  if (shown.length === 1) return shown[0]
  return `one of ${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`
}

function gotValue(value: unknown): string {
  if (value === undefined || (typeof value === 'object' && value !== null)) return ''
  return ` (got ${typeof value === 'string' ? preview(value) : String(value)})`
}

function preview(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)
}

type AnySchema = z.core.$ZodType

function unwrap(schema: AnySchema): AnySchema {
  let s = schema
  while (s instanceof z.ZodDefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap()
  return s
}

/** The keys an object schema accepts at `path`, so an "unknown key" message can list the right ones. */
export function objectKeysAt(schema: AnySchema, path: Path): string[] | undefined {
  let s: AnySchema | undefined = schema
  for (const seg of path) {
    const u: AnySchema = unwrap(s)
    if (u instanceof z.ZodObject) s = (u.shape as Record<string, AnySchema>)[String(seg)]
    else if (u instanceof z.ZodRecord) s = u.valueType
    else return undefined
    if (!s) return undefined
  }
  const u = unwrap(s)
  return u instanceof z.ZodObject ? Object.keys(u.shape) : undefined
}
