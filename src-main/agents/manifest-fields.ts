import { CompactPermission, describeZodIssues, parseMcpToolName, type AgentFormat, type AgentMcpServer, type AgentWarning } from '../../src-shared'
import { readMcpServersField } from './mcp-servers-field'
import { PermissionBuilder } from './permission-builder'
import { AGENTRY_TOOLS, lookupClaudeTool, lookupOpencodeTool, NOT_NEEDED, type ToolLookup } from './tool-names'

/** A problem that makes the file's intent unknowable: the file is skipped. */
export interface FieldError {
  field: string
  reason: string
}

/** What the frontmatter says, in Agentry's field names, before types and defaults are checked. */
export interface MappedFields {
  /** Agentry field → value (description, mode, permission, maxSteps, model, …) */
  settings: Record<string, unknown>
  /** Agentry field → the key the author wrote (`maxSteps` ← `maxTurns`), for messages */
  origin: Record<string, string>
  warnings: AgentWarning[]
  errors: FieldError[]
  format: AgentFormat
  disabled: boolean
  mcpTools: string[]
  mcpServers?: AgentMcpServer[]
}

/** Fields Agentry takes as they are. */
const DIRECT = ['description', 'mode', 'model', 'temperature', 'maxOutputTokens', 'inspectable', 'caller', 'background', 'hidden', 'color', 'isolation', 'budget']
/** Other names for Agentry fields: opencode's `steps`/`top_p`, Claude Code's `maxTurns`. */
const RENAMED: Record<string, string> = { maxSteps: 'maxSteps', steps: 'maxSteps', maxTurns: 'maxSteps', top_p: 'topP', topP: 'topP' }
/** Keys other hosts use that mean nothing here, with the one-line reason shown as a warning. */
const IGNORED: Record<string, string> = {
  memory: 'persistent agent memory is not supported here; ignored',
  hooks: 'agent hooks are not supported here; ignored',
  effort: 'reasoning effort is not set per agent here; ignored',
  initialPrompt: 'an initial prompt is not supported here; ignored',
  variant: 'model variants are not supported here; ignored',
  options: 'provider options per agent are not supported here; ignored',
  hidden_from_cycle: 'there is no agent cycling here; ignored',
  prompt: 'the prompt is the text below the frontmatter; this key is ignored',
}
const CLAUDE_KEYS = ['disallowedTools', 'permissionMode', 'maxTurns', 'mcpServers', 'skills', 'memory', 'isolation', 'hooks', 'effort', 'initialPrompt']
const OPENCODE_KEYS = ['steps', 'top_p', 'disable', 'variant', 'options', 'hidden_from_cycle', 'permissions']
const HANDLED = new Set(['name', 'permission', 'permissions', 'tools', 'disallowedTools', 'permissionMode', 'mcpServers', 'disable', 'skills', ...DIRECT, ...Object.keys(RENAMED), ...Object.keys(IGNORED)])

/**
 * Maps one frontmatter (Agentry's, Claude Code's or opencode's fields, or a mix) onto Agentry's agent fields.
 * `folderFormat` is the format of the folder the file was found in; a file in Agentry's own folders is
 * recognised by its fields. Unknown keys become warnings; only values whose meaning is unclear are errors.
 */
export function mapFields(raw: Record<string, unknown>, folderFormat: AgentFormat, lineOf: (key: string) => number | undefined, source: 'user' | 'project' = 'project'): MappedFields {
  const format = folderFormat === 'agentry' ? detectFormat(raw) : folderFormat
  const out: MappedFields = { settings: {}, origin: {}, warnings: [], errors: [], format, disabled: false, mcpTools: [] }
  const warn = (field: string, reason: string) => out.warnings.push({ field, reason, ...lineAt(lineOf, field) })
  const set = (field: string, value: unknown, key: string) => {
    if (Object.hasOwn(out.origin, field) && out.origin[field] !== key) warn(key, `says the same as ${out.origin[field]}, which it replaces`)
    out.settings[field] = value
    out.origin[field] = key
  }

  for (const key of DIRECT) if (Object.hasOwn(raw, key)) set(key, raw[key], key)
  for (const [key, field] of Object.entries(RENAMED)) if (Object.hasOwn(raw, key)) set(field, raw[key], key)
  for (const [key, reason] of Object.entries(IGNORED)) if (Object.hasOwn(raw, key)) warn(key, reason)
  if (!Object.hasOwn(raw, 'mode') && format === 'claude') set('mode', 'subagent', 'mode')
  if (Object.hasOwn(raw, 'disable')) {
    if (typeof raw.disable === 'boolean') out.disabled = raw.disable
    else out.errors.push({ field: 'disable', reason: `must be true or false (got ${JSON.stringify(raw.disable)})` })
  }
  if (Object.hasOwn(raw, 'mcpServers') && raw.mcpServers !== null) out.mcpServers = readMcpServersField(raw.mcpServers, source, warn)
  if (Object.hasOwn(raw, 'skills') && raw.skills !== null) {
    const names = skillNames(raw.skills)
    if (names) set('skills', names, 'skills')
    else warn('skills', `must be a list of skill names, or "a, b" (got ${JSON.stringify(raw.skills)}); no skill is preloaded`)
  }
  for (const key of Object.keys(raw)) {
    if (!HANDLED.has(key)) warn(key, 'not an agent setting here; ignored')
  }

  const permission = buildPermission(raw, out, warn)
  if (permission) {
    out.settings.permission = permission
    out.origin.permission = Object.hasOwn(raw, 'permission') ? 'permission' : Object.hasOwn(raw, 'permissions') ? 'permissions' : 'tools'
  }
  return out
}

/** Claude Code's `skills:` — a list, or one line of names separated by commas; undefined when it is neither. */
function skillNames(value: unknown): string[] | undefined {
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined
  if (!items || !items.every((i) => typeof i === 'string')) return undefined
  return [...new Set((items as string[]).map((i) => i.trim()).filter(Boolean))]
}

/** Claude Code (`tools: Read, Grep`) or opencode (`tools: {write: false}`), recognised by the fields only they use. */
function detectFormat(raw: Record<string, unknown>): AgentFormat {
  const tools = raw.tools
  if (CLAUDE_KEYS.some((k) => Object.hasOwn(raw, k))) return 'claude'
  // A list of Agentry's own tool names (what the "New agent" form writes) is Agentry's format.
  if (typeof tools === 'string' || Array.isArray(tools)) return listsOnlyOurs(tools) ? 'agentry' : 'claude'
  if (typeof raw.model === 'string' && raw.model !== 'inherit' && !raw.model.includes('/')) return 'claude'
  if ((tools !== null && typeof tools === 'object') || OPENCODE_KEYS.some((k) => Object.hasOwn(raw, k))) return 'opencode'
  return 'agentry'
}

function listsOnlyOurs(tools: string | unknown[]): boolean {
  const names = (typeof tools === 'string' ? tools.split(',') : tools).map((t) => (typeof t === 'string' ? t.trim() : ''))
  return names.every((t) => t === '' || (AGENTRY_TOOLS as readonly string[]).includes(t))
}

type Warn = (field: string, reason: string) => void

/** tools → permission → disallowedTools → permissionMode, in that order (later rules win). */
function buildPermission(raw: Record<string, unknown>, out: MappedFields, warn: Warn): CompactPermission | undefined {
  const keys = ['tools', 'permission', 'permissions', 'disallowedTools', 'permissionMode']
  if (!keys.some((k) => Object.hasOwn(raw, k) && raw[k] !== null && raw[k] !== undefined)) return undefined
  const b = new PermissionBuilder()
  const tools = raw.tools
  if (typeof tools === 'string' || Array.isArray(tools)) applyAllowList(b, tools, out, warn)
  else if (tools !== null && typeof tools === 'object') applyToolSwitches(b, tools as Record<string, unknown>, out, warn)
  else if (tools !== undefined && tools !== null) out.errors.push({ field: 'tools', reason: `must be a list of tool names, "Read, Grep, …", or a mapping such as {write: false} (got ${JSON.stringify(tools)})` })

  for (const key of ['permission', 'permissions']) {
    if (!Object.hasOwn(raw, key) || raw[key] === null) continue
    if (key === 'permissions') warn(key, 'read as "permission" (the key opencode and Agentry use); rename it')
    applyPermissionMap(b, raw[key], key, out, warn)
  }
  if (Object.hasOwn(raw, 'disallowedTools') && raw.disallowedTools !== null) {
    for (const entry of toolEntries(raw.disallowedTools, 'disallowedTools', out)) {
      const found = lookupClaudeTool(entry.name)
      if (found.kind === 'tools') for (const t of found.tools) b.denyLast(t, entry.pattern && patternFor(t, entry.pattern))
      else if (found.kind === 'mcp') b.denyLast(mcpRuleName(entry.name))
      else noteTool(found, entry.name, 'disallowedTools', warn, out)
    }
  }
  if (Object.hasOwn(raw, 'permissionMode')) applyPermissionMode(b, raw.permissionMode, warn)
  return b.build()
}

/** Claude Code's `tools:` — only these tools are offered. */
function applyAllowList(b: PermissionBuilder, tools: unknown, out: MappedFields, warn: Warn): void {
  const entries = toolEntries(tools, 'tools', out)
  // An empty list or "*" means every tool, as in Claude Code.
  if (entries.length === 0) return warn('tools', 'is empty; every tool is offered, as if it were not given')
  if (entries.some((e) => e.name === '*')) return
  b.set('*', 'deny')
  for (const entry of entries) {
    const found = lookupClaudeTool(entry.name)
    if (found.kind === 'tools') for (const t of found.tools) b.add(t, entry.pattern && patternFor(t, entry.pattern), 'allow')
    else if (found.kind === 'mcp') b.add(noteMcpTool(entry.name, out), undefined, 'allow')
    else noteTool(found, entry.name, 'tools', warn, out)
  }
}

/** opencode's `tools: {name: true|false}`: switches a tool on or off, over the default. */
function applyToolSwitches(b: PermissionBuilder, tools: Record<string, unknown>, out: MappedFields, warn: Warn): void {
  for (const [name, on] of Object.entries(tools)) {
    if (typeof on !== 'boolean') {
      out.errors.push({ field: `tools.${name}`, reason: `must be true or false (got ${JSON.stringify(on)})` })
      continue
    }
    const found = lookupOpencodeTool(name)
    if (found.kind === 'tools') for (const t of found.tools) b.set(t, on ? 'allow' : 'deny')
    // A switch over the default: it does not limit which servers the agent sees (a `tools:` allow-list does).
    else if (found.kind === 'mcp') b.set(mcpRuleName(name), on ? 'allow' : 'deny')
    // Switching off a tool that does not exist here changes nothing: no need to say so.
    else if (on) noteTool(found, name, `tools.${name}`, warn, out)
  }
}

/** A `permission` map: Agentry tool names (or globs) as they are, opencode's keys mapped. */
function applyPermissionMap(b: PermissionBuilder, value: unknown, key: string, out: MappedFields, warn: Warn): void {
  const map = typeof value === 'string' ? { '*': value } : value
  const parsed = CompactPermission.safeParse(map)
  if (!parsed.success) {
    for (const p of describeZodIssues(parsed.error.issues, map)) out.errors.push({ field: p.path ? `${key}.${p.path}` : key, reason: p.reason })
    return
  }
  for (const [name, written] of Object.entries(parsed.data)) {
    const rule = catchAllFirst(written, `${key}.${name}`, warn)
    const found = lookupOpencodeTool(name)
    if (found.kind === 'tools') for (const t of found.tools) b.set(t, rule)
    // An MCP tool's rule applies as written, to whichever configured server offers it.
    else if (found.kind === 'mcp') b.set(mcpRuleName(name), rule)
    // Denying a tool that does not exist here changes nothing: no need to say so.
    else if (isDenyOnly(rule)) continue
    else if (found.kind === 'unknown') {
      // Kept as written: it may name a tool added later (an MCP tool); it decides nothing today.
      b.set(name, rule)
      warn(`${key}.${name}`, `no tool here is called "${name}"; the rule is kept but has no effect`)
    } else noteTool(found, name, `${key}.${name}`, warn, out)
  }
}

/**
 * `{contextscout: allow, "*": deny}`: the last matching rule wins, so a catch-all written after specific patterns
 * would override them all — never what the author meant (older opencode sorted patterns by specificity). The
 * catch-all moves first, and the warning says so.
 */
function catchAllFirst(rule: CompactPermission[string], field: string, warn: Warn): CompactPermission[string] {
  if (typeof rule === 'string') return rule
  const keys = Object.keys(rule)
  const catchAll: string[] = keys.filter((k) => k === '*' || k === '**')
  if (catchAll.length === 0 || keys.slice(0, catchAll.length).every((k) => catchAll.includes(k))) return rule
  warn(field, `"${catchAll[0]}" moved before the specific patterns: the last matching rule wins, so listed last it would override them all`)
  return Object.fromEntries([...catchAll.map((k) => [k, rule[k]] as const), ...keys.filter((k) => !catchAll.includes(k)).map((k) => [k, rule[k]] as const)])
}

function isDenyOnly(rule: CompactPermission[string]): boolean {
  return typeof rule === 'string' ? rule === 'deny' : Object.values(rule).every((a) => a === 'deny')
}

function applyPermissionMode(b: PermissionBuilder, mode: unknown, warn: Warn): void {
  switch (mode) {
    case 'default':
      return
    case 'plan':
      // Claude Code's plan mode: look, do not touch.
      for (const t of ['write_file', 'edit_file', 'bash']) b.denyLast(t)
      return
    case 'acceptEdits':
    case 'bypassPermissions':
    case 'auto':
      return warn('permissionMode', `"${mode}" is ignored: approvals here follow permissions.jsonc and the agent's rules, and an agent file cannot switch them off`)
    case 'dontAsk':
      return warn('permissionMode', '"dontAsk" is ignored: a call that would ask still asks here (headless runs deny it)')
    default:
      return warn('permissionMode', `unknown mode ${JSON.stringify(mode)}; ignored (Claude Code knows default, acceptEdits, plan, bypassPermissions, dontAsk)`)
  }
}

function noteTool(found: ToolLookup, name: string, field: string, warn: Warn, out: MappedFields): void {
  if (found.kind === 'mcp') noteMcpTool(name, out)
  else if (found.kind === 'unavailable') warn(field, `${name} is not available here${NOT_NEEDED[name] ? ` (${NOT_NEEDED[name]})` : ''}`)
  else if (found.kind === 'unknown') warn(field, `${name} is not a tool known here; ignored`)
}

/** An MCP tool an agent file grants: remembered (its server is one the agent sees); returns its rule's tool name. */
function noteMcpTool(name: string, out: MappedFields): string {
  if (!out.mcpTools.includes(name)) out.mcpTools.push(name)
  return mcpRuleName(name)
}

/** `mcp__github` (Claude Code: every tool of the server) → `mcp__github__*`; a full tool name stays as it is. */
function mcpRuleName(name: string): string {
  return parseMcpToolName(name) || /[*?[\]{}]/.test(name) ? name : `${name.replace(/_+$/, '')}__*`
}

interface ToolEntry {
  name: string
  /** `Bash(git push:*)` → `git push:*` */
  pattern?: string
}

/** `"Read, Grep, Bash(git add:*, git commit:*)"` or a YAML list of such entries → one entry per tool. */
function toolEntries(value: unknown, field: string, out: MappedFields): ToolEntry[] {
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined
  if (!items) {
    out.errors.push({ field, reason: `must be a list of tool names such as "Read, Grep" (got ${JSON.stringify(value)})` })
    return []
  }
  const entries: ToolEntry[] = []
  for (const item of items) {
    if (typeof item !== 'string') {
      out.errors.push({ field, reason: `must list tool names as text (got ${JSON.stringify(item)})` })
      continue
    }
    for (const part of splitOutsideParens(item)) {
      const m = /^([^()\s]+)\s*(?:\((.*)\))?$/.exec(part)
      if (!m) {
        out.errors.push({ field, reason: `cannot read the tool entry "${part}"; write a name such as Read or Bash(git status:*)` })
        continue
      }
      for (const pattern of m[2] === undefined ? [undefined] : splitOutsideParens(m[2])) entries.push({ name: m[1], pattern })
    }
  }
  return entries
}

function splitOutsideParens(s: string): string[] {
  const parts: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of s) {
    if (ch === '(') depth++
    if (ch === ')') depth = Math.max(0, depth - 1)
    if (ch === ',' && depth === 0) {
      if (cur.trim()) parts.push(cur.trim())
      cur = ''
      continue
    }
    cur += ch
  }
  if (cur.trim()) parts.push(cur.trim())
  return parts
}

/**
 * A Claude Code rule pattern as an Agentry pattern: `git push:*` (prefix) → `git push*`, `./src/**` → `src/**`,
 * `domain:example.com` → `example.com` (web_fetch is matched on the host).
 */
function patternFor(tool: string, pattern: string): string {
  const p = pattern.trim()
  if (tool === 'bash') return p.endsWith(':*') ? `${p.slice(0, -2)}*` : p
  if (tool === 'web_fetch') return p.replace(/^domain:/, '')
  return p.replace(/^\.\//, '')
}

function lineAt(lineOf: (key: string) => number | undefined, field: string): { line?: number } {
  const line = lineOf(field) ?? lineOf(field.split('.')[0])
  return line === undefined ? {} : { line }
}
