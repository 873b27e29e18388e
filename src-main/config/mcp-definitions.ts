import path from 'node:path'
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser'
import { describeZodIssues, formatPath, isPlainObject, isStdioServer, MCP_SERVER_NAME_HINT, MCP_SERVER_NAME_RE, McpHttpServer, McpStdioServer, type McpServerConfig, type McpServerSource } from '../../src-shared'
import { readText } from '../files'

/** A problem in one server definition: dotted path and reason. */
export interface DefinitionProblem {
  path: string
  reason: string
}

/** Claude Code's project file of MCP servers, read from the workspace root. */
export const MCP_JSON_FILE = '.mcp.json'

/** One configured MCP server after every file has been read: usable or not, and from where. */
export interface McpServerEntry {
  name: string
  /** null when the definition cannot be used (`errors` says why); the server is then shown but never started */
  config: McpServerConfig | null
  source: McpServerSource
  /** defined by a workspace file the person has not trusted: shown, never started */
  needsTrust: boolean
  /** why the definition cannot be used, each with file, path and reason */
  errors: string[]
  /** what was ignored or replaced (unknown keys, an earlier definition of the same name) */
  notes: string[]
}

/** A whole MCP file that could not be used (not JSON, no `mcpServers` mapping): file and reason. */
export interface McpFileProblem {
  file: string
  path: string
  reason: string
}

export interface McpLayer {
  entries: McpServerEntry[]
  problems: McpFileProblem[]
}

/**
 * The servers of one `mcp:` section (config.yaml) or `mcpServers` object (.mcp.json): each checked on its own, so a
 * malformed entry disables only that server. `where` is the dotted path of the section, for messages.
 */
export function parseMcpSection(raw: unknown, o: { file: string; where: string; scope: McpServerSource['scope']; needsTrust: boolean }): McpLayer {
  if (raw === undefined || raw === null) return { entries: [], problems: [] }
  if (!isPlainObject(raw)) {
    return { entries: [], problems: [{ file: o.file, path: o.where, reason: 'must be a mapping of server name → { command, args, env } or { url, headers }' }] }
  }
  const entries = Object.entries(raw).map(([name, value]) => {
    const checked = parseServerDefinition(name, value, formatPath([o.where, name]))
    const at = (p: DefinitionProblem) => `${o.file}: ${p.path}: ${p.reason}`
    return {
      name,
      config: checked.config,
      source: { file: o.file, scope: o.scope },
      needsTrust: o.needsTrust,
      errors: checked.errors.map(at),
      notes: checked.notes.map(at),
    }
  })
  return { entries, problems: [] }
}

/**
 * One server definition. A definition with `command` is a stdio server, one with `url` an HTTP server. Unknown keys
 * (other clients' settings such as `autoApprove`) are ignored with a note; any other mistake makes it unusable.
 */
export function parseServerDefinition(name: string, value: unknown, where: string): { config: McpServerConfig | null; errors: DefinitionProblem[]; notes: DefinitionProblem[] } {
  const errors: DefinitionProblem[] = []
  const notes: DefinitionProblem[] = []
  if (!MCP_SERVER_NAME_RE.test(name)) errors.push({ path: where, reason: `invalid server name ${JSON.stringify(name)}: ${MCP_SERVER_NAME_HINT}` })
  if (!isPlainObject(value)) {
    errors.push({ path: where, reason: 'must be a mapping with command (a program to start, with args and env) or url (a server to connect to, with headers)' })
    return { config: null, errors, notes }
  }
  const schema = 'command' in value ? McpStdioServer : 'url' in value ? McpHttpServer : undefined
  if (!schema) {
    errors.push({ path: where, reason: 'needs command (a program to start, with args and env) or url (a server to connect to, with headers)' })
    return { config: null, errors, notes }
  }
  const input: Record<string, unknown> = { ...value }
  let parsed = schema.safeParse(input)
  if (!parsed.success) {
    const unknown = parsed.error.issues.filter((i) => i.code === 'unrecognized_keys' && i.path.length === 0).flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : []))
    for (const key of unknown) {
      notes.push({ path: `${where}.${key}`, reason: 'not a setting here; ignored' })
      delete input[key]
    }
    parsed = schema.safeParse(input)
  }
  if (!parsed.success) {
    for (const p of describeZodIssues(parsed.error.issues, input, schema)) errors.push({ path: p.path ? `${where}.${p.path}` : where, reason: p.reason })
  }
  if (errors.length || !parsed.success) return { config: null, errors, notes }
  return { config: parsed.data, errors, notes }
}

/**
 * `{workdir}/.mcp.json`: `{"mcpServers": {name: {…}}}`. A missing file is no servers; a file that is not JSON or has
 * no `mcpServers` mapping is reported (file, line, reason) and gives none.
 */
export function readMcpJson(workdir: string, needsTrust: boolean): McpLayer {
  const file = path.join(workdir, MCP_JSON_FILE)
  const read = readText(file)
  if (read.kind === 'missing') return { entries: [], problems: [] }
  if (read.kind === 'unreadable') return { entries: [], problems: [{ file, path: '', reason: `cannot read the file (${read.reason}); its servers are not used` }] }
  const text = read.text
  const errors: ParseError[] = []
  const json: unknown = parse(text.replace(/^\uFEFF/, ''), errors, { disallowComments: true, allowTrailingComma: false })
  if (errors.length) {
    const e = errors[0]
    const line = text.slice(0, e.offset).split('\n').length
    return { entries: [], problems: [{ file, path: '', reason: `not valid JSON at line ${line} (${printParseErrorCode(e.error)}); none of its servers are used until it is fixed` }] }
  }
  if (!isPlainObject(json) || !('mcpServers' in json)) {
    return { entries: [], problems: [{ file, path: '', reason: 'must be {"mcpServers": {"name": {"command": …} | {"url": …}}}; none of its servers are used' }] }
  }
  return parseMcpSection(json.mcpServers, { file, where: 'mcpServers', scope: 'workspace', needsTrust })
}

/**
 * Later layers replace earlier ones by name (the person's config.yaml, then the workspace's .mcp.json, then its
 * .agents/config.yaml — the project's word over the person's, as in Claude Code). Whether a workspace's server may
 * start is a separate question: it needs the person's trust.
 */
export function mergeMcpLayers(layers: McpLayer[]): McpLayer {
  const byName = new Map<string, McpServerEntry>()
  const problems: McpFileProblem[] = []
  for (const layer of layers) {
    problems.push(...layer.problems)
    for (const entry of layer.entries) {
      const earlier = byName.get(entry.name)
      const notes = earlier ? [...entry.notes, `replaces the definition of "${entry.name}" in ${earlier.source.file}`] : entry.notes
      byName.delete(entry.name)
      byName.set(entry.name, { ...entry, notes })
    }
  }
  return { entries: [...byName.values()], problems }
}

/** What a server runs (its command line, quoted only where needed) or the URL it connects to, in one line. */
export function describeServerTarget(config: McpServerConfig): string {
  if (!isStdioServer(config)) return config.url
  return [config.command, ...(config.args ?? [])].map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ')
}
