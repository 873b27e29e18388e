/**
 * Every tool an agent can be offered here (`task` comes from the subagents module, `plan_exit` only to agents
 * whose permission names it). No zod here: the UI's "New agent" form imports it.
 */
export const AGENTRY_TOOLS = [
  'read_file',
  'write_file',
  'edit_file',
  'list_dir',
  'glob',
  'grep',
  'bash',
  'web_fetch',
  'todo',
  'question',
  'task',
  'plan_exit',
] as const
export type AgentryTool = (typeof AGENTRY_TOOLS)[number]
