import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - { match: "fruit is red", text: "Strawberries are red.", repeat: true }
    - { match: "fruit is yellow", text: "Bananas are yellow.", repeat: true }
  title: [ { text: "Fruit", repeat: true } ]
`

/** Edit with versions (issue 28): an edited message keeps its old version and answer, one click away. */
describe('editing a message keeps its versions', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('edit-versions', { script })
  }, 90_000)
  afterAll(async () => s?.close())

  it('edit → 2/2; previous → the old answer and 1/2; still so after a reload', async () => {
    const { page } = s
    await page.setViewportSize({ width: 1200, height: 800 })
    await send(page, 'Which fruit is red?')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Strawberries are red.')
    const question = page.locator('[data-testid=message][data-role=user]').first()
    expect(await question.locator('[data-testid=version-nav]').count()).toBe(0)

    await question.locator('[data-testid=edit-message]').click()
    await page.fill('[data-testid=message-edit-input]', 'Which fruit is yellow?')
    await page.press('[data-testid=message-edit-input]', 'Enter')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Bananas are yellow.')
    const label = page.locator('[data-testid=version-label]')
    await expect.poll(() => label.innerText(), { timeout: 10_000 }).toBe('2/2')
    expect(await transcriptText(page)).not.toContain('Strawberries')
    expect(await page.locator('[data-testid=version-next]').isDisabled()).toBe(true)

    await page.getByRole('button', { name: 'Previous version' }).click()
    await expect.poll(() => transcriptText(page), { timeout: 10_000 }).toContain('Strawberries are red.')
    await expect.poll(() => label.innerText()).toBe('1/2')
    const text = await transcriptText(page)
    expect(text).toContain('Which fruit is red?')
    expect(text).not.toMatch(/Bananas|yellow/)
    expect(await page.locator('[data-testid=version-prev]').isDisabled()).toBe(true)

    await page.reload()
    await expect.poll(() => transcriptText(page).catch(() => ''), { timeout: 15_000 }).toContain('Strawberries are red.')
    await expect.poll(() => label.innerText(), { timeout: 10_000 }).toBe('1/2')
    expect(await transcriptText(page)).not.toMatch(/Bananas|yellow/)
    await shot(page, 'edit-versions', '01-version-1-of-2-after-reload', 'edit-versions')

    // And forward again: the edited branch, with its answer.
    await page.getByRole('button', { name: 'Next version' }).click()
    await expect.poll(() => transcriptText(page), { timeout: 10_000 }).toContain('Bananas are yellow.')
    await expect.poll(() => label.innerText()).toBe('2/2')
    expect(await transcriptText(page)).not.toContain('Strawberries')
  })
})
