import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { axeViolations } from './support/axe'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/**
 * Issue 28, in the browser against `agentry serve`: the person's Stop reads as an expected, neutral end — grey
 * "Stopped by you" on the cards and map rows, a "stopped" status pill, a "Stopped" mark on the answer it cut, no red —
 * and a child's denied and failed tool calls are counted on its collapsed card and its map row.
 */

/** Screenshots at the sizes people use, light and dark; axe (contrast of the grey and amber pills included) in both. */
async function threeShots(page: Page, test: string, name: string): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 })
  await shot(page, test, `${name}-1400`)
  expect(await axeViolations(page), name).toEqual([])
  await page.setViewportSize({ width: 1024, height: 700 })
  await shot(page, test, `${name}-1024`)
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.emulateMedia({ colorScheme: 'dark' })
  await shot(page, test, `${name}-dark`)
  expect(await axeViolations(page), `${name} (dark)`).toEqual([])
  await page.emulateMedia({ colorScheme: 'light' })
}

/** Everything red in the transcript and the panels beside it (the failure look). */
const redThings = (page: Page) =>
  page
    .locator('.pill.status-aborted, .pill.status-failed, .status-icon.err, .subagent-error, .callout.error, .tool-error-line, .run-status.status-aborted, [data-testid=run-error]')
    .evaluateAll((els) => els.map((e) => `${e.className}: ${(e as HTMLElement).innerText}`))

const stopScript = `
agents:
  build:
    - step: 1
      text: "Fanning out to two helpers."
      tools:
        - { name: task, input: { subagent_type: general, description: "Run the slow check", prompt: "slow check" } }
        - { name: task, input: { subagent_type: explore, description: "Map the folders", prompt: "map folders" } }
    - { step: 2, text: "never" }
  general:
    - { step: 1, tools: [ { name: bash, input: { command: "sleep 30" } } ] }
    - { step: 2, text: "never" }
  explore: [ { delayMs: 60000, text: "never" } ]
  title: [ { text: "Stop demo", repeat: true } ]
`

describe("the person's Stop is not a failure", () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('stopped', { script: stopScript, permissions: '{ "*": "allow" }' })
  }, 90_000)
  afterAll(async () => s?.close())

  it('a fan-out stopped by the person: grey "Stopped by you" cards and map rows, a stopped pill, the cut answer marked, nothing red', async () => {
    const { page } = s
    await page.setViewportSize({ width: 1400, height: 900 })
    await send(page, 'check everything')
    const cards = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-depth="1"]')
    await expect.poll(() => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))), { timeout: 20_000 }).toEqual(['running', 'running'])
    const general = cards.and(page.locator('[data-agent=general]'))
    // general is inside its bash call when the person stops.
    await general.locator('[data-testid=subagent-expand]').click()
    const bash = general.locator('[data-testid=tool-card][data-tool=bash]')
    await expect.poll(() => bash.getAttribute('data-state'), { timeout: 15_000 }).toBe('input-available')
    await page.click('[data-testid=stop-button]')

    await expect.poll(() => cards.evaluateAll((els) => els.map((e) => [e.getAttribute('data-status'), e.getAttribute('data-stopped')])), { timeout: 15_000 }).toEqual([
      ['aborted', 'user'],
      ['aborted', 'user'],
    ])
    expect(await cards.locator('[data-testid=subagent-status]').allInnerTexts()).toEqual(['Stopped by you', 'Stopped by you'])
    await expect.poll(() => page.locator('[data-testid=session-status]').innerText()).toBe('stopped')
    expect(await page.locator('[data-testid=session-status]').getAttribute('class')).toContain('status-stopped')
    // The answer the Stop cut ends with a neutral mark.
    const marker = page.locator('[data-testid=transcript] [data-testid=stopped-marker]')
    await expect.poll(() => marker.count()).toBe(1)
    expect(await marker.innerText()).toContain('Stopped')
    // The bash call the Stop cut: grey, not a red ✕.
    await expect.poll(() => bash.getAttribute('data-stopped'), { timeout: 15_000 }).toBe('true')
    expect(await bash.locator('.status-icon').getAttribute('aria-label')).toBe('stopped')
    expect(await redThings(page)).toEqual([])
    expect(await transcriptText(page)).not.toContain('aborted by parent')
    await threeShots(page, 'stopped', '01-fan-out-stopped')

    // The run map says the same.
    await page.click('[data-testid=run-map-toggle]')
    const rows = page.locator('[data-testid=run-node][data-depth="1"]')
    await expect.poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-stopped'))), { timeout: 15_000 }).toEqual(['user', 'user'])
    expect(await rows.locator('[data-testid=run-node-status]').allInnerTexts()).toEqual(['stopped by you', 'stopped by you'])
    expect(await redThings(page)).toEqual([])
    await threeShots(page, 'stopped', '02-run-map-stopped')

    // After a reload, all of it is still so (it is read from the stored records).
    await page.click('[data-testid=run-map-toggle]')
    await page.reload()
    await expect.poll(() => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-stopped'))), { timeout: 20_000 }).toEqual(['user', 'user'])
    await expect.poll(() => page.locator('[data-testid=session-status]').innerText()).toBe('stopped')
    expect(await marker.count()).toBe(1)
    expect(await redThings(page)).toEqual([])
  })
})

const denyScript = `
agents:
  build:
    - step: 1
      text: "Asking a helper to clean up."
      tools:
        - { name: task, input: { subagent_type: general, description: "Clean the build folder", prompt: "clean up" } }
    - { step: 2, text: "The helper is back." }
  general:
    - step: 1
      tools:
        - { name: bash, input: { command: "rm -rf x" } }
        - { name: read_file, input: { path: "missing.txt" } }
        - { name: list_dir, input: {} }
    - { step: 2, text: "I could not remove x: the rules deny it." }
  title: [ { text: "Denied demo", repeat: true } ]
`

describe("a child's denied and failed tool calls, on the collapsed card", () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('denied', {
      script: denyScript,
      files: { 'x/keep.txt': 'keep me\n' },
      permissions: '{ "*": "allow", "bash": { "*": "allow", "rm *": "deny" } }',
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('says "1 denied · 1 failed" without expanding, in words and colour, on the card and the map row', async () => {
    const { page } = s
    await page.setViewportSize({ width: 1400, height: 900 })
    await send(page, 'clean the build folder')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('The helper is back.')
    const card = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-agent=general]')
    expect(await card.getAttribute('data-status')).toBe('completed')
    expect(await card.locator('[data-testid=subagent-expand]').getAttribute('aria-expanded')).toBe('false')
    const calls = card.locator('[data-testid=subagent-calls]')
    await expect.poll(() => calls.innerText()).toMatch(/1 denied\s*✕ 1 failed/)
    expect(await calls.getAttribute('aria-label')).toBe('Tool calls: 1 denied · 1 failed')
    const colour = (testId: string) => card.locator(`[data-testid=${testId}]`).evaluate((e) => getComputedStyle(e).color)
    expect(await colour('subagent-calls-denied')).not.toBe(await colour('subagent-calls-failed'))
    await threeShots(page, 'denied', '01-collapsed-card')

    await page.click('[data-testid=run-map-toggle]')
    const row = page.locator('[data-testid=run-node][data-agent=general]')
    await expect.poll(() => row.locator('[data-testid=run-node-calls]').getAttribute('aria-label'), { timeout: 15_000 }).toBe('Tool calls: 1 denied · 1 failed')
    await threeShots(page, 'denied', '02-run-map-row')
  })
})
