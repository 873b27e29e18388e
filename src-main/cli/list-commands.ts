import path from 'node:path'
import type { SessionRecord } from '../../src-shared'
import { AgentRegistry } from '../agents'
import { openStore } from '../store'
import { loadWorkspaceSettings, TrustList } from '../trust'
import type { ParsedArgs } from './args'
import type { CliIO } from './run'

/** `agentry agents`: resolved agents with mode and source, then every file that failed to load. */
export async function agentsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  const registry = new AgentRegistry({ dataDir: io.dataDir })
  try {
    const { agents, errors } = registry.resolve(workdir)
    // Agents act under the rules: a rules file that cannot be used (every call then asks) is reported here too.
    const ruleErrors = loadWorkspaceSettings(io.dataDir, workdir, new TrustList(io.dataDir)).rules.errors
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
  } finally {
    registry.dispose()
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
