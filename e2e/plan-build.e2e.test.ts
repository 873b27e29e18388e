import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  plan:
    - { step: 1, text: "Here is the plan.", tools: [ { name: plan_exit, input: { plan: "1. Add a test\\\\n2. Fix the bug" } } ] }
  build:
    - { match: "do it", text: "Building it now, as build." }
  title: [ { text: "Plan then build", repeat: true } ]
`

describe('after an approved plan_exit the next turn runs as build', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('plan-build', { script })
  }, 90_000)
  afterAll(async () => s?.close())

  it('the chip follows the switch, and the next message goes to build', async () => {
    const { page } = s
    await page.click('[data-testid=agent-picker]')
    await page.click('[data-testid=agent-option-plan]')
    expect(await page.getAttribute('[data-testid=agent-picker]', 'data-agent')).toBe('plan')
    await send(page, 'plan the fix')
    await page.locator('[data-testid=approval-dialog]').waitFor({ timeout: 15_000 })
    await page.click('[data-testid=approval-allow-once]')
    // An approved plan ends the plan agent's turn (no step 2); the chip switches to build.
    await expect.poll(() => page.getAttribute('[data-testid=agent-picker]', 'data-agent'), { timeout: 10_000 }).toBe('build')
    await shot(page, 'plan-build', '01-switched-to-build')
    await send(page, 'do it')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Building it now, as build.')
    // and it stays so after a reload
    await page.reload()
    await page.waitForSelector('[data-testid=composer-input]')
    await expect.poll(() => page.getAttribute('[data-testid=agent-picker]', 'data-agent'), { timeout: 10_000 }).toBe('build')
  })
})
