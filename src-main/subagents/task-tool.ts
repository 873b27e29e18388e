import { z } from 'zod'
import type { AgentInfo, Config, ModelRef } from '../../src-shared'
import { agentRules, decideFor, isRunToolContext, nativeToolNames, offeredNativeTools, toolExists, type RuleSources, type RunLevel } from '../runtime'
import { defineTool, ToolError, type ToolDef } from '../tools'

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

/**
 * `(Tools: …)` of one agent in the listing: only tools that exist for that agent's run (`exists`), so a rule that
 * names a tool the run's provider does not have (say `web_search` without a native search) is never advertised.
 */
function toolsSummary(agent: AgentInfo, exists: (tool: string) => boolean): string {
  const entries = Object.entries(agent.permission).filter(([k]) => k !== '*' && exists(k))
  if (agent.permission['*'] === 'deny') {
    const allowed = entries.filter(([, v]) => v !== 'deny').map(([k]) => k)
    return allowed.length ? allowed.join(', ') : 'none'
  }
  const denied = entries.filter(([, v]) => v === 'deny').map(([k]) => k)
  return denied.length ? `All tools except ${denied.join(', ')}` : 'All tools'
}

export function taskDescription(agents: AgentInfo[], exists: (agent: AgentInfo, tool: string) => boolean): string {
  return [
    'Launch a subagent to handle a focused, multi-step task on its own and report back.',
    '',
    'Available agent types and the tools they have access to:',
    ...agents.map((a) => `- ${a.name}: ${a.description} (Tools: ${toolsSummary(a, (t) => exists(a, t))})`),
    '',
    'Usage notes:',
    '- Give a short (3-5 word) description and a complete, self-contained prompt: the subagent does not see this conversation.',
    '- Call task several times in one step to run subagents in parallel.',
    '- background: true returns at once with a task_id; the result arrives later as a message.',
    '- task_id resumes an earlier subagent of yours with a follow-up prompt (not one that is still running).',
    '- The result comes back as <task_result> (or <task_error>) with the subagent\'s final answer; relay what matters to the user.',
  ].join('\n')
}

const FIELDS = {
  description: z.string().min(1).max(200).describe('A short (3-5 word) description of the task, shown to the user.'),
  prompt: z.string().min(1).describe('The complete task for the subagent. It sees only this, not the conversation.'),
  background: z.boolean().optional().describe('Run in the background and return at once with a task_id (default: the agent\'s own setting, else false).'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Optional data stored with the subagent session.'),
  task_id: z.string().optional().describe('Resume an earlier subagent (its task_id) with this prompt instead of starting a new one.'),
  run_in_background: z.boolean().optional().describe('Alias of background (accepted for models used to that name).'),
  resume: z.string().optional().describe('Alias of task_id (accepted for models used to that name).'),
}

/**
 * The input schema. Models trained on other hosts' task tools send `run_in_background` and `resume`; they are
 * accepted as aliases of `background` and `task_id` and normalized away, so such a model does not waste a step on
 * a schema error. Giving both names with different values is an error.
 */
function taskInputSchema(names: [string, ...string[]]) {
  return z
    .object({
      ...FIELDS,
      subagent_type: z
        .enum(names, { error: () => `unknown or unavailable agent type; valid types: ${names.join(', ')}` })
        .describe('Which agent to run.'),
    })
    .strict()
    .superRefine((v, ctx) => {
      if (v.run_in_background !== undefined && v.background !== undefined && v.run_in_background !== v.background) {
        ctx.addIssue({ code: 'custom', path: ['run_in_background'], message: 'conflicts with background; send only background' })
      }
      if (v.resume !== undefined && v.task_id !== undefined && v.resume !== v.task_id) {
        ctx.addIssue({ code: 'custom', path: ['resume'], message: 'conflicts with task_id; send only task_id' })
      }
    })
    .transform(({ run_in_background, resume, ...rest }) => ({
      ...rest,
      background: rest.background ?? run_in_background,
      task_id: rest.task_id ?? resume,
    }))
}

export type TaskInput = z.output<ReturnType<typeof taskInputSchema>>

/** The `task` tool for a set of callable agents; undefined when there are none (then the tool is not offered). */
export function createTaskTool(agents: AgentInfo[], runner: TaskRunner, exists: (agent: AgentInfo, tool: string) => boolean): ToolDef | undefined {
  if (agents.length === 0) return undefined
  const names = agents.map((a) => a.name) as [string, ...string[]]
  return defineTool({
    name: 'task',
    description: taskDescription(agents, exists),
    parameters: taskInputSchema(names),
    permission: (input) => ({ kind: 'name', subjects: [input.subagent_type] }),
    display: (input) => ({ summary: `${input.subagent_type}: ${input.description}` }),
    async execute(input, ctx) {
      if (!isRunToolContext(ctx)) throw new ToolError('task can only run inside an agent run')
      return runner.run(ctx.level, input, ctx)
    },
  })
}

/**
 * The `task` tool of each level. It depends only on which agents are callable and which tools each would have (the
 * run level arrives with each call), so every spawn with the same set reuses one definition — and its JSON schema,
 * which is costly to derive.
 */
export class TaskTools {
  private readonly cache = new Map<string, ToolDef | undefined>()

  constructor(
    private readonly runner: TaskRunner,
    private readonly rules: Pick<RuleSources, 'runtimeRules'>,
    private readonly agentModel: (agent: AgentInfo, config: Config) => ModelRef | undefined,
  ) {}

  forLevel(level: RunLevel): ToolDef | undefined {
    const agents = callableAgents(level, level.settings.agents, this.rules)
    const native = new Map(agents.map((a) => [a.name, this.nativeToolsOf(level, a)]))
    const key = agents.map((a) => `${a.name}\u0000${a.description}\u0000${JSON.stringify(a.permission)}\u0000${native.get(a.name)!.join(',')}`).join('\u0001')
    if (!this.cache.has(key)) {
      if (this.cache.size > 64) this.cache.clear()
      this.cache.set(key, createTaskTool(agents, this.runner, (a, tool) => toolExists(tool, native.get(a.name) ?? [])))
    }
    return this.cache.get(key)
  }

  /** The native tools (provider web search) a child of `level` running `agent` would be offered: the listing names only those. */
  private nativeToolsOf(level: RunLevel, agent: AgentInfo): string[] {
    const modelRef = this.agentModel(agent, level.settings.config.config) ?? level.modelRef
    if (nativeToolNames(modelRef, level.settings.config.config).length === 0) return []
    const child = { ...level, agent, modelRef, chain: [...level.chain, agentRules(agent)], agentPath: [...level.agentPath, agent.name] }
    return offeredNativeTools(child, this.rules).map((t) => t.name)
  }
}
