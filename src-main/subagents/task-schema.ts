import type { JSONSchema7 } from '@ai-sdk/provider'
import { z } from 'zod'
import { ISOLATIONS } from '../../src-shared'
import { resolveAgentName } from './agent-names'
import { FORK_TYPE } from './fork'

/**
 * The `task` tool's two schemas. The model reads a strict one: `subagent_type` required, an enum of the agents it may
 * call plus "fork", no alias fields. The arguments are checked by a forgiving one, so that a model trained on another
 * host does not waste a step: `run_in_background` and `resume` are taken as `background` and `task_id`, a close
 * miss such as `general-purpose` is the agent it obviously means, and with `task_id` the type may be left out (the
 * child's own type is used). Leaving `subagent_type` out never forks.
 */
export interface TaskSchemaOptions {
  /** agents the caller may start */
  names: string[]
  /** subagents.timeoutSeconds: the most a call may ask for */
  maxTimeoutSeconds: number
  /** what `model` may name here, for its description (`"haiku", "sonnet", … or provider/model`) */
  modelChoices: string
}

function shared(o: TaskSchemaOptions) {
  return {
    description: z.string().min(1).max(200).describe('A short (3-5 word) summary of the task, shown to the user.'),
    prompt: z.string().min(1).describe('The task. A typed subagent sees only this prompt, not your conversation; a fork takes it as its directive.'),
    background: z
      .boolean()
      .optional()
      .describe('Return at once with a task_id; the result arrives later as a notice (default: the agent\'s own setting, else false). If you want no report, tell the subagent to answer exactly ANNOUNCE_SKIP.'),
    task_id: z.string().min(1).max(200).optional().describe('Continue an earlier subagent of yours (its task_id) with this prompt; it keeps its type and memory.'),
    model: z.string().min(1).max(200).optional().describe(`Run it on another model: ${o.modelChoices}. Default: the agent's own model, else yours.`),
    max_turns: z.number().int().positive().max(1000).optional().describe('At most this many steps (never above the agent\'s own limit); then it must answer.'),
    timeout_seconds: z
      .number()
      .positive()
      .max(o.maxTimeoutSeconds, { error: `at most ${o.maxTimeoutSeconds} (subagents.timeoutSeconds in config.yaml)` })
      .optional()
      .describe(`Stop it after this many seconds of its own work (at most ${o.maxTimeoutSeconds}, the default).`),
    label: z.string().trim().min(1).max(80).optional().describe('A short name shown to the user instead of the description.'),
    isolation: z
      .enum(ISOLATIONS)
      .optional()
      .describe('"worktree": a new git worktree on its own branch (you get the branch and how to merge it). "container": its commands run in a container of its own, without network unless allowed.'),
    cleanup: z.enum(['keep', 'delete']).optional().describe('"delete": archive its session as soon as it ends (default "keep").'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('Data stored with its session (the subagent does not see it).'),
    budget: z
      .object({
        tokens: z.number().int().positive().max(100_000_000).optional(),
        cost_usd: z.number().positive().max(10_000).optional(),
      })
      .strict()
      .optional()
      .describe('The most it may spend, everything it starts included (never more than you have left). At the limit it stops and you get a task_error with reason="budget".'),
  }
}

/** What `subagent_type` may be, in words, for the errors a model reads. */
export function typeChoices(names: readonly string[]): string {
  return `${names.join(', ')}, or "${FORK_TYPE}" for a copy of yourself`
}

/** The JSON schema the model reads. */
export function taskJsonSchema(o: TaskSchemaOptions): JSONSchema7 {
  const { description, prompt, ...rest } = shared(o)
  const types: string[] = [...o.names, FORK_TYPE]
  const schema = z
    .object({
      description,
      prompt,
      subagent_type: z.enum(types as [string, ...string[]]).describe(`Which agent runs it (see the list above), or "${FORK_TYPE}".`),
      ...rest,
    })
    .strict()
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>
  return json as JSONSchema7
}

/** The schema the arguments are checked with. */
export function taskInputSchema(o: TaskSchemaOptions) {
  return z
    .object({
      ...shared(o),
      subagent_type: z.string().optional(),
      run_in_background: z.boolean().optional(),
      resume: z.string().min(1).max(200).optional(),
    })
    .strict()
    .superRefine((v, ctx) => {
      if (v.run_in_background !== undefined && v.background !== undefined && v.run_in_background !== v.background) {
        ctx.addIssue({ code: 'custom', path: ['run_in_background'], message: 'conflicts with background; send only background' })
      }
      if (v.resume !== undefined && v.task_id !== undefined && v.resume !== v.task_id) {
        ctx.addIssue({ code: 'custom', path: ['resume'], message: 'conflicts with task_id; send only task_id' })
      }
      const type = v.subagent_type
      if (type === undefined) {
        if (v.task_id === undefined && v.resume === undefined) ctx.addIssue({ code: 'custom', path: ['subagent_type'], message: `required: ${typeChoices(o.names)}` })
      } else if (type !== FORK_TYPE && !resolveAgentName(type, o.names)) {
        ctx.addIssue({ code: 'custom', path: ['subagent_type'], message: `not an agent you can start here; use ${typeChoices(o.names)}` })
      }
    })
    .transform(({ run_in_background, resume, subagent_type, ...rest }) => ({
      ...rest,
      // Checked above: a given type is "fork" or resolves to one of the names.
      subagent_type: subagent_type === undefined || subagent_type === FORK_TYPE ? subagent_type : resolveAgentName(subagent_type, o.names),
      background: rest.background ?? run_in_background,
      task_id: rest.task_id ?? resume,
    }))
}

export type TaskInput = z.output<ReturnType<typeof taskInputSchema>>
