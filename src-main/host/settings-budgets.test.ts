import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dispatchCall } from '../bridge/dispatch-call'
import { loadConfig } from '../config'
import { createHarness, type Harness } from '../testing/harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

describe('settings.budgets: Settings › Budgets', () => {
  it('shows what config.yaml sets, saves into it (comments kept), and an empty field removes the setting', async () => {
    h = await createHarness({})
    const config = path.join(h.dataDir, 'config.yaml')
    fs.writeFileSync(config, `${fs.readFileSync(config, 'utf8')}# my budgets\nbudgets:\n  dailyCostUsd: 5 # per workspace\n`)
    const call = h.host.api.calls['settings.budgets']

    const first = await call({})
    expect(first.values['budgets.dailyCostUsd']).toBe('5')
    expect(first.values['budgets.session.costUsd']).toBe('')
    // Empty means the default where there is one: the form shows it as the placeholder.
    expect(first.defaults['budgets.fanOut.askAboveChildren']).toBe('10')
    expect(first.defaults['runaway.repeatedCalls']).toBe('5')
    expect(first.defaults['budgets.session.costUsd']).toBe('')

    const saved = await call({ set: { 'budgets.session.costUsd': '$2', 'budgets.session.tokens': '200k', 'subagents.budget.steps': '30', 'runaway.repeatedCalls': '3' } })
    expect(saved.values).toMatchObject({ 'budgets.session.costUsd': '2', 'budgets.session.tokens': '200000', 'subagents.budget.steps': '30', 'runaway.repeatedCalls': '3', 'budgets.dailyCostUsd': '5' })
    const text = fs.readFileSync(config, 'utf8')
    expect(text).toContain('# my budgets')
    expect(text).toContain('dailyCostUsd: 5 # per workspace')
    // What the host runs with: the same file, read again.
    const used = loadConfig(h.dataDir).config
    expect(used.budgets.session).toEqual({ costUsd: 2, tokens: 200_000 })
    expect(used.subagents.budget).toEqual({ steps: 30 })
    expect(used.runaway.repeatedCalls).toBe(3)

    const cleared = await call({ set: { 'budgets.session.costUsd': '', 'budgets.session.tokens': ' ', 'subagents.budget.steps': '', 'runaway.repeatedCalls': '' } })
    expect(cleared.values['budgets.session.costUsd']).toBe('')
    const after = fs.readFileSync(config, 'utf8')
    // A section emptied by it goes too, rather than stay as `session: {}`.
    expect(after).not.toMatch(/session:|subagents:\s*\n\s*budget|runaway:/)
    expect(after).toContain('dailyCostUsd: 5 # per workspace')
    expect(loadConfig(h.dataDir).config.runaway.repeatedCalls).toBe(5)
  })

  it('a bad value is refused with a one-line error naming the setting, and the file is left as it was', async () => {
    h = await createHarness({})
    const config = path.join(h.dataDir, 'config.yaml')
    const before = fs.readFileSync(config, 'utf8')
    const call = h.host.api.calls['settings.budgets']
    await expect(call({ set: { 'budgets.session.costUsd': '-1', 'budgets.dailyCostUsd': '3' } })).rejects.toMatchObject({
      code: 'config_error',
      message: 'budgets.session.costUsd: Must be greater than 0 (got -1).',
      data: { fields: { 'budgets.session.costUsd': 'Must be greater than 0 (got -1).' } },
    })
    await expect(call({ set: { 'budgets.fanOut.askAboveChildren': 'ten' } })).rejects.toMatchObject({
      message: 'budgets.fanOut.askAboveChildren: Write a number, e.g. 0.50 or 200k; leave it empty for no limit.',
    })
    await expect(call({ set: { 'runaway.maxOutputTokens': '100', 'subagents.budget.steps': '2.5' } })).rejects.toMatchObject({
      code: 'config_error',
      message: expect.stringMatching(/^(?=.*runaway\.maxOutputTokens: Must be at least 256 \(got 100\)\.)(?=.*subagents\.budget\.steps: Must be a whole number)[^\n]*$/),
      data: { fields: { 'runaway.maxOutputTokens': 'Must be at least 256 (got 100).', 'subagents.budget.steps': expect.stringMatching(/whole number/) } },
    })
    expect(fs.readFileSync(config, 'utf8')).toBe(before)
    // An unknown setting never reaches the host's code: the contract refuses it at the door.
    expect(await dispatchCall(h.host.api, 'settings.budgets', { set: { 'budgets.session.hours': '3' } })).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
  })
})
