import path from 'node:path'
import type { CommandsListing } from '../../src-shared'
import type { ParsedArgs } from './args'
import { refuseExtraArguments, withHost } from './list-commands'
import type { CliIO } from './run'

/**
 * `agentry commands`: every slash command a prompt here can use — name, argument hint, source and file, description,
 * warnings — then the command files that could not be used, and how many workspace files wait for trust (what `/help`
 * and the composer's list show, through the same call). `--json`: one object per line (`command`, `error`).
 */
export async function commandsCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  refuseExtraArguments('commands', args.positionals)
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  const listed = await withHost(args, io, workdir, (api) => api.calls['commands.list']({ workspaceRoot: workdir }))
  if (args.values.json) {
    for (const c of listed.commands) io.stdout.write(`${JSON.stringify({ type: 'command', ...c })}\n`)
    for (const e of listed.errors) io.stdout.write(`${JSON.stringify({ type: 'error', ...e })}\n`)
    return 0
  }
  io.stdout.write(commandsText(listed))
  return 0
}

export function commandsText({ commands, errors, untrusted }: CommandsListing): string {
  const rel = (file: string) => path.relative(process.cwd(), file) || file
  const out: string[] = []
  const width = Math.max(6, ...commands.map((c) => c.name.length + 1))
  for (const c of commands) {
    out.push(`${`/${c.name}`.padEnd(width)}  ${c.source.padEnd(9)}  ${c.file ? rel(c.file) : ''}${c.argumentHint ? `  ${c.argumentHint}` : ''}`.trimEnd(), `    ${c.description.replace(/\s+/g, ' ')}`)
    for (const w of c.warnings) out.push(`    ⚠ ${w.line ? `line ${w.line}: ` : ''}${w.field ? `${w.field}: ` : ''}${w.reason}`)
  }
  if (untrusted) out.push('', `${untrusted} workspace command file(s) are not offered until you trust this workspace (agentry trust).`)
  if (errors.length) {
    out.push('', `${errors.length} command file(s) not used:`)
    for (const e of errors) out.push(`  ✗ ${rel(e.file)}${e.line ? `:${e.line}` : ''}: ${e.field ? `${e.field}: ` : ''}${e.reason}`)
  }
  return `${out.join('\n')}\n`
}
