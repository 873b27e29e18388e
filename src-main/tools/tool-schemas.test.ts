import { describe, expect, it } from 'vitest'
import { BUILTIN_AGENTS } from '../agents'
import { createTaskTool } from '../subagents/task-tool'
import { BUILTIN_TOOLS } from './builtin-tools'
import { planExitTool } from './plan-exit'
import { toolJsonSchema } from './run-tool'
import type { ToolDef } from './tool'

// `task` as a root agent sees it with the built-in subagents (the contract suite snapshots the real listings).
const byName = (name: string) => BUILTIN_AGENTS.find((a) => a.name === name)!
const taskTool = createTaskTool(
  {
    agents: [
      { name: 'general', description: byName('general').description, tools: ['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'bash', 'web_fetch', 'task'], inspectable: true },
      { name: 'explore', description: byName('explore').description, tools: ['read_file', 'list_dir', 'glob', 'grep', 'web_fetch'], inspectable: false },
    ],
    caller: 'root',
    sessionTools: true,
  },
  { maxTimeoutSeconds: 300, modelChoices: '"haiku", "sonnet", "opus", or "provider/model" with provider "mock"' },
  { run: async () => ({ output: '' }), storedType: () => undefined },
) as ToolDef
const ALL = [...BUILTIN_TOOLS, planExitTool, taskTool]

describe('tool catalog', () => {
  it('has exactly the built-in tools, with unique names', () => {
    expect(BUILTIN_TOOLS.map((t) => t.name)).toEqual(['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'bash', 'web_fetch', 'todo', 'question'])
  })

  it('gives every tool and every parameter a description', () => {
    for (const t of ALL) {
      expect(t.description.length, t.name).toBeGreaterThan(40)
      const props = (toolJsonSchema(t).properties ?? {}) as Record<string, { description?: string }>
      for (const [key, prop] of Object.entries(props)) expect(prop.description, `${t.name}.${key}`).toBeTruthy()
    }
  })

  // This is what the model sees; a change here changes model behaviour and deserves review.
  for (const t of ALL) {
    it(`${t.name} JSON schema`, () => {
      expect({ description: t.description, parameters: toolJsonSchema(t) }).toMatchSnapshot()
    })
  }

  it('task accepts the field names models are trained on (run_in_background, resume) and normalizes them', () => {
    const parse = (input: Record<string, unknown>) => taskTool.parameters.safeParse({ description: 'Look around', prompt: 'look', subagent_type: 'explore', ...input })
    expect(parse({ run_in_background: true, resume: 'ses_1' }).data).toEqual({ description: 'Look around', prompt: 'look', subagent_type: 'explore', background: true, task_id: 'ses_1' })
    expect(parse({ background: false, task_id: 'ses_2' }).data).toEqual({ description: 'Look around', prompt: 'look', subagent_type: 'explore', background: false, task_id: 'ses_2' })
    expect(parse({ run_in_background: true, background: true }).success).toBe(true)
    expect(parse({ run_in_background: true, background: false }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'run_in_background: conflicts with background; send only background',
    ])
    expect(parse({ resume: 'a', task_id: 'b' }).error?.issues[0].message).toBe('conflicts with task_id; send only task_id')
    expect(parse({ run_in_background: 'yes' }).success).toBe(false)
  })
})
