import type { AgentInfo, Config, ModelRef, TaskOptions } from '../../src-shared'
import type { RunLevel } from '../runtime'
import { ToolError } from '../tools'
import type { TaskInput } from './task-tool'

/** How the host resolves a model a call names (an alias, `provider/model`); an error lists the choices. */
export type CallModelResolver = (spec: string, config: Config) => { modelRef: ModelRef } | { error: string }

/** One call's per-call controls, applied: the agent as it runs (turn cap), its model, its clock, and the record of them. */
export interface AppliedOptions {
  agent: AgentInfo
  /** the model the call chose; undefined = the agent's own, else the caller's */
  modelRef?: ModelRef
  timeoutSeconds: number
  options: TaskOptions
}

/**
 * `model`, `max_turns`, `timeout_seconds`, `label`, `cleanup` of a call. The schema has checked their shapes (and the
 * timeout against the configured maximum); what needs the configuration — which models exist — is checked here,
 * before anything runs, as a tool error the model can act on.
 */
export function applyTaskOptions(level: RunLevel, agent: AgentInfo, input: TaskInput, resolve: CallModelResolver): AppliedOptions {
  const config = level.settings.config.config
  let modelRef: ModelRef | undefined
  if (input.model !== undefined && input.model !== 'inherit') {
    const r = resolve(input.model, config)
    if ('error' in r) throw new ToolError(`model: ${r.error}`)
    modelRef = r.modelRef
  } else if (input.model === 'inherit') {
    modelRef = level.modelRef
  }
  // The cap lowers the agent's own limit and never raises it.
  const maxSteps = input.max_turns !== undefined ? Math.min(agent.maxSteps, input.max_turns) : agent.maxSteps
  const timeoutSeconds = input.timeout_seconds ?? config.subagents.timeoutSeconds
  const options: TaskOptions = {
    ...(input.label !== undefined ? { label: input.label } : {}),
    ...(modelRef ? { model: `${modelRef.provider}/${modelRef.model}` } : {}),
    ...(input.max_turns !== undefined ? { maxTurns: maxSteps } : {}),
    ...(input.timeout_seconds !== undefined ? { timeoutSeconds } : {}),
    ...(input.cleanup !== undefined ? { cleanup: input.cleanup } : {}),
    ...(input.isolation !== undefined ? { isolation: input.isolation } : {}),
  }
  return { agent: maxSteps === agent.maxSteps ? agent : { ...agent, maxSteps }, modelRef, timeoutSeconds, options }
}

/** The label when the call gave one, else its description: what cards and listings show. */
export function shownName(input: Pick<TaskInput, 'label' | 'description'>): string {
  return input.label ?? input.description
}
