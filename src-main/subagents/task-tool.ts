import { z } from 'zod'
import type { AgentInfo } from '../../src-shared'
import { decideFor, isRunToolContext, type RuleSources, type RunLevel } from '../runtime'
import { defineTool, ToolError, type ToolDef } from '../tools'

/** The `task` tool's arguments; each tool instance narrows `subagent_type` to the agents it can call. */
const TaskParameters = z
  .object({
    description: z.string().min(1).max(200).describe('A short (3-5 word) description of the task, shown to the user.'),
    prompt: z.string().min(1).describe('The complete task for the subagent. It sees only this, not the conversation.'),
    subagent_type: z.string().describe('Which agent to run.'),
    background: z.boolean().optional().describe('Run in the background and return at once with a task_id (default: the agent\'s own setting, else false).'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('Optional data stored with the subagent session.'),
    task_id: z.string().optional().describe('Resume an earlier subagent (its task_id) with this prompt instead of starting a new one.'),
  })
  .strict()
export type TaskInput = z.infer<typeof TaskParameters>

export interface TaskRunner {
  run(level: RunLevel, input: TaskInput, ctx: Parameters<ToolDef['execute']>[1]): Promise<{ output: string; metadata?: Record<string, unknown> }>
}

/** Agents this level may hand work to: mode subagent/all, and not denied by the caller's `task` rules. */
export function callableAgents(level: RunLevel, all: AgentInfo[], rules: Pick<RuleSources, 'runtimeRules'>): AgentInfo[] {
  // One query of the runtime rules for every candidate: each decideFor would otherwise query them again, for every
  // agent, on every prepare (that is, every subagent spawn). Static rules come with the level, read once per prompt.
  const runtimeRules = rules.runtimeRules(level.rootSessionId, level.workdir)
  const snapshot = { runtimeRules: () => runtimeRules }
  return all.filter(
    (a) =>
      (a.mode === 'subagent' || a.mode === 'all') &&
      decideFor(level, snapshot, { tool: 'task', kind: 'name', subjects: [a.name] }).action !== 'deny',
  )
}

function toolsSummary(agent: AgentInfo): string {
  const entries = Object.entries(agent.permission)
  const star = agent.permission['*']
  if (star === 'deny') {
    const allowed = entries.filter(([k, v]) => k !== '*' && v !== 'deny').map(([k]) => k)
    return allowed.length ? allowed.join(', ') : 'none'
  }
  const denied = entries.filter(([k, v]) => k !== '*' && v === 'deny').map(([k]) => k)
  return denied.length ? `All tools except ${denied.join(', ')}` : 'All tools'
}

export function taskDescription(agents: AgentInfo[]): string {
  return [
    'Launch a subagent to handle a focused, multi-step task on its own and report back.',
    '',
    'Available agent types and the tools they have access to:',
    ...agents.map((a) => `- ${a.name}: ${a.description} (Tools: ${toolsSummary(a)})`),
    '',
    'Usage notes:',
    '- Give a short (3-5 word) description and a complete, self-contained prompt: the subagent does not see this conversation.',
    '- Call task several times in one step to run subagents in parallel.',
    '- background: true returns at once with a task_id; the result arrives later as a message.',
    '- task_id resumes an earlier subagent of yours with a follow-up prompt.',
    '- The result comes back as <task_result> (or <task_error>) with the subagent\'s final answer; relay what matters to the user.',
  ].join('\n')
}

/** The `task` tool for a set of callable agents; undefined when there are none (then the tool is not offered). */
export function createTaskTool(agents: AgentInfo[], runner: TaskRunner): ToolDef | undefined {
  if (agents.length === 0) return undefined
  const names = agents.map((a) => a.name) as [string, ...string[]]
  const parameters = TaskParameters.extend({
    subagent_type: z
      .enum(names, { error: () => `unknown or unavailable agent type; valid types: ${names.join(', ')}` })
      .describe('Which agent to run.'),
  }).strict()
  return defineTool({
    name: 'task',
    description: taskDescription(agents),
    parameters,
    permission: (input) => ({ kind: 'name', subjects: [input.subagent_type] }),
    display: (input) => ({ summary: `${input.subagent_type}: ${input.description}` }),
    async execute(input, ctx) {
      if (!isRunToolContext(ctx)) throw new ToolError('task can only run inside an agent run')
      return runner.run(ctx.level, input, ctx)
    },
  })
}
