import path from 'node:path'
import type { AgentFolderInfo, AgentListEntry, AgentLoadError, SessionRecord } from '../../src-shared'
import { AgentRegistry, listAgents } from '../agents'
import { formatConfigIssues } from '../config'
import { openStore } from '../store'
import { loadWorkspaceSettings, TrustList } from '../trust'
import type { ParsedArgs } from './args'
import type { CliIO } from './run'

/**
 * `agentry agents`: every agent with its source file, mode, effective model (and how it was resolved), offered
 * tools, permission rules and warnings; then shadowed folders and the files that could not be loaded.
 * A bad config.yaml is reported and exits 2 (the listing still shows what it can).
 */
export async function agentsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  const registry = new AgentRegistry({ dataDir: io.dataDir, watch: false })
  try {
    const workspace = loadWorkspaceSettings(io.dataDir, workdir, new TrustList(io.dataDir))
    const loaded = workspace.config
    const { agents, errors, folders, disabled } = listAgents(registry.resolve(workdir), loaded.config)
    // Agents act under the rules: a rules file that cannot be used (every call then asks) is reported here too.
    const ruleErrors = workspace.rules.errors
    if (args.values.json) {
      for (const a of agents) {
        const { prompt: _prompt, permission: _permission, resolvedModel, offeredTools, permissionRules, ...rest } = a
        io.stdout.write(`${JSON.stringify({ type: 'agent', ...rest, model: resolvedModel, tools: offeredTools, permission: permissionRules })}\n`)
      }
      for (const f of folders) io.stdout.write(`${JSON.stringify({ type: 'folder', ...f })}\n`)
      for (const d of disabled) io.stdout.write(`${JSON.stringify({ type: 'disabled', ...d })}\n`)
      for (const e of errors) io.stdout.write(`${JSON.stringify({ type: 'error', ...e })}\n`)
      for (const e of ruleErrors) io.stdout.write(`${JSON.stringify({ type: 'rules_error', ...e })}\n`)
    } else {
      writeAgentsText(io, agents, folders, disabled, errors)
      if (ruleErrors.length) {
        io.stdout.write(`\n${ruleErrors.length} permission rules file(s) cannot be used; until fixed every tool call asks:\n`)
        for (const e of ruleErrors) io.stdout.write(`  ✗ ${e.file}: ${e.reason}\n`)
      }
    }
    if (loaded.issues.length) {
      io.stderr.write(`${formatConfigIssues(loaded.issues)}\n`)
      return 2
    }
    return 0
  } finally {
    registry.dispose()
  }
}

function writeAgentsText(io: CliIO, agents: AgentListEntry[], folders: AgentFolderInfo[], disabled: { name: string; file: string }[], errors: AgentLoadError[]): void {
  const rel = (file: string) => path.relative(process.cwd(), file) || file
  const width = Math.max(...agents.map((a) => a.name.length), 4)
  for (const a of agents) {
    const flags = [a.hidden ? 'hidden' : '', a.inspectable ? 'inspectable' : ''].filter(Boolean).join(',')
    const source = a.source.file ? `${rel(a.source.file)}${a.source.format && a.source.format !== 'agentry' ? ` [${a.source.format}]` : ''}` : a.source.kind
    const shown = a.displayName ? ` (${a.displayName})` : ''
    io.stdout.write(`${a.name.padEnd(width)}  ${a.mode.padEnd(8)}  ${source}${flags ? `  (${flags})` : ''}${shown}\n    ${a.description}\n`)
    if (a.source.kind === 'builtin' && a.warnings.length === 0) continue
    io.stdout.write(`    model: ${a.resolvedModel.ref ?? 'inherit'} — ${a.resolvedModel.detail}\n`)
    io.stdout.write(`    tools: ${a.offeredTools.join(', ') || '(none)'}${a.mcpTools?.length ? ` (+ MCP: ${a.mcpTools.join(', ')})` : ''}\n`)
    for (const w of a.warnings) io.stdout.write(`    ⚠ ${w.field}${w.line ? ` (line ${w.line})` : ''}: ${w.reason}\n`)
  }
  for (const f of folders.filter((x) => x.status === 'shadowed')) {
    io.stdout.write(`\n⚠ ${rel(f.dir)} (${f.files} agent file(s)) is not read: ${rel(f.shadowedBy ?? '')} exists, and the first existing folder wins. Move the files there, or remove ${rel(f.shadowedBy ?? '')}.\n`)
  }
  for (const d of disabled) io.stdout.write(`\n${d.name} is disabled by ${rel(d.file)} (disable: true)\n`)
  if (errors.length) {
    io.stdout.write(`\n${errors.length} problem(s) in agent files; these files were skipped:\n`)
    for (const e of errors) io.stdout.write(`  ✗ ${e.file}${e.line ? `:${e.line}` : ''}: ${e.field}: ${e.reason}\n`)
  }
}

/** `agentry sessions`: the session tree, newest first, inspectable children nested under their parents. */
export async function sessionsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const store = openStore(path.join(io.dataDir, 'agentry.db'))
  try {
    const includeArchived = Boolean(args.values.all)
    const roots = store.listSessions({ parentId: null, includeArchived, limit: 10_000 })
    const walk = (s: SessionRecord, depth: number) => {
      if (args.values.json) io.stdout.write(`${JSON.stringify({ ...s, depth })}\n`)
      else {
        const when = new Date(s.updatedAt).toISOString().replace('T', ' ').slice(0, 16)
        const archived = s.archivedAt ? ' [archived]' : ''
        io.stdout.write(`${'  '.repeat(depth)}${depth ? '└ ' : ''}${s.id}  ${s.agent.padEnd(10)} ${s.status.padEnd(8)} ${when}  ${s.title || '(untitled)'}${archived}\n`)
      }
      for (const child of store.listSessions({ parentId: s.id, includeArchived, limit: 10_000 })) walk(child, depth + 1)
    }
    for (const root of roots) walk(root, 0)
    if (!roots.length && !args.values.json) io.stdout.write('No sessions yet. Start one with: agentry run "your prompt"\n')
    return 0
  } finally {
    store.close()
  }
}
