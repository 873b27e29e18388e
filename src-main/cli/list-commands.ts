import path from 'node:path'
import type { AgentFolderInfo, AgentListEntry, AgentLoadError, SessionSummary } from '../../src-shared'
import { formatConfigIssues } from '../config/format-issues'
import type { BridgeClient } from '../../src-shared/bridge-client'
import { debugEnabled, UsageError, type ParsedArgs } from './args'
import { ATTEMPTS, connectHost, hostWentAway, type CliHost } from './host-connection'
import type { CliIO } from './run'

/**
 * Runs `fn` on the data dir's host (attached, or one of this process's own), then lets it go. `inspect`: only reads;
 * with no live host the data dir is read as the dead host left it (`host.hostGone`), instead of starting one.
 */
export async function withHost<T>(args: ParsedArgs, io: CliIO, workdir: string, fn: (api: BridgeClient, host: CliHost) => Promise<T>, o: { inspect?: boolean } = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const host = await connectHost(io, { workdir, debug: debugEnabled(args, io), inspect: o.inspect })
    try {
      return await fn(host.api, host)
    } catch (err) {
      if (attempt < ATTEMPTS && hostWentAway(host, err)) continue
      throw err
    } finally {
      await host.release()
    }
  }
}

/**
 * `agentry agents`: every agent with its source file, mode, effective model (and how it was resolved), offered
 * tools, permission rules and warnings; then shadowed folders and the files that could not be loaded — what
 * Settings › Agents shows, through the same calls. A bad config.yaml is reported and exits 2.
 */
export async function agentsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  refuseExtraArguments('agents', args.positionals)
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  const { listed, settings } = await withHost(args, io, workdir, async (api) => ({
    listed: await api.calls['agents.list']({ workspaceRoot: workdir }),
    settings: await api.calls['settings.get']({ workspaceRoot: workdir }),
  }))
  const { agents, errors, folders, disabled } = listed
  // Agents act under the rules: a rules file that cannot be used (every call then asks) is reported here too.
  const ruleErrors = settings.permissionErrors
  if (args.values.json) {
    for (const a of agents) {
      const { permission: _permission, resolvedModel, offeredTools, permissionRules, ...rest } = a
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
  if (settings.configIssues.length) {
    io.stderr.write(`${formatConfigIssues(settings.configIssues)}\n`)
    return 2
  }
  return 0
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
  refuseExtraArguments('sessions', args.positionals)
  const includeArchived = Boolean(args.values.all)
  let interrupted = 0
  await withHost(
    args,
    io,
    process.cwd(),
    async (api, host) => {
      const list = async (parentId: string | null) => (await api.calls['sessions.list']({ parentId, includeArchived, limit: 10_000 })).sessions
      const walk = async (s: SessionSummary, depth: number): Promise<void> => {
        const status = shownStatus(s.status, host)
        if (status === 'interrupted') interrupted++
        if (args.values.json) io.stdout.write(`${JSON.stringify({ ...s, status, depth })}\n`)
        else {
          const when = new Date(s.updatedAt).toISOString().replace('T', ' ').slice(0, 16)
          const archived = s.archivedAt ? ' [archived]' : ''
          io.stdout.write(`${'  '.repeat(depth)}${depth ? '└ ' : ''}${s.id}  ${s.agent.padEnd(10)} ${status.padEnd(11)} ${when}  ${s.title || '(untitled)'}${archived}\n`)
        }
        if (s.childCount > 0) for (const child of await list(s.id)) await walk(child, depth + 1)
      }
      const roots = await list(null)
      for (const root of roots) await walk(root, 0)
      if (!roots.length && !args.values.json) io.stdout.write('No sessions yet. Start one with: agentry run "your prompt"\n')
    },
    { inspect: true },
  )
  if (interrupted && !args.values.json) io.stderr.write(`${INTERRUPTED_NOTE}\n`)
  return 0
}

const RUNNING = new Set(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])
export const INTERRUPTED_NOTE = 'agentry: no Agentry host is running; sessions its host left running are shown as interrupted (the next agentry run, serve or the app marks them idle).'

/** A session left running by a host that is gone is not running: it was interrupted. */
export function shownStatus(status: string, host: CliHost): string {
  return host.hostGone && RUNNING.has(status) ? 'interrupted' : status
}

/** Commands that take no positional arguments say so instead of ignoring them. */
export function refuseExtraArguments(command: string, positionals: string[]): void {
  if (positionals.length) throw new UsageError(`agentry ${command} takes no arguments (got "${positionals.join(' ')}"). Run agentry --help for its options.`)
}

/** `agentry rules`: the "Always allow" answers in force (what Settings › Permissions lists), from any client. */
export async function rulesCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  refuseExtraArguments('rules', args.positionals)
  const { rules } = await withHost(args, io, process.cwd(), (api) => api.calls['rules.list']({}))
  if (args.values.json) {
    for (const r of rules) io.stdout.write(`${JSON.stringify(r)}\n`)
    return 0
  }
  if (!rules.length) io.stdout.write('No "Always allow" rules. They are added when you answer an approval with Always allow.\n')
  for (const r of rules) {
    const named = r.conversation ? `${JSON.stringify(r.conversation.title)} ` : ''
    const where = r.scope === 'workspace' ? `workspace ${r.scopeKey}` : `${r.scope === 'run' ? 'while it runs, ' : ''}conversation ${named}${r.scopeKey}`
    io.stdout.write(`${r.tool} ${JSON.stringify(r.pattern)} → ${r.action}  (${where}; ${new Date(r.createdAt).toISOString().slice(0, 16).replace('T', ' ')})\n`)
  }
  return 0
}

/** `agentry containers`: is the engine for isolation: container usable, with which image and limits (exit 1 when not). */
export async function containersCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  refuseExtraArguments('containers', args.positionals)
  const s = await withHost(args, io, process.cwd(), (api) => api.calls['containers.status']({}))
  if (args.values.json) {
    io.stdout.write(`${JSON.stringify(s)}\n`)
    return s.ok ? 0 : 1
  }
  const limits = `${s.limits.cpus} CPU${s.limits.cpus === 1 ? '' : 's'}, ${s.limits.memoryMb} MB memory, ${s.limits.pids} processes`
  if (s.kind) io.stdout.write(`Engine: ${s.kind} ${s.version} at ${s.engine}\n`)
  else io.stdout.write(`Engine: ${s.engine} — not reachable\n`)
  io.stdout.write(`Image: ${s.image.name}${s.kind ? (s.image.present ? ' (present)' : ' (missing)') : ''}\nLimits per child: ${limits}; no network unless a rule allows it\n`)
  if (s.message) io.stdout.write(`${s.message}\n`)
  else io.stdout.write('Children with isolation: container can run here.\n')
  return s.ok ? 0 : 1
}
