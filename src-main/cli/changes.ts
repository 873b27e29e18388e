import type { RestoreOutcome, TurnChanges, TurnFileChange } from '../../src-shared'
import { HostError } from '../../src-shared/host-api'
import { UsageError, type ParsedArgs } from './args'
import { refuseExtraArguments, withHost } from './list-commands'
import type { CliIO } from './run'

/** `agentry changes SESSION [--json]`: every recorded turn, the files it changed, who changed them, the diffs. */
export async function changesCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const id = sessionArgument(args, 'changes')
  const listed = await orNoSession(io, id, () => withHost(args, io, process.cwd(), (api) => api.calls['changes.list']({ sessionId: id })))
  if (listed === undefined) return 2
  if (args.values.json) {
    io.stdout.write(`${JSON.stringify(listed)}\n`)
    return 0
  }
  if (!listed.turns.length) io.stdout.write('No recorded changes in this session (checkpoints are kept for turns run since they were turned on).\n')
  for (const turn of listed.turns) printTurn(turn, io.stdout)
  if (listed.redo) io.stdout.write(`\nRedo would bring back ${listed.redo.turns} undone turn(s): agentry redo ${id} --yes\n`)
  return 0
}

/**
 * `agentry undo SESSION [--to MESSAGE_ID] [--yes] [--include-protected]` and `agentry redo SESSION [--yes]`: the
 * plan is printed first; without --yes nothing is written. Exit 0 done (or planned), 1 refused (conflicts: nothing
 * written), 2 usage or no such session.
 */
export async function undoCommand(args: ParsedArgs, io: CliIO, which: 'undo' | 'redo'): Promise<number> {
  const id = sessionArgument(args, which)
  const to = typeof args.values.to === 'string' ? args.values.to : undefined
  const request = { sessionId: id, dryRun: !args.values.yes, includeProtected: Boolean(args.values['include-protected']) }
  const outcome = await orNoSession(io, id, () =>
    withHost(args, io, process.cwd(), (api) => (which === 'undo' ? api.calls['changes.undo']({ ...request, ...(to ? { toMessageId: to } : {}) }) : api.calls['changes.redo'](request))),
  )
  if (outcome === undefined) return 2
  if (args.values.json) io.stdout.write(`${JSON.stringify(outcome)}\n`)
  else printOutcome(outcome, io, which, Boolean(args.values.yes))
  return outcome.conflicts.length ? 1 : 0
}

function sessionArgument(args: ParsedArgs, command: string): string {
  const [id, ...extra] = args.positionals
  if (!id) throw new UsageError(`agentry ${command} needs a SESSION id (see agentry sessions)`)
  refuseExtraArguments(`${command} SESSION`, extra)
  return id
}

/** A session id that names nothing is a usage error (2), as for `agentry show`; "nothing to undo" is said and is 1. */
async function orNoSession<T>(io: CliIO, id: string, op: () => Promise<T>): Promise<T | undefined> {
  try {
    return await op()
  } catch (err) {
    if (HostError.isInstance(err) && err.code === 'not_found' && err.message.startsWith('No session')) {
      io.stderr.write(`agentry: no session ${id}. List them with: agentry sessions --all\n`)
      return undefined
    }
    throw err
  }
}

function printTurn(turn: TurnChanges, out: NodeJS.WritableStream): void {
  const when = new Date(turn.startedAt).toISOString().slice(0, 19).replace('T', ' ')
  const state = turn.state === 'applied' ? '' : ` · ${turn.state}`
  out.write(`\n━━ ${when} · ${turn.messageId ?? '(no message)'}${state} · ${turn.messagePreview || '(no text)'}\n`)
  if (turn.error) out.write(`   ${turn.error}\n`)
  if (!turn.files.length && !turn.error) out.write('   no files changed\n')
  for (const f of turn.files) printFile(f, out)
}

function printFile(f: TurnFileChange, out: NodeJS.WritableStream): void {
  const name = f.oldPath ? `${f.oldPath} → ${f.path}` : f.path
  const what = f.binary ? 'binary' : f.nested ? 'nested repository' : `+${f.additions} -${f.deletions}`
  const who = f.authors.length ? f.authors.map((a) => `${a.agentPath.join(' › ')}${a.via === 'shell' ? ' (bash)' : ''}`).join(', ') : 'not by an agent'
  out.write(`   ${f.status.padEnd(8)} ${name}  ${what}  · ${who}\n`)
  for (const h of f.hunks) {
    out.write(`     ${h.header}\n`)
    for (const l of h.lines) {
      const sign = l.kind === 'add' ? '+' : l.kind === 'delete' ? '-' : ' '
      const num = String(l.kind === 'add' ? l.newLine : l.oldLine).padStart(5)
      out.write(`     ${num} ${sign}${l.text}\n`)
    }
  }
}

function printOutcome(o: RestoreOutcome, io: CliIO, which: 'undo' | 'redo', yes: boolean): void {
  const out = io.stdout
  if (o.steps.length) {
    out.write(`${o.applied ? (which === 'undo' ? 'Restored' : 'Put back') : 'Would restore'} ${o.steps.length} file(s):\n`)
    for (const s of o.steps) out.write(`  ${s.action.padEnd(9)} ${s.path}${s.protected ? `  (protected: ${s.protected})` : ''}\n`)
  } else out.write('No files to restore.\n')
  for (const s of o.skipped) out.write(`  left as it is: ${s.path} — ${s.reason}\n`)
  if (o.conflicts.length) {
    io.stderr.write(`agentry ${which}: nothing was written — ${o.conflicts.length} file(s) cannot be restored:\n`)
    for (const c of o.conflicts) io.stderr.write(`  ${c.path}: ${c.detail}\n`)
    if (o.conflicts.some((c) => c.reason === 'protected')) io.stderr.write('Add --include-protected to restore protected files too.\n')
    return
  }
  if (o.messageIds.length) out.write(`${which === 'undo' ? 'Hidden' : 'Shown again'}: ${o.messageIds.length} message(s).\n`)
  if (!yes) out.write(`Nothing was written. Run again with --yes to ${which} this.\n`)
}
