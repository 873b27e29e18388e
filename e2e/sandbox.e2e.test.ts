import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - { match: "first", step: 1, text: "Running it.", tools: [ { name: bash, input: { command: "echo sandboxed-run" } } ] }
    - { match: "first", step: 2, text: "First done." }
    - { match: "second", step: 1, text: "Running it again.", tools: [ { name: bash, input: { command: "echo unconfined-run" } } ] }
    - { match: "second", step: 2, text: "Second done." }
    - { match: "third", step: 1, text: "Cleaning.", tools: [ { name: bash, input: { command: "rm -rf build" } } ] }
    - { match: "third", step: 2, text: "Kept it." }
  title: [ { text: "Sandbox demo", repeat: true } ]
`

/** The sandbox as a person sees it: the badge on a bash card, the Settings toggle and its warning, risky "always" patterns. */
describe('the bash sandbox in the UI', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('sandbox', { script })
  }, 90_000)
  afterAll(async () => s?.close())

  const allowOnce = async () => {
    const dialog = s.page.locator('[data-testid=approval-dialog]')
    await dialog.waitFor({ timeout: 15_000 })
    await s.page.click('[data-testid=approval-allow-once]')
    await dialog.waitFor({ state: 'detached' })
  }

  it('a bash card says it ran in the sandbox', async () => {
    const { page } = s
    await send(page, 'first: run it')
    await allowOnce()
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('First done.')
    const badge = page.locator('[data-testid=tool-card][data-tool=bash] [data-testid=sandbox-badge]').last()
    expect(await badge.innerText()).toBe('sandboxed')
    expect(await badge.getAttribute('data-mode')).toBe('bwrap')
    expect(await badge.getAttribute('title')).toContain('network off')
  })

  it('Settings turns it off with a clear warning (in the person’s config.yaml), and the next card says so', async () => {
    const { page } = s
    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-sandbox]')
    const section = page.locator('[data-testid=settings-sandbox]')
    await section.waitFor()
    expect(await section.getAttribute('data-mode')).toBe('bwrap')
    expect(await page.locator('[data-testid=sandbox-status]').innerText()).toContain('network is off')
    await page.click('[data-testid=sandbox-enabled]')
    await page.locator('[data-testid=sandbox-off-warning]').waitFor()
    await section.scrollIntoViewIfNeeded()
    await shot(page, 'sandbox', '01-settings-off')
    expect(fs.readFileSync(path.join(s.home, 'config.yaml'), 'utf8')).toMatch(/sandbox:\s*\n\s+enabled: false/)
    await page.click('[data-testid=close-settings]')

    await send(page, 'second: run it again')
    await allowOnce()
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Second done.')
    const badge = page.locator('[data-testid=tool-card][data-tool=bash] [data-testid=sandbox-badge]').last()
    expect(await badge.innerText()).toBe('no sandbox')
    expect(await badge.getAttribute('data-mode')).toBe('off')

    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=sandbox-enabled]')
    await expect.poll(() => section.getAttribute('data-mode')).toBe('bwrap')
    expect(await page.locator('[data-testid=sandbox-off-warning]').count()).toBe(0)
    await page.click('[data-testid=close-settings]')
  })

  it('"Always allow" marks a risky pattern and says why', async () => {
    const { page } = s
    await send(page, 'third: clean')
    const dialog = page.locator('[data-testid=approval-dialog]')
    await dialog.waitFor({ timeout: 15_000 })
    await page.click('[data-testid=approval-always-open]')
    expect(await page.locator('[data-testid=always-pattern]').first().inputValue()).toBe('rm *')
    expect(await page.locator('[data-testid=always-risky]').first().innerText()).toContain('deletes or overwrites files')
    // Back, then deny (Esc never denies: it only returns focus to the composer).
    await page.click('.approval-actions .btn.ghost')
    await page.click('[data-testid=approval-deny-open]')
    await page.click('[data-testid=approval-deny-confirm]')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Kept it.')
  })
})
