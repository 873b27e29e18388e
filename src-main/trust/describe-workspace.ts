import path from 'node:path'
import { formatPath, type AgentInfo, type PermissionAction, type TrustChange, type WorkspaceTrust } from '../../src-shared'
import { limitWorkspaceProviders, MCP_JSON_FILE, parseMcpSection, readConfigLayer, readMcpJson, userConfigPath, type McpLayer } from '../config'
import { describeMcpServer } from './describe-mcp'
import { describeHooks } from './describe-hooks'
import { evaluateRuleset, formatRule, loadStaticRules, PERMISSIONS_FILE_NAME, type Ruleset, type SubjectKind } from '../permissions'
import type { TrustList } from './trust-list'

const SEVERITY: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 }

/**
 * What trusting a workspace would mean, file by file: which of its rules loosen the person's (they apply only
 * when trusted) or tighten them (always apply), which providers it defines or points elsewhere, which env vars it
 * names as keys. Shown by `agentry trust` and Settings before the person decides.
 */
export function describeWorkspace(dataDir: string, root: string, trust: TrustList, agents: AgentInfo[] = []): WorkspaceTrust {
  const state = trust.state(root)
  const files = state.files.map((f) => {
    const file = path.join(root, f.path)
    const changes = f.sha256 === null ? [] : f.path.endsWith(PERMISSIONS_FILE_NAME) ? describeRules(dataDir, file) : f.path === MCP_JSON_FILE ? describeMcp(readMcpJson(root, true)) : f.path.startsWith('.claude/') ? describeHooks(file, 'json') : describeConfig(dataDir, file)
    return { path: f.path, file, sha256: f.sha256, changedSinceTrust: state.changed.includes(f.path), changes }
  })
  return {
    root,
    status: state.status,
    trustedAt: state.trustedAt,
    problem: state.problem ?? null,
    files,
    agents: agents.filter((a) => a.source.kind === 'project' && a.source.file).map((a) => ({ name: a.name, file: a.source.file as string })),
  }
}

function describeRules(dataDir: string, file: string): TrustChange[] {
  const person = loadStaticRules([path.join(dataDir, PERMISSIONS_FILE_NAME)]).rules
  const ws = loadStaticRules([file])
  if (ws.errors.length) return ws.errors.map((e) => ({ kind: 'problem', text: `cannot be used: ${e.reason}`, needsTrust: false }))
  const out: TrustChange[] = []
  for (const rule of ws.rules) {
    const yours = yourAction(person, rule.tool, rule.pattern)
    if (SEVERITY[rule.action] < SEVERITY[yours]) out.push({ kind: 'loosens', text: `${formatRule(rule)} — your rules say ${yours}`, needsTrust: true })
    else if (SEVERITY[rule.action] > SEVERITY[yours]) out.push({ kind: 'tightens', text: `${formatRule(rule)} — stricter than your rules (${yours})`, needsTrust: false })
  }
  return out
}

/** The person's answer for the subject a workspace rule names (its pattern taken literally); no match asks. */
function yourAction(person: Ruleset, tool: string, pattern: string): PermissionAction {
  return evaluateRuleset(person, tool, pattern, kindOf(tool))?.action ?? 'ask'
}

function kindOf(tool: string): SubjectKind {
  if (tool === 'bash') return 'command'
  if (tool === 'web_fetch' || tool === 'web_search') return 'host'
  if (tool === 'task') return 'name'
  if (['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep'].includes(tool)) return 'path'
  return 'other'
}

function describeConfig(dataDir: string, file: string): TrustChange[] {
  const person = readConfigLayer(userConfigPath(dataDir)).clean
  const ws = readConfigLayer(file)
  const out: TrustChange[] = ws.issues.map((i) => ({ kind: 'problem' as const, text: `${i.path ? `${i.path}: ` : ''}${i.reason}`, needsTrust: false }))
  if (typeof ws.clean.model === 'string') {
    const yours = typeof person.model === 'string' ? person.model : 'demo/demo'
    if (ws.clean.model !== yours) out.push({ kind: 'model', text: `sets the default model to ${ws.clean.model} (yours: ${yours})`, needsTrust: false })
  }
  if (ws.clean.subagents && typeof ws.clean.subagents === 'object') {
    const limits = Object.entries(ws.clean.subagents).map(([k, v]) => `${k} ${String(v)}`)
    if (limits.length) out.push({ kind: 'limits', text: `sets subagent limits: ${limits.join(', ')}`, needsTrust: false })
  }
  out.push(...describeMcp(parseMcpSection(ws.mcp, { file, where: 'mcp', scope: 'workspace', needsTrust: true })))
  out.push(...describeHooks(file, 'yaml'))
  const limited = limitWorkspaceProviders(person, ws.clean, { file, trusted: true })
  for (const [name, p] of Object.entries(limited.providers)) {
    const entry = (ws.clean.providers as Record<string, { type?: string; baseURL?: string; apiKeyEnv?: string }>)[name]
    const where = `${entry.type ?? '?'}${entry.baseURL ? ` at ${entry.baseURL}` : ''}`
    if (!p.newDestination) out.push({ kind: 'provider', text: `adjusts provider ${name} (same endpoint; your key settings apply)`, needsTrust: false })
    else {
      const keys = p.redefined ? 'your key for it (stored, or from its environment variable)' : 'keys you saved under that name'
      out.push({ kind: 'provider', text: `${p.redefined ? 'redefines' : 'defines'} provider ${name}: ${where} — ${keys} would be sent there`, needsTrust: true })
    }
    if (entry.apiKeyEnv !== undefined) {
      out.push({ kind: 'key_env', text: `names the environment variable ${entry.apiKeyEnv} as the key of provider ${name} (${formatPath(['providers', name, 'apiKeyEnv'])})`, needsTrust: true })
    }
  }
  return out
}

/** What each MCP server a workspace file defines would run or connect to: starting it needs trust. */
function describeMcp(layer: McpLayer): TrustChange[] {
  const out: TrustChange[] = layer.problems.map((p) => ({ kind: 'problem' as const, text: p.reason, needsTrust: false }))
  for (const entry of layer.entries) {
    if (!entry.config) {
      out.push(...entry.errors.map((e) => ({ kind: 'problem' as const, text: `MCP server ${entry.name} cannot be used: ${e}`, needsTrust: false })))
      continue
    }
    out.push({ kind: 'mcp_server', text: describeMcpServer(entry.name, entry.config), needsTrust: true })
  }
  return out
}
