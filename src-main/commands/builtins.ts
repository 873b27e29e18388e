import type { CommandDef } from './command-file'

const builtin = (name: string, description: string, argumentHint?: string): CommandDef => ({
  name,
  description,
  ...(argumentHint ? { argumentHint } : {}),
  source: 'builtin',
  allowedTools: [],
  warnings: [],
  template: '',
})

/**
 * Agentry's own commands. `/help` and `/compact` run on the host (any front end); the others are actions of a front
 * end (a new session, a picker, the undo dialog), so the composer handles them and the host refuses them with a line
 * saying so. `/undo` is also an editor's (ACP runs it at once, see acp/undo-command.ts); the CLI has `agentry undo`.
 */
export const BUILTIN_COMMANDS: CommandDef[] = [
  builtin('help', 'List the commands you can use here, with what each does'),
  builtin('clear', 'Start a new session (the current one is kept in the sidebar)'),
  builtin('compact', 'Summarize the conversation so far to free the context window'),
  builtin('agents', 'Open the agent picker'),
  builtin('model', "Change this session's model", '[provider/model]'),
  builtin('undo', 'Take back your last message: the conversation from it on, and the file changes made since'),
]

/** Built-ins that the host runs itself; the rest belong to the app's composer. */
export const HOST_BUILTINS = new Set(['help', 'compact'])
