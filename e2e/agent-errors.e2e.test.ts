import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFile } from './support/agents'
import { shot } from './support/browser'
import { startScenario, type Scenario } from './support/scenario'

describe('bad agent file', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('agent-errors', {
      script: 'agents:\n  "*": [ { text: "ok", repeat: true } ]\n',
      files: {
        ...agentFile('broken', 'description: Has a bad mode\nmode: sometimes'),
        ...agentFile('fine', 'description: Loads fine\nmode: primary'),
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('lists the load error in settings with the file and the field, and keeps the good agents', async () => {
    const { page } = s
    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-agents]')
    const error = page.locator('[data-testid=agent-load-error]')
    await expect.poll(() => error.count(), { timeout: 10_000 }).toBe(1)
    const text = await error.innerText()
    expect(text).toContain('broken.md')
    expect(text).toMatch(/mode/)
    expect(await page.locator('[data-testid=settings-agent-row][data-agent=fine]').count()).toBe(1)
    expect(await page.locator('[data-testid=settings-agent-row][data-agent=broken]').count()).toBe(0)
    await shot(page, 'agent-errors', '01-settings-top', 'settings')
    await error.scrollIntoViewIfNeeded()
    await shot(page, 'agent-errors', '02-agent-load-error', 'settings-agents')
  })
})
