import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - { match: "which", step: 1, text: "One question first.", tools: [ { name: question, input: { question: "Which database should I use?", options: [ "SQLite", "PostgreSQL" ] } } ] }
    - { match: "which", step: 2, text: "Going with your choice." }
  plan:
    - { step: 1, text: "Here is the plan.", tools: [ { name: plan_exit, input: { plan: "1. Add a test\\n2. Fix the bug" } } ] }
    - { step: 2, text: "Plan approved; switching to build." }
  title: [ { text: "Questions demo", repeat: true } ]
`

describe('questions and plans in the dialog', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('questions', { script })
  }, 90_000)
  afterAll(async () => s?.close())

  it('asks the question with its options and sends the chosen answer back to the model', async () => {
    const { page } = s
    await send(page, 'which storage?')
    const dialog = page.locator('[data-testid=question-dialog]')
    await dialog.waitFor({ timeout: 15_000 })
    expect(await page.locator('[data-testid=question-text]').innerText()).toBe('Which database should I use?')
    // The message box says a question waits, not "an approval" (issue 28).
    expect(await page.locator('[data-testid=composer-hint]').innerText()).toBe('A question is waiting for your answer above — Shift+Tab to reach it')
    await shot(page, 'questions', '01-question', 'question-dialog')
    await page.locator('[data-testid=question-option]', { hasText: 'PostgreSQL' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Going with your choice.')
    const tool = page.locator('[data-testid=tool-card][data-tool=question]')
    // The answer shows on the collapsed row.
    expect(await tool.locator('[data-testid=question-answer]').innerText()).toBe('→ PostgreSQL')
    await tool.locator('.tool-head').click()
    expect(await tool.innerText()).toContain('PostgreSQL')
  })
})
