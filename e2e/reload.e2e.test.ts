import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const words = Array.from({ length: 70 }, (_, i) => `w${i}`)
const streamed = `Streaming begins ${words.join(' ')} streaming ends.`

const script = `
agents:
  build:
    - step: 1
      text: "${streamed}"
      chunkDelayMs: 45
      tools: [ { name: bash, input: { command: "echo reloaded" } } ]
    - { step: 2, text: "Finished after approval." }
  title: [ { text: "Reload demo", repeat: true } ]
`

describe('reload mid-run', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('reload', { script })
  }, 90_000)
  afterAll(async () => s?.close())

  it('catches up with no duplicated text, keeps streaming, and brings a pending approval back', async () => {
    const { page } = s
    await send(page, 'stream something long')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('w10 ')
    expect(await transcriptText(page)).not.toContain('streaming ends.')
    await page.reload()
    await page.waitForSelector('[data-testid=transcript] [data-testid=part-text]')
    // Still streaming after the reload: the end has not arrived yet, then it does.
    await shot(page, 'reload', '01-after-reload-mid-stream')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('streaming ends.')
    const text = await page.locator('[data-testid=transcript] [data-testid=part-text]').first().innerText()
    expect(text.trim()).toBe(streamed)

    const dialog = page.locator('[data-testid=approval-dialog]')
    await dialog.waitFor({ timeout: 15_000 })
    await page.reload()
    await dialog.waitFor({ timeout: 10_000 })
    expect(await page.locator('[data-testid=approval-command]').innerText()).toContain('echo reloaded')
    await shot(page, 'reload', '02-approval-after-reload')
    // Enter allows once when the approval has focus (here: a click on it, not on one of its buttons).
    await page.locator('[data-testid=approval-agent-path]').click()
    await page.keyboard.press('Enter')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Finished after approval.')
    expect((await transcriptText(page)).split('Streaming begins').length - 1).toBe(1)
  })
})
