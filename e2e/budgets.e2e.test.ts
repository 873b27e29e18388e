import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { agentFile } from './support/agents'
import { axeViolations } from './support/axe'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/**
 * Budgets in the browser against `agentry serve` (issue 25): a step that starts 12 subagents at once asks first (Start
 * runs them, Don't start gives the model the refusal); each card shows its spend against its budget, amber from 80%
 * and "stopped at budget" when it reached it; Settings › Budgets saves a session budget, and a conversation past it
 * asks to extend or stop.
 */
const twelve = (word: string) =>
  Array.from({ length: 12 }, (_, i) => `        - { name: task, input: { subagent_type: worker, description: "${word} part ${i + 1}", prompt: "do part ${i + 1}" } }`).join('\n')

// Every reply costs $0.15 at the price set below (1,000 + 500 tokens at $100 per million); the titles almost nothing.
const script = `
usage: { input: 1000, output: 500 }
agents:
  build:
    - match: "first fan-out"
      step: 1
      text: "Splitting it twelve ways."
      tools:
${twelve('Check')}
    - match: "second fan-out"
      step: 1
      text: "Splitting it twelve ways again."
      tools:
${twelve('Review')}
    - match: "budgeted"
      step: 1
      text: "Two helpers with budgets."
      tools:
        - { name: task, input: { subagent_type: pricey, description: "Map everything", prompt: "map everything" } }
        - { name: task, input: { subagent_type: careful, description: "Check one thing", prompt: "check one thing" } }
    - { match: "fan-out", step: 2, text: "The fan-out step is over.", repeat: true }
    - { match: "budgeted", step: 2, text: "Both helpers are back.", repeat: true }
    - { match: "one more", step: 1, tools: [ { name: list_dir, input: {} } ], repeat: true }
    - { match: "one more", step: 2, text: "One more answer.", repeat: true }
  worker: [ { text: "Part done.", repeat: true } ]
  pricey: [ { tools: [ { name: list_dir, input: {} } ], repeat: true } ]
  careful: [ { text: "Checked.", repeat: true } ]
  title: [ { text: "Budget demo", usage: { input: 1, output: 1 }, repeat: true } ]
`

const config = `providers:
  script:
    type: script
    models:
      e2e: { pricing: { input: 100, output: 100 } }
`

const approval = (page: Page) => page.locator('[data-testid=budget-approval]')
const topCards = (page: Page) => page.locator('[data-testid=transcript] [data-testid=subagent-card][data-depth="1"]')

/** 1400×900, 1024×700 and dark (into e2e/artifacts/budgets, ignored by git), with axe-core finding nothing in light and dark. */
async function threeShots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 })
  expect(await axeViolations(page), name).toEqual([])
  await shot(page, 'budgets', `${name}-1400`)
  await page.setViewportSize({ width: 1024, height: 700 })
  await shot(page, 'budgets', `${name}-1024`)
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await axeViolations(page), `${name} (dark)`).toEqual([])
  await shot(page, 'budgets', `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1400, height: 900 })
}

describe('budgets', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('budgets', {
      script,
      config,
      files: {
        ...agentFile('worker', 'description: Does one part\nmode: subagent\nbudget: { costUsd: 0.5 }'),
        ...agentFile('pricey', 'description: Spends past its budget\nmode: subagent\ncolor: "#b365d6"\nbudget: { costUsd: 0.2 }'),
        ...agentFile('careful', 'description: Stays near its budget\nmode: subagent\ncolor: "#49a86b"\nbudget: { costUsd: 0.18 }'),
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('a step starting 12 subagents asks once; Start runs them, and each card shows its spend against its budget', async () => {
    const { page } = s
    await page.setViewportSize({ width: 1400, height: 900 })
    await send(page, 'first fan-out please')
    await expect.poll(() => approval(page).count(), { timeout: 20_000 }).toBe(1)
    const panel = approval(page)
    expect(await panel.locator('.approval-title').innerText()).toBe('Start 12 subagents at once?')
    expect(await panel.locator('[data-testid=budget-summary]').innerText()).toBe('build wants to start 12 subagents at once with budgets adding up to $6.00.')
    expect(await panel.locator('[data-testid=budget-children-cost]').innerText()).toBe('$6.00 in budgets')
    expect(await panel.locator('[data-testid=budget-approve]').innerText()).toMatch(/^Start 12 subagents/)
    expect(await panel.locator('[data-testid=budget-deny]').innerText()).toBe("Don't start them")
    expect(await panel.getByText(/always/i).count()).toBe(0)
    // Nothing started while it waits.
    expect(await page.locator('[data-testid=subagent-budget]').count()).toBe(0)
    await threeShots(page, '01-fan-out-approval')

    await panel.locator('[data-testid=budget-approve]').click()
    await expect.poll(() => transcriptText(page), { timeout: 30_000 }).toContain('The fan-out step is over.')
    expect(await approval(page).count()).toBe(0)
    await expect.poll(() => topCards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(Array(12).fill('completed'))
    const spends = page.locator('[data-testid=transcript] [data-testid=subagent-budget]')
    expect(await spends.count()).toBe(12)
    for (const pill of await spends.all()) {
      expect(await pill.innerText()).toBe('$0.15 / $0.50')
      expect(await pill.getAttribute('data-state')).toBe('ok')
      expect(await pill.getAttribute('title')).toContain('$0.15 of $0.50')
    }
    await shot(page, 'budgets', '02-fan-out-done-1400')
  })

  it("Don't start: the model reads the refusal on every call, and no subagent runs", async () => {
    const { page } = s
    await page.click('[data-testid=new-session]')
    await send(page, 'second fan-out please')
    await expect.poll(() => approval(page).count(), { timeout: 20_000 }).toBe(1)
    await approval(page).locator('[data-testid=budget-deny]').click()
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('The fan-out step is over.')
    const cards = topCards(page)
    expect(await cards.count()).toBe(12)
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id')))).toEqual(Array(12).fill(''))
    expect(await page.locator('[data-testid=transcript] [data-testid=subagent-budget]').count()).toBe(0)
    for (const card of await cards.all()) {
      expect(await card.locator('[data-testid=subagent-status]').innerText()).toBe('not started')
      expect(await card.locator('[data-testid=subagent-error]').innerText()).toBe(
        "Not started: the person did not approve this step's fan-out (start 12 subagents at once with budgets adding up to $6.00). Start fewer at a time, or do the work yourself.",
      )
    }
    await shot(page, 'budgets', '03-fan-out-declined-1400')
  })

  it('cards at 80% and at their budget; Settings › Budgets sets a session budget that the next prompt reaches', async () => {
    const { page } = s
    await page.click('[data-testid=new-session]')
    await send(page, 'budgeted helpers')
    await expect.poll(() => transcriptText(page), { timeout: 30_000 }).toContain('Both helpers are back.')
    const pricey = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-agent=pricey]')
    const careful = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-agent=careful]')
    // A child at its budget stopped cleanly: amber, "stopped at budget", with what it spent — before the request that
    // would have gone past it ($0.15 a step, $0.20 allowed: one step).
    expect(await pricey.getAttribute('data-budget')).toBe('reached')
    expect(await pricey.locator('[data-testid=subagent-status]').innerText()).toBe('stopped at budget')
    expect(await pricey.locator('[data-testid=subagent-budget]').getAttribute('data-state')).toBe('reached')
    expect(await pricey.locator('[data-testid=subagent-budget]').innerText()).toBe('$0.15 / $0.20')
    expect(await careful.locator('[data-testid=subagent-budget]').getAttribute('data-state')).toBe('warning')
    expect(await careful.locator('[data-testid=subagent-budget]').innerText()).toBe('$0.15 / $0.18')
    await threeShots(page, '04-cards-warning-reached')

    // Settings › Budgets: a bad value is named under its field; a good one lands in the person's config.yaml.
    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-budgets]')
    const section = page.locator('[data-testid=settings-budgets]')
    await section.scrollIntoViewIfNeeded()
    const cost = section.locator('[data-testid=budget-budgets-session-costUsd]')
    await cost.fill('-1')
    await expect.poll(() => section.locator('[data-testid=budget-budgets-session-costUsd-error]').innerText()).toBe('Must be greater than 0 (got -1).')
    expect(await section.locator('[data-testid=budgets-save]').isDisabled()).toBe(true)
    await cost.fill('$0.80')
    await section.locator('[data-testid=budgets-save]').click()
    await expect.poll(() => section.locator('[data-testid=budgets-saved]').innerText()).toContain('Budgets saved.')
    expect(await cost.inputValue()).toBe('0.8')
    expect(fs.readFileSync(path.join(s.home, 'config.yaml'), 'utf8')).toMatch(/budgets:\n {2}session:\n {4}costUsd: 0.8\n/)
    await section.scrollIntoViewIfNeeded()
    await threeShots(page, '05-settings-budgets')
    await page.click('[data-testid=close-settings]')

    // The conversation spent $0.60 already (its own two steps, both helpers): after the next prompt's first step
    // ($0.75) another would go past $0.80, so it asks before its second request.
    await send(page, 'one more, please')
    await expect.poll(() => approval(page).count(), { timeout: 20_000 }).toBe(1)
    const panel = approval(page)
    expect(await panel.locator('.approval-title').innerText()).toBe('Budget reached')
    expect(await panel.locator('[data-testid=budget-summary]').innerText()).toMatch(/^The session budget \(budgets\.session\) would be used up by the next request \(cost: \$0\.75 of \$0\.80; the last one took \$0\.15\)\. Extend it by \$0\.80/)
    expect(await panel.locator('[data-testid=budget-approve]').innerText()).toMatch(/^Extend by \$0\.80/)
    expect(await panel.locator('[data-testid=budget-deny]').innerText()).toBe('Stop here')
    const header = page.locator('[data-testid=session-budget]')
    await expect.poll(() => header.getAttribute('data-state')).toBe('reached')
    expect(await header.innerText()).toBe('budget reached · $0.75 / $0.80')
    await threeShots(page, '06-session-budget-reached')

    await panel.locator('[data-testid=budget-approve]').click()
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('One more answer.')
    await expect.poll(() => header.innerText()).toBe('$0.90 / $1.60')
    await shot(page, 'budgets', '07-extended-1400')
  })
})
