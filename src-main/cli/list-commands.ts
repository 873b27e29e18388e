import path from 'node:path'
import type { SessionSummary } from '../../src-shared'
import type { RemoteHost } from '../bridge/client'
import { debugEnabled, type ParsedArgs } from './args'
import { ATTEMPTS, connectHost, hostWentAway } from './host-connection'
import type { CliIO } from './run'

/** Runs `fn` on the data dir's host (attached, or one of this process's own), then lets it go. */
export async function withHost<T>(args: ParsedArgs, io: CliIO, workdir: string, fn: (api: RemoteHost) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const host = await connectHost(io, { workdir, debug: debugEnabled(args, io) })
    try {
      return await fn(host.api)
    } catch (err) {
      if (attempt < ATTEMPTS && hostWentAway(host, err)) continue
      throw err
    } finally {
      await host.release()
    }
  }
}

/** `agentry agents`: resolved agents with mode and source, then every file that failed to load. */
export async function agentsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  const { agents, errors, ruleErrors } = await withHost(args, io, workdir, async (api) => ({
    ...(await api.calls['agents.list']({ workspaceRoot: workdir })),
    // Agents act under the rules: a rules file that cannot be used (every call then asks) is reported here too.
    ruleErrors: (await api.calls['settings.get']({ workspaceRoot: workdir })).permissionErrors,
  }))
  if (args.values.json) {
    for (const a of agents) io.stdout.write(`${JSON.stringify({ type: 'agent', name: a.name, mode: a.mode, hidden: a.hidden, inspectable: a.inspectable, description: a.description, source: a.source })}\n`)
    for (const e of errors) io.stdout.write(`${JSON.stringify({ type: 'error', ...e })}\n`)
    for (const e of ruleErrors) io.stdout.write(`${JSON.stringify({ type: 'rules_error', ...e })}\n`)
    return 0
  }
  const width = Math.max(...agents.map((a) => a.name.length), 4)
  for (const a of agents) {
    const flags = [a.hidden ? 'hidden' : '', a.inspectable ? 'inspectable' : ''].filter(Boolean).join(',')
    const source = a.source.file ? path.relative(process.cwd(), a.source.file) || a.source.file : a.source.kind
    io.stdout.write(`${a.name.padEnd(width)}  ${a.mode.padEnd(8)}  ${source}${flags ? `  (${flags})` : ''}\n    ${a.description}\n`)
  }
  if (errors.length) {
    io.stdout.write(`\n${errors.length} agent file(s) could not be loaded and were skipped:\n`)
    for (const e of errors) io.stdout.write(`  ✗ ${e.file}: ${e.field}: ${e.reason}\n`)
  }
  if (ruleErrors.length) {
    io.stdout.write(`\n${ruleErrors.length} permission rules file(s) cannot be used; until fixed every tool call asks:\n`)
    for (const e of ruleErrors) io.stdout.write(`  ✗ ${e.file}: ${e.reason}\n`)
  }
  return 0
}

/** `agentry sessions`: the session tree, newest first, inspectable children nested under their parents. */
export async function sessionsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const includeArchived = Boolean(args.values.all)
  await withHost(args, io, process.cwd(), async (api) => {
    const list = async (parentId: string | null) => (await api.calls['sessions.list']({ parentId, includeArchived, limit: 10_000 })).sessions
    const walk = async (s: SessionSummary, depth: number): Promise<void> => {
      if (args.values.json) io.stdout.write(`${JSON.stringify({ ...s, depth })}\n`)
      else {
        const when = new Date(s.updatedAt).toISOString().replace('T', ' ').slice(0, 16)
        const archived = s.archivedAt ? ' [archived]' : ''
        io.stdout.write(`${'  '.repeat(depth)}${depth ? '└ ' : ''}${s.id}  ${s.agent.padEnd(10)} ${s.status.padEnd(8)} ${when}  ${s.title || '(untitled)'}${archived}\n`)
      }
      if (s.childCount > 0) for (const child of await list(s.id)) await walk(child, depth + 1)
    }
    const roots = await list(null)
    for (const root of roots) await walk(root, 0)
    if (!roots.length && !args.values.json) io.stdout.write('No sessions yet. Start one with: agentry run "your prompt"\n')
  })
  return 0
}
