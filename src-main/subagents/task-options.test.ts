import { afterEach, describe, expect, it } from 'vitest'
import type { TaskCard } from '../../src-shared'
import { createHarness, toolParts, type Harness } from '../testing/harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const task = (extra: Record<string, unknown>) => ({ name: 'task', input: { subagent_type: 'helper', description: 'Check it', prompt: 'check', ...extra } })

/** One root step calling `task` with these inputs side by side; returns each call's part. */
async function callTask(inputs: Record<string, unknown>[], config: Record<string, unknown> = {}, helper: Record<string, unknown> = {}) {
  h = await createHarness({
    config,
    agents: { helper: { mode: 'subagent', inspectable: true, ...helper } },
    script: {
      agents: {
        build: [{ step: 1, tools: inputs.map(task) }, { step: 2, text: 'done' }],
        helper: [
          { step: 1, repeat: true, tools: [{ name: 'list_dir', input: {} }] },
          { step: 2, repeat: true, tools: [{ name: 'list_dir', input: {} }] },
          { step: 3, repeat: true, tools: [{ name: 'list_dir', input: {} }] },
          { match: 'You have used all the tool steps', repeat: true, text: 'stopped' },
        ],
        title: [{ text: 't', repeat: true }],
      },
    },
  })
  const r = await h.run('go')
  return toolParts(r.messages).filter((p) => p.type === 'tool-task')
}

describe('task: per-call controls are validated before anything runs', () => {
  it('refuses an unknown model, listing the aliases and providers it could use, and starts no child', async () => {
    const [part] = await callTask([{ model: 'turbo' }], { models: { aliases: { quick: 'script/q' } } })
    expect(part.toolState).toBe('output-error')
    const error = String(part.data.error)
    // The tier aliases resolve to the person's own models here (no anthropic provider): they are choices too.
    expect(error).toMatch(/^model: model "turbo" is neither "provider\/model" nor an alias in models.aliases\. Choose one of: "sonnet", "opus", "haiku", "fable", "quick", script\/<model>, demo\/<model>; or leave model out/)
    expect(part.data.subagent).toBeUndefined()
    expect(h!.host.store.sessions.listSessions({ includeArchived: true }).filter((s) => s.parentId)).toEqual([])
  })

  it('refuses a provider that is not configured, naming it', async () => {
    const [part] = await callTask([{ model: 'nosuch/x' }])
    expect(String(part.data.error)).toMatch(/^model: "nosuch\/x" → nosuch\/x, but no "nosuch" provider is configured\. Choose one of: .*script\/<model>/)
  })

  it('refuses a timeout above the configured maximum, and non-positive turns, by the schema', async () => {
    const parts = await callTask([{ timeout_seconds: 61 }, { max_turns: 0 }, { cleanup: 'later' }, { label: '' }], { subagents: { timeoutSeconds: 60 } })
    const errors = parts.map((p) => String(p.data.error))
    expect(errors[0]).toMatch(/timeout_seconds: at most 60 \(subagents\.timeoutSeconds in config\.yaml\)/)
    expect(errors[1]).toMatch(/max_turns: must be greater than 0/)
    expect(errors[2]).toMatch(/cleanup: must be one of "keep" or "delete" \(got "later"\)/)
    expect(errors[3]).toMatch(/label: /)
    expect(parts.every((p) => p.toolState === 'output-error')).toBe(true)
  })

  it('max_turns lowers the agent\'s own limit and never raises it; model "inherit" is the caller\'s', async () => {
    const parts = await callTask([{ max_turns: 1 }, { max_turns: 50, model: 'inherit' }], {}, { maxSteps: 2 })
    const [low, high] = parts.map((p) => p.data.subagent as TaskCard)
    expect(low.options).toEqual({ maxTurns: 1 })
    expect(low.steps).toBe(2)
    // 50 asked, the agent allows 2: the agent's limit holds (2 steps with tools, then the forced answer).
    expect(high.options).toEqual({ maxTurns: 2, model: 'script/test' })
    expect(high.steps).toBe(3)
  })
})
