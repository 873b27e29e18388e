import { afterEach, describe, expect, it } from 'vitest'
import { BUILTIN_TOOLS } from './builtin-tools'
import { planExitTool } from './plan-exit'
import { runTool } from './run-tool'
import { makeContext, type TestContext } from './testing/test-context'

const contexts: TestContext[] = []
function setup(opts: Parameters<typeof makeContext>[0] = {}) {
  const ctx = makeContext(opts)
  contexts.push(ctx)
  return ctx
}
afterEach(() => contexts.splice(0).forEach((c) => c.cleanup()))
const tool = (name: string) => BUILTIN_TOOLS.find((t) => t.name === name)!

describe('todo', () => {
  it('hands the list to the session and echoes it back', async () => {
    const ctx = setup()
    const todos = [
      { content: 'Read the config loader', status: 'completed' },
      { content: 'Add the new key', status: 'in_progress' },
      { content: 'Write a test', status: 'pending' },
    ]
    const r = await runTool(tool('todo'), { todos }, ctx)
    expect(r.output).toBe('Todo list (1/3 completed):\n[x] Read the config loader\n[~] Add the new key\n[ ] Write a test')
    expect(ctx.todos).toEqual([todos])
  })

  it('rejects an unknown status, naming the item', async () => {
    const ctx = setup()
    const r = await runTool(tool('todo'), { todos: [{ content: 'x', status: 'done' }] }, ctx)
    expect(r.ok).toBe(false)
    expect(r.output).toMatch(/^Invalid arguments for todo: todos\[0\]\.status: .*"pending".*"in_progress".*"completed"/)
    expect(ctx.todos).toEqual([])
  })
})

describe('question', () => {
  it('returns the user answer', async () => {
    const asked: unknown[] = []
    const ctx = setup({ askUser: async (q, options) => (asked.push([q, options]), 'Use Postgres') })
    const r = await runTool(tool('question'), { question: 'Which database?', options: ['SQLite', 'Postgres'] }, ctx)
    expect(r).toMatchObject({ ok: true, output: 'The user answered: Use Postgres' })
    expect(asked).toEqual([['Which database?', ['SQLite', 'Postgres']]])
  })

  it('is a tool error carrying the reason when no user can answer', async () => {
    const r = await runTool(tool('question'), { question: 'Which database?' }, setup())
    expect(r).toMatchObject({ ok: false, output: 'The question could not be asked: No user is attached (headless run).' })
  })
})

describe('plan_exit', () => {
  it('reports approval', async () => {
    const plans: string[] = []
    const ctx = setup({ planExit: async (plan) => (plans.push(plan), { approved: true }) })
    const r = await runTool(planExitTool, { plan: '1. Do it' }, ctx)
    expect(r).toMatchObject({ ok: true, output: 'The user approved the plan. Your turn ends here; their next message runs with the build agent, which carries out this plan.' })
    expect(plans).toEqual(['1. Do it'])
  })

  it('is a tool error containing the feedback when rejected', async () => {
    const ctx = setup({ planExit: async () => ({ approved: false, feedback: 'Also migrate the old rows.' }) })
    const r = await runTool(planExitTool, { plan: '1. Do it' }, ctx)
    expect(r).toMatchObject({ ok: false, output: 'The user did not approve the plan. Their feedback: Also migrate the old rows.\nRevise the plan and call plan_exit again.' })
  })

  it('is not among the tools every agent gets', () => {
    expect(BUILTIN_TOOLS.map((t) => t.name)).not.toContain('plan_exit')
  })
})
