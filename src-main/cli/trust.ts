import fs from 'node:fs'
import path from 'node:path'
import type { WorkspaceTrust } from '../../src-shared'
import { UsageError, type ParsedArgs } from './args'
import { withHost } from './list-commands'
import type { CliIO } from './run'

/**
 * `agentry trust`: show exactly which workspace files trust covers and what each changes, then trust them as they
 * are now (`--show`: only show; `--revoke`: forget). Trust is pinned to the files' content: a change needs trusting again.
 */
export async function trustCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.positionals.length) throw new UsageError(`agentry trust takes no arguments (got ${args.positionals.join(' ')}); use --workdir D`)
  if (args.values.revoke && args.values.show) throw new UsageError('use either --revoke or --show, not both')
  const given = path.resolve(String(args.values.workdir ?? process.cwd()))
  if (!fs.existsSync(given) || !fs.statSync(given).isDirectory()) throw new UsageError(`--workdir ${given}: not a folder`)
  const root = fs.realpathSync(given)
  // The same calls as Settings › Trust, on the running host when there is one.
  const { before, after, action } = await withHost(args, io, root, async (api) => {
    const before = (await api.calls['trust.get']({ workspaceRoot: root })).trust
    if (args.values.show) return { before, after: before, action: 'shown' as const }
    if (args.values.revoke) {
      const after = (await api.calls['trust.set']({ workspaceRoot: root, trusted: false })).trust
      return { before, after, action: before.status === 'untrusted' ? ('not_trusted' as const) : ('revoked' as const) }
    }
    // Exactly what was described above is what gets pinned: a file changed in between fails instead.
    const files = before.files.map((f) => ({ path: f.path, sha256: f.sha256 }))
    const after = (await api.calls['trust.set']({ workspaceRoot: root, trusted: true, files })).trust
    return { before, after, action: 'trusted' as const }
  })
  if (args.values.json) {
    io.stdout.write(`${JSON.stringify({ action, ...after })}\n`)
    return 0
  }
  io.stdout.write(render(before))
  io.stdout.write(`${OUTCOME[action](root)}\n`)
  if (after.problem) io.stderr.write(`agentry: ${after.problem}\n`)
  return 0
}

const OUTCOME: Record<'shown' | 'trusted' | 'revoked' | 'not_trusted', (root: string) => string> = {
  shown: (root) => `Nothing changed. Run "agentry trust --workdir ${root}" to trust these files as they are now.`,
  trusted: () =>
    'Trusted: the files above, exactly as they are now. If one of them changes (or appears), the workspace is untrusted again until you run agentry trust again.',
  revoked: () => 'Trust revoked: the workspace may again only tighten your rules, its providers get none of your keys, and its MCP servers do not start.',
  not_trusted: () => 'This workspace was not trusted; nothing changed.',
}

const STATUS: Record<WorkspaceTrust['status'], string> = {
  trusted: 'trusted',
  untrusted: 'not trusted',
  changed: 'was trusted, but its files changed since (not trusted until you trust it again)',
}

function render(t: WorkspaceTrust): string {
  const lines = [`Workspace ${t.root}: ${STATUS[t.status]}`]
  for (const f of t.files) {
    const state = f.sha256 === null ? 'absent' : `sha256 ${f.sha256.slice(0, 12)}…${f.changedSinceTrust ? ', changed since trusted' : ''}`
    lines.push(`  ${f.path}  (${state})`)
    if (f.sha256 !== null && f.changes.length === 0) lines.push('    nothing beyond your own settings')
    for (const c of f.changes) lines.push(`    ${c.kind.padEnd(9)} ${c.text}  [${c.needsTrust ? 'only when trusted' : 'applies anyway'}]`)
  }
  if (t.files.every((f) => f.sha256 === null)) lines.push('  (no workspace configuration files: trust changes nothing here today)')
  if (t.agents.length) {
    lines.push(`  Agents (bounded by your rules, trusted or not): ${t.agents.map((a) => `${a.name} (${path.relative(t.root, a.file)})`).join(', ')}`)
  }
  return `${lines.join('\n')}\n`
}
