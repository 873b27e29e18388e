import { parseArgs, type ParseArgsConfig } from 'node:util'
import { parseAmount } from '../../src-shared/budget-text'

export class UsageError extends Error {
  override readonly name = 'UsageError'
}

export const USAGE = `Usage:
  agentry run [--workdir D] [--continue | --session ID] [--agent A] [--model P/M] [--json] [--yes | --allow PATTERN…] [--max-cost USD] [--max-tokens N] PROMPT
  agentry agents [--workdir D] [--json]
  agentry skills [--workdir D] [--json]
  agentry commands [--workdir D] [--json]
  agentry sessions [--all] [--json]
  agentry show SESSION [--json | --markdown]
  agentry changes SESSION [--json]
  agentry undo SESSION [--to MESSAGE_ID] [--yes] [--include-protected] [--json]
  agentry redo SESSION [--yes] [--include-protected] [--json]
  agentry serve [--port N] [--workdir D] [--token T]
  agentry trust [--workdir D] [--show | --revoke] [--json]
  agentry rules [--json]
  agentry containers [--json]
  agentry acp [--workdir D]
  agentry mcp list [--workdir D] [--json] [--cached]
  agentry --version

Data lives in $AGENTRY_HOME (default ~/.local/share/agentry on Linux).
serve --token (or AGENTRY_TOKEN) keeps the same token across restarts, so open tabs reconnect.
--debug (any command, or AGENTRY_DEBUG=1) checks every host answer against the bridge contract and prints stack traces.
--allow takes TOOL or TOOL:PATTERN (e.g. --allow read_file --allow "bash:git status*"); repeat it for more.
run --continue goes on with the workspace's latest conversation, --session ID with that one.
run reads what is piped in after PROMPT (cat build.log | agentry run "why does this fail?"); PROMPT - takes it all from stdin.
--max-cost and --max-tokens bound the whole run, subagents included; at the limit it stops (exit 1) and says so.
trust shows what a workspace's .agents/permissions.jsonc and config.yaml change, then trusts them as they are
(untrusted, a workspace may only tighten your rules, its providers get none of your keys and its MCP servers do not start).
mcp list connects to each MCP server that may start and shows its status and tools (--cached: only what is known).
changes lists what each turn of a session changed in the workspace, by which agent; undo takes back the last turn
(or every turn from MESSAGE_ID on) and redo puts it back — both print the plan, and write only with --yes.
containers checks the container engine children with isolation: container run on (exit 1 when it is not usable).
acp speaks the Agent Client Protocol on stdin/stdout for editors (Zed, JetBrains, Neovim, Emacs); see the README.`

const SEE_HELP = 'Run agentry --help for the commands and their options.'
/** What to put instead of an empty option value. */
const EMPTY_HINT: Record<string, string> = {
  model: 'Give a provider/model, e.g. --model anthropic/claude-sonnet-4-5, or leave --model out for the default.',
  agent: 'Give an agent name (see agentry agents), or leave --agent out for the default.',
  workdir: 'Give a folder, or leave --workdir out for the current one.',
  port: 'Give a port number, or leave --port out for a random free port.',
  token: 'Give a token, or leave --token out for a fresh one.',
  allow: 'Give TOOL or TOOL:PATTERN, e.g. --allow read_file.',
  'max-cost': 'Give an amount in US dollars, e.g. --max-cost 0.50, or leave --max-cost out for no limit.',
  'max-tokens': 'Give a number of tokens, e.g. --max-tokens 200000, or leave --max-tokens out for no limit.',
  to: 'Give the id of one of your messages (see agentry show SESSION --json), or leave --to out to undo the last turn.',
}

type Spec = NonNullable<ParseArgsConfig['options']>

const COMMANDS: Record<string, Spec> = {
  run: {
    workdir: { type: 'string' },
    agent: { type: 'string' },
    model: { type: 'string' },
    json: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    allow: { type: 'string', multiple: true },
    'max-cost': { type: 'string' },
    'max-tokens': { type: 'string' },
    continue: { type: 'boolean', short: 'c' },
    session: { type: 'string' },
  },
  agents: { workdir: { type: 'string' }, json: { type: 'boolean' } },
  skills: { workdir: { type: 'string' }, json: { type: 'boolean' } },
  commands: { workdir: { type: 'string' }, json: { type: 'boolean' } },
  sessions: { all: { type: 'boolean' }, json: { type: 'boolean' } },
  show: { json: { type: 'boolean' }, markdown: { type: 'boolean' } },
  changes: { json: { type: 'boolean' } },
  undo: { to: { type: 'string' }, yes: { type: 'boolean', short: 'y' }, 'include-protected': { type: 'boolean' }, json: { type: 'boolean' } },
  redo: { yes: { type: 'boolean', short: 'y' }, 'include-protected': { type: 'boolean' }, json: { type: 'boolean' } },
  serve: { port: { type: 'string' }, workdir: { type: 'string' }, token: { type: 'string' } },
  trust: { workdir: { type: 'string' }, revoke: { type: 'boolean' }, show: { type: 'boolean' }, json: { type: 'boolean' } },
  rules: { json: { type: 'boolean' } },
  containers: { json: { type: 'boolean' } },
  acp: { workdir: { type: 'string' } },
  mcp: { workdir: { type: 'string' }, json: { type: 'boolean' }, cached: { type: 'boolean' } },
}

/** Every command: `--debug` checks each host answer against the bridge contract and prints stack traces. */
const COMMON: Spec = { help: { type: 'boolean', short: 'h' }, debug: { type: 'boolean' } }

export interface ParsedArgs {
  command: string
  values: Record<string, string | boolean | string[] | undefined>
  positionals: string[]
}

export function parseCli(argv: string[]): ParsedArgs {
  const [command, ...rest] = argv
  if (!command) throw new UsageError(USAGE)
  if (command === '--help' || command === '-h' || command === 'help') return { command: 'help', values: { help: true }, positionals: [] }
  if (command === '--version' || command === '-v' || command === 'version') return { command: 'version', values: {}, positionals: [] }
  const options = COMMANDS[command]
  if (!options) throw new UsageError(`Unknown command "${command}". ${SEE_HELP}`)
  try {
    const { values, positionals } = parseArgs({ args: rest, options: { ...options, ...COMMON }, allowPositionals: true, strict: true })
    for (const [name, value] of Object.entries(values)) {
      if (value === '' || (Array.isArray(value) && value.some((v) => v === ''))) throw new UsageError(`agentry ${command}: --${name} is empty. ${EMPTY_HINT[name] ?? SEE_HELP}`)
    }
    return { command, values: values as ParsedArgs['values'], positionals }
  } catch (err) {
    if (err instanceof UsageError) throw err
    // Node's parser says which option and why in its first sentence; the rest is for programmers.
    throw new UsageError(`agentry ${command}: ${(err as Error).message.split('. To specify')[0].replace(/\.$/, '')}. ${SEE_HELP}`)
  }
}

/** `--debug` or AGENTRY_DEBUG: contract checks on every host answer, stack traces on unexpected errors. */
export function debugEnabled(args: ParsedArgs | undefined, io: { env: NodeJS.ProcessEnv }): boolean {
  return Boolean(args?.values.debug) || Boolean(io.env.AGENTRY_DEBUG)
}

/** `--allow TOOL` or `--allow TOOL:PATTERN` → an allow rule (runtime layer: it can never lift a deny). */
export function parseAllow(spec: string): { tool: string; pattern: string; action: 'allow' } {
  const at = spec.indexOf(':')
  const tool = (at < 0 ? spec : spec.slice(0, at)).trim()
  const pattern = at < 0 ? '*' : spec.slice(at + 1).trim()
  if (!tool || !pattern) throw new UsageError(`--allow "${spec}": expected TOOL or TOOL:PATTERN, e.g. --allow "bash:git status*"`)
  return { tool, pattern, action: 'allow' }
}

/** `--max-cost 0.50` / `--max-tokens 200k`: this run's budget; undefined when neither is given. */
export function parseRunBudget(values: Record<string, unknown>): { costUsd?: number; tokens?: number } | undefined {
  const cost = values['max-cost'] as string | undefined
  const tokens = values['max-tokens'] as string | undefined
  if (cost === undefined && tokens === undefined) return undefined
  const out: { costUsd?: number; tokens?: number } = {}
  if (cost !== undefined) {
    const v = parseAmount(cost)
    if (typeof v !== 'number' || v <= 0) throw new UsageError(`--max-cost "${cost}": expected an amount in US dollars above 0, e.g. --max-cost 0.50`)
    out.costUsd = v
  }
  if (tokens !== undefined) {
    const v = parseAmount(tokens)
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new UsageError(`--max-tokens "${tokens}": expected a whole number of tokens above 0, e.g. --max-tokens 200000 (or 200k)`)
    out.tokens = v
  }
  return out
}
