import path from 'node:path'

/**
 * Agentry's tools under Claude Code's names and argument shapes, so that hook scripts written for Claude Code match
 * (`"matcher": "Bash"`) and read `tool_input.command` / `tool_input.file_path` unchanged. MCP tools already carry
 * Claude Code's `mcp__server__tool` names. A tool with no counterpart keeps its own name and arguments.
 */
const NAMES: Readonly<Record<string, string>> = {
  bash: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  glob: 'Glob',
  grep: 'Grep',
  list_dir: 'LS',
  web_fetch: 'WebFetch',
  task: 'Task',
  todo: 'TodoWrite',
  question: 'AskUserQuestion',
  plan_exit: 'ExitPlanMode',
}

export function claudeToolName(agentryName: string): string {
  return NAMES[agentryName] ?? agentryName
}

type Input = Record<string, unknown>
const abs = (workdir: string, p: unknown) => (typeof p === 'string' ? path.resolve(workdir, p) : p)
const defined = (o: Input): Input => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

/** `tool_input` as Claude Code's tool of that name would have it (absolute `file_path`, `timeout` in ms, …). */
export function claudeToolInput(agentryName: string, input: unknown, workdir: string): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input
  const i = input as Input
  switch (agentryName) {
    case 'bash':
      return defined({ command: i.command, description: i.description, timeout: i.timeoutMs })
    case 'read_file':
      return defined({ file_path: abs(workdir, i.path), offset: i.offset, limit: i.limit })
    case 'write_file':
      return { file_path: abs(workdir, i.path), content: i.content }
    case 'edit_file':
      return defined({ file_path: abs(workdir, i.path), old_string: i.old_string, new_string: i.new_string, replace_all: i.replace_all ?? false })
    case 'glob':
      return defined({ pattern: i.pattern, path: i.path === undefined ? undefined : abs(workdir, i.path) })
    case 'grep':
      return defined({ pattern: i.pattern, path: i.path === undefined ? undefined : abs(workdir, i.path), glob: i.include })
    case 'list_dir':
      return { path: abs(workdir, i.path ?? '.') }
    case 'web_fetch':
      return defined({ url: i.url, prompt: i.format })
    case 'task':
      return defined({ description: i.description, prompt: i.prompt, subagent_type: i.subagent_type })
    default:
      return input
  }
}
