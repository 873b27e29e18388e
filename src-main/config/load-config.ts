import path from 'node:path'
import { Config, isPlainObject } from '../../src-shared'
import { dropInvalid } from './drop-invalid'
import { parseYamlText } from './yaml-text'
import { limitWorkspaceProviders, type KeyLimit, type WorkspaceProvider } from './workspace-layer'
import { mergeMcpLayers, parseMcpSection, readMcpJson, type McpFileProblem, type McpServerEntry } from './mcp-definitions'
import { readText } from '../files'

/** A problem in a config file: which file, which setting (dotted path) and what is wrong. */
export interface ConfigIssue {
  file: string
  /** dotted path such as `subagents.maxDepth`; '' when the problem is the file as a whole */
  path: string
  reason: string
}

export interface LoadedConfig {
  config: Config
  issues: ConfigIssue[]
  /** config files that exist and were read, in overlay order */
  files: string[]
  /** providers the workspace's file defined or redefined (for Settings and the key lookup) */
  workspaceProviders: Record<string, WorkspaceProvider>
  /** per provider: which of the person's keys it may not receive (absent = no limit) */
  keyLimits: Record<string, KeyLimit>
  /**
   * MCP servers: the person's `mcp:`, then the workspace's `.mcp.json` and `.agents/config.yaml` `mcp:` (later names
   * replace earlier ones). A malformed entry is kept here with its errors (only that server is unusable); it is never
   * one of `issues`, which stop a run.
   */
  mcp: McpServerEntry[]
  /** MCP files that could not be used at all (a `.mcp.json` that is not JSON) */
  mcpProblems: McpFileProblem[]
}

export const CONFIG_FILE = 'config.yaml'

export function userConfigPath(dataDir: string): string {
  return path.join(dataDir, CONFIG_FILE)
}

const PERSON_ONLY = { sandbox: 'the sandbox', containers: 'the container engine', checkpoints: 'checkpoints', budgets: 'budgets', runaway: 'the runaway guards' } as const

/** A workspace's `subagents.budget` may lower each field of the person's, never raise it (nor lift one they set). */
function lowerOnly(person: Record<string, unknown>, project: Record<string, unknown>): void {
  const theirs = isPlainObject(project.subagents) ? project.subagents.budget : undefined
  const mine = isPlainObject(person.subagents) ? person.subagents.budget : undefined
  if (!isPlainObject(theirs) || !isPlainObject(mine)) return
  const merged: Record<string, unknown> = { ...mine }
  for (const [k, v] of Object.entries(theirs)) {
    const own = mine[k]
    merged[k] = typeof own === 'number' && typeof v === 'number' ? Math.min(own, v) : own === undefined ? v : own
  }
  ;(project.subagents as Record<string, unknown>).budget = merged
}

export function projectConfigPath(workdir: string): string {
  return path.join(workdir, '.agents', CONFIG_FILE)
}

/**
 * Reads `{dataDir}/config.yaml`, then overlays `{workdir}/.agents/config.yaml` — within limits unless the person
 * trusts the workspace: it cannot name env vars as keys nor receive the person's keys at another endpoint
 * (see limitWorkspaceProviders). Never throws for bad files: every problem becomes an issue, and the config
 * returned is the defaults plus every valid part of each file.
 */
export function loadConfig(dataDir: string, workdir?: string, o: { trusted?: boolean } = {}): LoadedConfig {
  const issues: ConfigIssue[] = []
  const files: string[] = []
  const person = readConfigLayer(userConfigPath(dataDir))
  const mcpLayers = [parseMcpSection(person.mcp, { file: userConfigPath(dataDir), where: 'mcp', scope: 'user', needsTrust: false })]
  if (person.read) {
    files.push(userConfigPath(dataDir))
    issues.push(...person.issues)
  }
  let merged = person.clean
  let workspaceProviders: Record<string, WorkspaceProvider> = {}
  const file = workdir ? projectConfigPath(workdir) : undefined
  const project = file ? readConfigLayer(file) : undefined
  if (file && project?.read) {
    files.push(file)
    issues.push(...project.issues)
    // The sandbox and checkpoints (undo) are read from the person's own file only: a cloned workspace must not be able
    // to turn off what protects the person. Saying nothing would let a project believe it set them.
    // Budgets and runaway guards too: they bound what the person pays.
    for (const key of ['sandbox', 'containers', 'checkpoints', 'budgets', 'runaway'] as const) {
      if (!Object.hasOwn(project.clean, key)) continue
      delete project.clean[key]
      issues.push({ file, path: key, reason: `only your own ${userConfigPath(dataDir)} sets ${PERSON_ONLY[key]}; a workspace file cannot change it. Move the setting there, or remove it from this file` })
    }
    lowerOnly(person.clean, project.clean)
    const limited = limitWorkspaceProviders(person.clean, project.clean, { file, trusted: o.trusted === true })
    issues.push(...limited.problems.map((p) => ({ file, ...p })))
    workspaceProviders = limited.providers
    merged = overlay(merged, limited.clean)
  }
  // A workspace's servers run commands from whatever was cloned: they wait for the person's trust.
  if (workdir) mcpLayers.push(readMcpJson(workdir, o.trusted !== true))
  if (file && project?.read) mcpLayers.push(parseMcpSection(project.mcp, { file, where: 'mcp', scope: 'workspace', needsTrust: o.trusted !== true }))
  const mcp = mergeMcpLayers(mcpLayers)
  const usable = mcp.entries.flatMap((e) => (e.config ? [[e.name, e.config] as const] : []))
  if (usable.length) merged.mcp = Object.fromEntries(usable)
  const keyLimits: Record<string, KeyLimit> = {}
  for (const [name, p] of Object.entries(workspaceProviders)) if (p.limit) keyLimits[name] = p.limit
  // Each layer is valid on its own and the merge only combines whole valid entries, so this holds.
  return { config: Config.parse(merged), issues, files, workspaceProviders, keyLimits, mcp: mcp.entries, mcpProblems: mcp.problems }
}

/**
 * One config file on its own: its valid settings (defaults not applied) and its problems. The `mcp:` section is
 * returned as written (`mcp`), for parseMcpSection: one bad server must not be an issue that stops every run.
 */
export function readConfigLayer(file: string): { read: boolean; clean: Record<string, unknown>; issues: ConfigIssue[]; mcp?: unknown } {
  const read = readText(file)
  // A missing config file simply means "use the defaults".
  if (read.kind === 'missing') return { read: false, clean: {}, issues: [] }
  if (read.kind === 'unreadable') {
    return { read: true, clean: {}, issues: [{ file, path: '', reason: `cannot read the file (${read.reason}); check that it is a readable file` }] }
  }
  const parsed = parseYamlText(read.text)
  if (!parsed.ok) {
    return { read: true, clean: {}, issues: parsed.errors.map((e) => ({ file, path: '', reason: e.reason })) }
  }
  const { mcp, rest } = splitMcp(parsed.value)
  const { clean, problems } = dropInvalid(rest, Config)
  resolveScriptPaths(clean, path.dirname(file))
  return { read: true, clean, issues: problems.map((p) => ({ file, path: p.path, reason: p.reason })), mcp }
}

function splitMcp(value: unknown): { mcp?: unknown; rest: unknown } {
  if (!isPlainObject(value) || !Object.hasOwn(value, 'mcp')) return { rest: value }
  const { mcp, ...rest } = value
  return { mcp, rest }
}

/**
 * Script provider paths are relative to the file that names them; after layers merge the
 * origin is lost, so make them absolute now.
 */
function resolveScriptPaths(layer: Record<string, unknown>, baseDir: string): void {
  const providers = layer.providers
  if (!isPlainObject(providers)) return
  for (const provider of Object.values(providers)) {
    if (isPlainObject(provider) && typeof provider.script === 'string' && !path.isAbsolute(provider.script)) {
      provider.script = path.resolve(baseDir, provider.script)
    }
  }
}

/**
 * Later layer wins: `model` replaced, `providers` merged by name (a provider entry is replaced
 * whole, because a partial provider would not validate on its own), `subagents` and `timeouts` merged by key.
 */
export function overlay(base: Record<string, unknown>, top: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(top)) {
    const prev = out[key]
    out[key] = (key === 'providers' || key === 'subagents' || key === 'timeouts') && isPlainObject(prev) && isPlainObject(value) ? { ...prev, ...value } : value
  }
  return out
}

