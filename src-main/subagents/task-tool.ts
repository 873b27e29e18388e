import type { AgentInfo, Config, ModelRef } from '../../src-shared'
import {
  callableSubagents,
  decideFor,
  deniesOutright,
  isRunToolContext,
  nativeToolNames,
  offeredNativeTools,
  SESSION_TOOLS,
  skillsForRun,
  subagentRules,
  toolsForRun,
  type RuleSources,
  type RunLevel,
} from '../runtime'
import { defineTool, ToolError, type ToolDef } from '../tools'
import { FORK_TYPE } from './fork'
import { taskDescription, type ListedAgent, type TaskDescriptionOptions } from './task-description'
import { taskInputSchema, taskJsonSchema, type TaskInput, type TaskSchemaOptions } from './task-schema'

export type { TaskInput }

export interface TaskRunner {
  run(level: RunLevel, input: TaskInput, ctx: Parameters<ToolDef['execute']>[1]): Promise<{ output: string; metadata?: Record<string, unknown> }>
  /** the agent type an earlier child of this level ran as (`task_id` resumes it as that type); undefined = not its child */
  storedType(level: RunLevel, taskId: string): string | undefined
}

/** Agents this level may hand work to: mode subagent/all, not a host helper, and not denied by the caller's `task` rules. */
export function callableAgents(level: RunLevel, all: AgentInfo[], rules: Pick<RuleSources, 'runtimeRules'>): AgentInfo[] {
  // One query of the runtime rules for every candidate: each decideFor would otherwise query them again, for every
  // agent, on every prepare (that is, every subagent spawn). Static rules come with the level, read once per prompt.
  const runtimeRules = rules.runtimeRules(level.path, level.workdir)
  const snapshot = { runtimeRules: () => runtimeRules }
  return callableSubagents(all).filter(
    (a) => a.name !== FORK_TYPE && decideFor(level, snapshot, { tool: 'task', kind: 'name', subjects: [a.name] }).action !== 'deny',
  )
}

/** The `task` tool for a listing; undefined when no agent can be called (then the tool is not offered). */
export function createTaskTool(listing: TaskDescriptionOptions, limits: Omit<TaskSchemaOptions, 'names'>, runner: TaskRunner): ToolDef | undefined {
  if (listing.agents.length === 0) return undefined
  const schema = { ...limits, names: listing.agents.map((a) => a.name) }
  return defineTool({
    name: 'task',
    description: taskDescription(listing),
    parameters: taskInputSchema(schema),
    inputSchema: taskJsonSchema(schema),
    // A resumed child is checked as the type it is, whatever type the call names.
    permission: (input, ctx) => {
      const stored = input.task_id && isRunToolContext(ctx) ? runner.storedType(ctx.level, input.task_id) : undefined
      const type = stored ?? input.subagent_type
      return type ? { kind: 'name', subjects: [type] } : null
    },
    display: (input) => ({ summary: `${input.subagent_type ?? 'resume'}: ${input.label ?? input.description}` }),
    async execute(input, ctx) {
      if (!isRunToolContext(ctx)) throw new ToolError('task can only run inside an agent run')
      return runner.run(ctx.level, input, ctx)
    },
  })
}

/**
 * The `task` tool of each level. It depends only on what the listing says (which agents, the tools each would have
 * under this caller, who reads the result) and on the limits, so every spawn with the same listing reuses one
 * definition — and its JSON schema, which is costly to derive.
 */
export class TaskTools {
  private readonly cache = new Map<string, ToolDef | undefined>()

  constructor(
    private readonly runner: TaskRunner,
    private readonly rules: Pick<RuleSources, 'runtimeRules'>,
    private readonly agentModel: (agent: AgentInfo, config: Config) => ModelRef | undefined,
    private readonly modelChoices: (config: Config) => string,
  ) {}

  forLevel(level: RunLevel): ToolDef | undefined {
    const config = level.settings.config.config
    const agents = callableAgents(level, level.settings.agents, this.rules)
    const listing: TaskDescriptionOptions = {
      agents: agents.map((a): ListedAgent => ({ name: a.name, description: a.description, tools: this.childTools(level, a), inspectable: a.inspectable })),
      caller: level.depth === 0 ? 'root' : 'subagent',
      sessionTools: SESSION_TOOLS.some((t) => !level.chain.some((rules) => deniesOutright(rules, t))),
    }
    const limits = { maxTimeoutSeconds: config.subagents.timeoutSeconds, modelChoices: this.modelChoices(config) }
    const key = JSON.stringify([listing, limits])
    if (!this.cache.has(key)) {
      if (this.cache.size > 64) this.cache.clear()
      this.cache.set(key, createTaskTool(listing, limits, this.runner))
    }
    return this.cache.get(key)
  }

  /**
   * The tools `agent` would be offered as a child of `level`: what its own rules and every rule above it leave, the
   * way the child's run will compute them — so the listing never promises a tool the child will not have.
   */
  private childTools(level: RunLevel, agent: AgentInfo): string[] {
    const config = level.settings.config.config
    const chain = [...level.chain, subagentRules(agent, config)]
    const own = toolsForRun(agent, chain, [], level.depth + 1).map((t) => t.name)
    const canNest = level.depth + 2 <= config.subagents.maxDepth && callableSubagents(level.settings.agents).length > 0
    const higher = [...(canNest ? ['task'] : []), ...SESSION_TOOLS].filter((t) => !chain.some((rules) => deniesOutright(rules, t)))
    // The skill tool, when some skill is left to the child under its chain (as its own run will find).
    const child = { ...level, agent, chain, depth: level.depth + 1, agentPath: [...level.agentPath, agent.name] }
    const skill = skillsForRun(child).length > 0 && !chain.some((rules) => deniesOutright(rules, 'skill')) ? ['skill'] : []
    return [...own, ...skill, ...higher, ...this.nativeToolsOf(level, agent, chain)]
  }

  /** The native tools (provider web search) a child of `level` running `agent` would be offered. */
  private nativeToolsOf(level: RunLevel, agent: AgentInfo, chain: RunLevel['chain']): string[] {
    const modelRef = this.agentModel(agent, level.settings.config.config) ?? level.modelRef
    if (nativeToolNames(modelRef, level.settings.config.config).length === 0) return []
    const child = { ...level, agent, modelRef, chain, agentPath: [...level.agentPath, agent.name] }
    return offeredNativeTools(child, this.rules).map((t) => t.name)
  }
}
