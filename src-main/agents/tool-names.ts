import { AGENTRY_TOOLS } from '../../src-shared'

/**
 * Tool names of other hosts, mapped onto Agentry's tools. One table per host; README ("Agent files") documents
 * them. A name that maps to `[]` is known but has no counterpart here: it is reported as "not available here",
 * never an error.
 */

export { AGENTRY_TOOLS }

/**
 * Also ours: `web_search` is a provider's native search where one exists (built-in `explore` allows it); `skill` loads
 * an Agent Skill (offered only when some skill is, so it is not among the tools a new agent picks from).
 */
const AGENTRY = new Set<string>([...AGENTRY_TOOLS, 'web_search', 'skill'])

/** Claude Code's tool names (`tools:` and `disallowedTools:` of `.claude/agents/*.md`). */
export const CLAUDE_TOOL_MAP: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file'],
  Write: ['write_file'],
  Edit: ['edit_file'],
  MultiEdit: ['edit_file'],
  Glob: ['glob'],
  Grep: ['grep'],
  LS: ['list_dir'],
  Bash: ['bash'],
  WebFetch: ['web_fetch'],
  TodoWrite: ['todo'],
  TodoRead: ['todo'],
  // Claude Code's newer task-list tools do what `todo` does here.
  TaskCreate: ['todo'],
  TaskUpdate: ['todo'],
  TaskList: ['todo'],
  TaskGet: ['todo'],
  Task: ['task'],
  Agent: ['task'],
  AskUserQuestion: ['question'],
  ExitPlanMode: ['plan_exit'],
  // Known, but nothing here does it.
  WebSearch: [],
  NotebookEdit: [],
  NotebookRead: [],
  BashOutput: [],
  KillShell: [],
  KillBash: [],
  SlashCommand: [],
  Skill: ['skill'],
  EnterPlanMode: [],
  LSP: [],
  SendMessage: [],
  TeamCreate: [],
  TeamDelete: [],
  ListMcpResourcesTool: [],
  ReadMcpResourceTool: [],
}

/** opencode's tool and permission keys (`tools: {write: false}`, `permission: {edit: deny}`). */
export const OPENCODE_TOOL_MAP: Readonly<Record<string, readonly string[]>> = {
  read: ['read_file'],
  // opencode's edit permission covers every tool that changes a file.
  edit: ['write_file', 'edit_file'],
  write: ['write_file', 'edit_file'],
  patch: ['write_file', 'edit_file'],
  multiedit: ['write_file', 'edit_file'],
  list: ['list_dir'],
  glob: ['glob'],
  grep: ['grep'],
  bash: ['bash'],
  webfetch: ['web_fetch'],
  todowrite: ['todo'],
  todoread: ['todo'],
  task: ['task'],
  question: ['question'],
  websearch: [],
  codesearch: [],
  lsp: [],
  // opencode's `permission.skill` ({ "*": allow, "internal-*": deny }): rules per skill name, as here
  skill: ['skill'],
  doom_loop: [],
  external_directory: [],
}

/** Why a known name does nothing here, when "not available here" would mislead. */
export const NOT_NEEDED: Readonly<Record<string, string>> = {
  external_directory: 'tools never reach outside the workspace here unless permissions.jsonc names the path',
  doom_loop: 'repeated identical tool calls are not detected here',
}

export type ToolLookup = { kind: 'tools'; tools: readonly string[] } | { kind: 'unavailable' } | { kind: 'mcp'; name: string } | { kind: 'unknown' }

/** A Claude Code tool name (exact, then case-insensitive), an `mcp__server__tool` name, or one of ours. */
export function lookupClaudeTool(name: string): ToolLookup {
  if (/^mcp__/.test(name)) return { kind: 'mcp', name }
  if (AGENTRY.has(name)) return { kind: 'tools', tools: [name] }
  const exact = CLAUDE_TOOL_MAP[name] ?? CLAUDE_TOOL_MAP[caseInsensitive(CLAUDE_TOOL_MAP, name) ?? '']
  if (exact) return exact.length ? { kind: 'tools', tools: exact } : { kind: 'unavailable' }
  return { kind: 'unknown' }
}

/** An opencode tool/permission key, or one of ours. Keys with glob characters are tool-name globs, kept as written. */
export function lookupOpencodeTool(name: string): ToolLookup {
  if (AGENTRY.has(name) || /[*?[\]{}]/.test(name)) return { kind: 'tools', tools: [name] }
  if (/^mcp__/.test(name)) return { kind: 'mcp', name }
  const mapped = OPENCODE_TOOL_MAP[name] ?? OPENCODE_TOOL_MAP[name.toLowerCase()]
  if (mapped) return mapped.length ? { kind: 'tools', tools: mapped } : { kind: 'unavailable' }
  // A Claude Code name in an opencode-style map is still clear enough.
  return lookupClaudeTool(name)
}

function caseInsensitive(table: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const lower = name.toLowerCase()
  return Object.keys(table).find((k) => k.toLowerCase() === lower)
}
