import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { startScenario, transcriptText, type Scenario } from './support/scenario'

/** Slash commands in the browser app (issue 27): `/` completion in the composer, a command run, /help, /clear. */
const script = `
agents:
  build:
    - { match: "Review the branch main", text: "Reviewed main: two issues." }
    - { match: "Status: hi-from-shell", text: "The shell said hi." }
    - { text: "plain answer" }
  title: [ { text: "Commands session", repeat: true } ]
`

async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 })
  await shot(page, 'commands', `${name}-1400`)
  await page.setViewportSize({ width: 1024, height: 700 })
  await shot(page, 'commands', `${name}-1024`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await shot(page, 'commands', `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1400, height: 900 })
}

describe('slash commands in the composer', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('commands', { script })
    const dir = path.join(s.home, 'commands')
    fs.mkdirSync(path.join(dir, 'git'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'review.md'), '---\ndescription: Review a branch before it is merged\nargument-hint: [branch]\n---\nReview the branch $1 and list the issues.')
    fs.writeFileSync(path.join(dir, 'status.md'), '---\ndescription: Show the status\n---\nStatus: !`echo hi-from-shell`')
    fs.writeFileSync(path.join(dir, 'git', 'summary.md'), '---\ndescription: Summarize recent commits\n---\nSummarize the last commits.')
  }, 120_000)
  afterAll(async () => s?.close())

  it('/ opens the list (name, hint, description), filters as you type, ↑/↓ move, Esc closes, Tab completes; the command runs', async () => {
    const { page } = s
    const input = page.locator('[data-testid=composer-input]')
    await input.click()
    await page.keyboard.type('/')
    const menu = page.locator('[data-testid=command-menu]')
    await expect.poll(() => menu.locator('[data-testid=command-option]').allInnerTexts(), { timeout: 10_000 }).toEqual(
      expect.arrayContaining([expect.stringContaining('/review [branch]'), expect.stringContaining('/git:summary'), expect.stringContaining('/help')]),
    )
    await shots(page, 'menu')
    await page.keyboard.type('re')
    await expect.poll(() => menu.locator('[data-testid=command-option]').allInnerTexts()).toEqual([expect.stringMatching(/^\/review \[branch\]/)])
    await page.keyboard.press('Escape')
    await expect(menu.count()).resolves.toBe(0)
    await page.keyboard.press('Backspace')
    await expect.poll(() => menu.count()).toBe(1)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('Tab')
    expect(await input.inputValue()).toBe('/review ')
    await page.keyboard.type('main')
    await page.keyboard.press('Enter')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Reviewed main: two issues.')
    // The person's words are shown; the prompt the model received is folded below them.
    await expect(page.locator('[data-testid=command-use]').innerText()).resolves.toBe('/review main')
    await page.locator('[data-testid=command-expansion] summary').click()
    await expect(page.locator('[data-testid=command-expansion]').innerText()).resolves.toContain('Review the branch main and list the issues.')
    await shots(page, 'ran')
  }, 60_000)

  it('/help lists the commands in the transcript; an unknown one is refused in place with a close match; /clear opens a new session', async () => {
    const { page } = s
    const input = page.locator('[data-testid=composer-input]')
    await input.fill('/help')
    await input.press('Enter')
    await expect.poll(() => page.locator('[data-testid=command-notice]').last().innerText(), { timeout: 20_000 }).toContain('/review [branch] — Review a branch before it is merged')
    await input.fill('/reveiw x')
    await input.press('Escape')
    await input.press('Enter')
    await expect.poll(() => page.locator('[data-testid=composer-error]').innerText()).toContain('Did you mean /review?')
    await shots(page, 'help-unknown')
    await input.fill('/clear')
    await input.press('Escape')
    await input.press('Enter')
    await expect.poll(() => page.locator('[data-testid=message]').count()).toBe(0)
  }, 60_000)

  it('a !`cmd` line asks like bash: its card and approval show in the conversation; allowed, the model gets its output', async () => {
    const { page } = s
    const input = page.locator('[data-testid=composer-input]')
    await input.fill('/status')
    await input.press('Enter')
    await page.waitForSelector('[data-testid=approval-allow-once]', { timeout: 20_000 })
    await expect(page.locator('[data-testid=command-notice]').last().innerText()).resolves.toContain('echo hi-from-shell')
    await shots(page, 'shell-approval')
    await page.click('[data-testid=approval-allow-once]')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('The shell said hi.')
    await shots(page, 'shell-ran')
  }, 60_000)
})
