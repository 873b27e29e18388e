import { CommandUse, parseCommandCall, type AgentEvent, type PartRecord } from '../../src-shared'
import { closeMatches, expandCommand, HOST_BUILTINS, type CommandDef, type CommandSet, type ShellOutcome } from '../commands'
import { executeToolCalls, type RunContext, type Transcript } from '../loop'
import { newId } from '../store'
import { RunnerError } from './session-error'

/** A queued prompt that calls a command, as resolved when the prompt is sent (checked) and when its turn runs. */
export interface CommandCall {
  use: CommandUse
  command: CommandDef
}

/**
 * The command a prompt calls, or undefined for ordinary text. A `/name` that names no command is refused before
 * anything is queued (the model never sees it), with the close matches; a built-in that only the app's composer
 * performs (a new session, a picker) says so. A space before the slash sends the text as it is.
 */
export function commandOf(text: string, commands: CommandSet): CommandCall | undefined {
  const use = parseCommandCall(text)
  if (!use) return undefined
  const command = commands.byName.get(use.name)
  if (!command) {
    const near = closeMatches(use.name, commands.names)
    const hint = near.length ? ` Did you mean ${near.map((n) => `/${n}`).join(', ')}?` : ''
    const broken = commands.errors.find((e) => e.file.replace(/\\/g, '/').replace(/\.md$/i, '').endsWith(`/${use.name.replace(/:/g, '/')}`))
    const why = broken ? ` Its file could not be loaded: ${broken.file}${broken.line ? `:${broken.line}` : ''}: ${broken.reason}.` : ''
    throw new RunnerError('not_found', `Unknown command /${use.name}.${why}${hint} /help lists the commands here (to send text that starts with a slash, put a space before it).`)
  }
  if (command.source === 'builtin' && command.name === 'undo') {
    throw new RunnerError('invalid_request', '/undo is not a prompt: use it in the Agentry app or your editor, or run `agentry undo SESSION` (it shows the plan; add --yes to do it).')
  }
  if (command.source === 'builtin' && !HOST_BUILTINS.has(command.name)) {
    throw new RunnerError('invalid_request', `/${command.name} is an action of the Agentry app's composer (${command.description.toLowerCase()}); it does not run from here.`)
  }
  return { use, command }
}

/** The last message the person sent, when it called a command: what they typed, and its text part (to re-expand). */
export function retriedCommand(transcript: Transcript): { typed: string; part: PartRecord } | undefined {
  const last = [...transcript.history()].reverse().find((m) => m.role === 'user' && !m.metadata.synthetic && !m.metadata.notice)
  const use = CommandUse.safeParse(last?.metadata.command)
  const part = last?.parts.find((p) => p.type === 'text')
  return use.success && part ? { typed: `/${use.data.name}${use.data.args ? ` ${use.data.args}` : ''}`, part } : undefined
}

/** `/help`: the commands with their descriptions and argument hints, as a notice (the model never sees it). */
export function helpText(commands: CommandSet): string {
  const lines = commands.commands.map((c) => `- /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''} — ${c.description || '(no description)'}${c.source === 'builtin' ? '' : ` (${c.source})`}`)
  const problems = commands.errors.map((e) => `- ${e.file}${e.line ? `:${e.line}` : ''}: ${e.field ? `${e.field}: ` : ''}${e.reason}`)
  const held = commands.untrusted ? [`\n${commands.untrusted} workspace command file(s) are not offered until you trust this workspace.`] : []
  return ['Commands:', ...lines, ...(problems.length ? ['\nCommand files that could not be loaded:', ...problems] : []), ...held].join('\n')
}

interface CallSite {
  run: RunContext
  transcript: Transcript
  emit(event: AgentEvent): void
}

/**
 * Runs one tool call the command makes on the person's behalf — a `!` shell line (bash) or its subtask (task) — in
 * `messageId`, exactly as if a model had called it: the same permission gate (an ask asks the person, and is a deny
 * in a headless run), the same sandbox, a card in the transcript.
 */
export async function callTool(site: CallSite, messageId: string, index: number, toolName: string, input: Record<string, unknown>): Promise<ShellOutcome> {
  if (!site.run.tools.some((t) => t.name === toolName)) return { ok: false, message: `the agent "${site.run.agent.name}" has no ${toolName} tool here` }
  const sessionId = site.transcript.sessionId
  const toolCallId = newId('call')
  const part: PartRecord = { id: newId('prt'), messageId, sessionId, index, type: `tool-${toolName}`, data: { input }, toolCallId, toolState: 'input-available' }
  site.transcript.upsertPart(part)
  site.emit({ type: 'tool_call_start', sessionId, at: Date.now(), messageId, partId: part.id, toolCallId, toolName, input })
  await executeToolCalls(site.run, [{ part, toolName, input }])
  return part.toolState === 'output-available' ? { ok: true, output: String(part.data.output ?? '') } : { ok: false, message: String(part.data.error ?? 'it failed') }
}

/**
 * The command's prompt, with each `!` line run as a bash call in a notice message (shown with its card, never sent
 * to the model: its output is in the prompt already).
 */
export async function expandForTurn(site: CallSite & { workdir: string }, call: CommandCall): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  let notice: string | undefined
  let index = 0
  const expanded = await expandCommand(call.command.template, call.use.args, {
    workdir: site.workdir,
    runShell: async (command) => {
      if (!notice) {
        const message = site.transcript.createMessage('assistant', { notice: 'command', command: call.use })
        site.emit({ type: 'message_created', sessionId: site.transcript.sessionId, at: Date.now(), message })
        notice = message.id
      }
      return callTool(site, notice, index++, 'bash', { command, description: `/${call.use.name}: a shell line of the command` })
    },
  })
  return expanded.ok ? expanded : { ok: false, message: `/${call.use.name}: ${expanded.message}` }
}

/** What a command's turn does next: the model answers its prompt, or the command has done all there is. */
export type CommandOutcome = { kind: 'prompt'; text: string } | { kind: 'done' } | { kind: 'error'; message: string }

/**
 * A command in its turn, the person's message already stored (`userPart`, the text they typed). `/help` and
 * `/compact` are done here; a file command's prompt replaces the typed text in that message (what the model
 * receives; `metadata.command` keeps what was typed); a `subtask` command hands that prompt to a task of its agent
 * and the turn ends with the task's result in the transcript (the current agent's context is spared it).
 */
export async function performCommand(
  site: CallSite & { workdir: string; compact(instructions: string): Promise<{ compacted: boolean; blocked?: string }> },
  call: CommandCall,
  commands: CommandSet,
  userPart: PartRecord,
): Promise<CommandOutcome> {
  const sessionId = site.transcript.sessionId
  const notice = (text: string) => {
    const message = site.transcript.createMessage('assistant', { notice: 'command', command: call.use })
    const part: PartRecord = { id: newId('prt'), messageId: message.id, sessionId, index: 0, type: 'text', data: { text }, toolCallId: null, toolState: null }
    site.transcript.upsertPart(part)
    site.emit({ type: 'message_created', sessionId, at: Date.now(), message })
    site.emit({ type: 'part_updated', sessionId, at: Date.now(), part })
  }
  if (call.command.name === 'help' && call.command.source === 'builtin') {
    notice(helpText(commands))
    return { kind: 'done' }
  }
  if (call.command.name === 'compact' && call.command.source === 'builtin') {
    const done = await site.compact(call.use.args)
    notice(
      done.blocked
        ? `Not compacted: ${done.blocked}`
        : done.compacted
          ? 'Compacted: the older messages are summarized for the model; you still see them all.'
          : 'Nothing to compact yet: the conversation is short.',
    )
    return { kind: 'done' }
  }
  const expanded = await expandForTurn(site, call)
  if (!expanded.ok) return { kind: 'error', message: expanded.message }
  userPart.data = { ...userPart.data, text: expanded.text }
  site.transcript.upsertPart(userPart)
  site.emit({ type: 'part_updated', sessionId, at: Date.now(), part: userPart })
  if (!call.command.subtask) return { kind: 'prompt', text: expanded.text }
  const message = site.transcript.createMessage('assistant', { agent: site.run.agent.name, command: call.use })
  site.emit({ type: 'message_created', sessionId, at: Date.now(), message })
  const agent = call.command.agent ?? 'general'
  const ran = await callTool(site, message.id, 0, 'task', { subagent_type: agent, description: `/${call.use.name}`.slice(0, 200), prompt: expanded.text })
  return ran.ok ? { kind: 'done' } : { kind: 'error', message: `/${call.use.name}: the subtask (${agent}) did not run: ${ran.message}` }
}
