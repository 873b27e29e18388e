import fs from 'node:fs'
import path from 'node:path'
import type { CallOutput, McpServerInfo } from '../../src-shared'
import { UsageError, type ParsedArgs } from './args'
import { withHost } from './list-commands'
import type { CliIO } from './run'

const MARK: Record<McpServerInfo['status'], string> = {
  running: '✓',
  idle: '·',
  starting: '…',
  stopped: '■',
  error: '✗',
  invalid: '✗',
  needs_trust: '!',
  disabled: '-',
}

/**
 * `agentry mcp list`: the MCP servers a workspace would use — where each is configured, what it runs, its status,
 * tools and last error. Servers that may start are connected first (a health check, like `claude mcp list`);
 * `--cached` shows only what is known without starting anything. Servers of an untrusted workspace never start. A
 * command's own host stops the servers it started when it exits; attached to the app or `agentry serve`, they run on.
 */
export async function mcpCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const [sub, ...extra] = args.positionals
  if (sub !== 'list' || extra.length) throw new UsageError(`agentry mcp takes one subcommand: list (got ${args.positionals.join(' ') || 'nothing'})`)
  const given = path.resolve(String(args.values.workdir ?? process.cwd()))
  if (!fs.existsSync(given) || !fs.statSync(given).isDirectory()) throw new UsageError(`--workdir ${given}: not a folder`)
  // The same call as Settings › MCP servers, on the running host when there is one (its servers, as they run).
  const list = await withHost(args, io, given, (api) => api.calls['mcp.list']({ workspaceRoot: given, start: !args.values.cached }))
  if (args.values.json) io.stdout.write(`${JSON.stringify(list)}\n`)
  else io.stdout.write(render(list))
  return 0
}

function render(list: CallOutput<'mcp.list'>): string {
  const lines = [`MCP servers for ${list.workspaceRoot}`]
  if (list.servers.length === 0) lines.push('  (none configured: add them under mcp: in config.yaml, or to the workspace\'s .mcp.json)')
  for (const s of list.servers) {
    const where = s.source.scope === 'agent' ? `agent ${s.source.agent} (${s.source.file})` : s.source.file
    lines.push(`  ${MARK[s.status]} ${s.name}  ${s.status.replace('_', ' ')}  ${s.transport}  ${s.target}`)
    lines.push(`      configured in ${where}${s.pid ? `; pid ${s.pid}` : ''}${s.logFile ? `; log ${s.logFile}` : ''}`)
    if (s.tools.length) lines.push(`      ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}: ${s.tools.map((t) => t.name).join(', ')}`)
    if (s.resources?.length) lines.push(`      ${s.resources.length} resource${s.resources.length === 1 ? '' : 's'}`)
    if (s.prompts?.length) lines.push(`      prompts: ${s.prompts.join(', ')}`)
    if (s.lastError) lines.push(...s.lastError.split('\n').map((l, i) => `      ${i === 0 ? 'error: ' : ''}${l}`))
    for (const p of s.problems) lines.push(`      note: ${p}`)
  }
  for (const p of list.problems) lines.push(`  ✗ ${p.file}${p.path ? `: ${p.path}` : ''}: ${p.reason}`)
  return `${lines.join('\n')}\n`
}
