import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { axeViolations } from './support/axe'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - { match: "check", step: 1, text: "Running the tests.", tools: [ { name: bash, input: { command: "npm test" } } ] }
    - { match: "check", step: 2, text: "The tests ran." }
  title: [ { text: "Checking the tests", repeat: true } ]
`

const permissions = `{
  // asks by default
  "*": "ask",
  "read_file": { "*": "allow", "*.env": "deny" },
  "bash": { "git status": "allow", "rm -rf *": "deny" }
}`

/** Light at 1400×900 (axe), 1024×700, dark (axe), and back. */
async function threeShots(page: Page, name: string, inView?: string): Promise<void> {
  const show = async () => {
    if (inView) await page.locator(inView).first().scrollIntoViewIfNeeded()
  }
  await page.setViewportSize({ width: 1400, height: 900 })
  await show()
  expect(await axeViolations(page), name).toEqual([])
  await shot(page, 'settings-sections', `${name}-1400`)
  await page.setViewportSize({ width: 1024, height: 700 })
  await show()
  await shot(page, 'settings-sections', `${name}-1024`)
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await axeViolations(page), `${name} (dark)`).toEqual([])
  await shot(page, 'settings-sections', `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1400, height: 900 })
}

/** Controls of the Settings cards that stick out of their card, or a Settings that scrolls sideways. */
function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    const settings = document.querySelector('.settings')!
    if (settings.scrollWidth > settings.clientWidth + 1) problems.push(`Settings scroll sideways (${settings.scrollWidth} in ${settings.clientWidth})`)
    for (const el of document.querySelectorAll<HTMLElement>('.settings-main button, .settings-main input, .settings-nav button')) {
      const card = el.closest('.card, .settings-nav')!.getBoundingClientRect()
      const r = el.getBoundingClientRect()
      if (r.width > 0 && (r.right > card.right + 0.5 || r.left < card.left - 0.5)) problems.push(`${el.dataset.testid ?? el.textContent} sticks out (${Math.round(r.right)} of ${Math.round(card.right)})`)
    }
    return problems
  })
}

const nav = (page: Page, id: string) => page.locator(`[data-testid=settings-nav-${id}]`)

describe('Settings in sections; permissions viewable and revocable', () => {
  let s: Scenario
  beforeAll(async () => {
    // A provider of the person's own (unreachable: its rows are what is looked at), beside the built-in script one.
    const config = 'providers:\n  work-openai:\n    type: openai\n    baseURL: http://127.0.0.1:9/v1\n  local:\n    type: openai-compatible\n    baseURL: http://127.0.0.1:9/v1\n'
    s = await startScenario('settings-sections', { script, permissions, config, files: { '.agents/permissions.jsonc': '{ "bash": { "npm publish*": "deny" } }' } })
  }, 90_000)
  afterAll(async () => s?.close())

  it('one section at a time, chosen in a keyboard-usable navigation that a reload remembers; provider rows fit', async () => {
    const { page } = s
    await page.click('[data-testid=open-settings]')
    await page.waitForSelector('[data-testid=settings-providers]')
    // The first section: providers and models, each setting in a card of its own with one Save.
    expect(await nav(page, 'models').getAttribute('aria-current')).toBe('page')
    expect(await page.locator('[data-testid=settings-budgets]').count()).toBe(0)
    for (const card of ['settings-model', 'settings-small-model', 'settings-limits']) {
      expect(await page.locator(`[data-testid=${card}] button`, { hasText: /^Save/ }).count(), card).toBe(1)
    }
    expect(await page.locator('[data-testid=provider-row][data-provider=work-openai] [data-testid=provider-key-input]').count()).toBe(1)
    await threeShots(page, '01-providers-models')
    for (const width of [1024, 560]) {
      await page.setViewportSize({ width, height: 700 })
      expect(await cutOff(page), `at ${width}px`).toEqual([])
    }
    await shot(page, 'settings-sections', '01-providers-models-560')
    await page.setViewportSize({ width: 1400, height: 900 })

    // Keyboard: the navigation is buttons; Enter on one shows its section and marks it current.
    await nav(page, 'budgets').focus()
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid=settings-budgets]')
    expect(await nav(page, 'budgets').getAttribute('aria-current')).toBe('page')
    expect(await nav(page, 'models').getAttribute('aria-current')).toBeNull()
    expect(await page.locator('[data-testid=settings-providers]').count()).toBe(0)

    // A reload, then Settings again: the same section.
    await page.reload()
    await page.waitForSelector('[data-testid=composer-input]')
    await page.click('[data-testid=open-settings]')
    await page.waitForSelector('[data-testid=settings-budgets]')
    expect(await nav(page, 'budgets').getAttribute('aria-current')).toBe('page')
    await page.click('[data-testid=close-settings]')
  })

  it("Permissions shows the person's and the workspace's rules as tables; a session grant is listed in the conversation and in Settings, and revoked", async () => {
    const { page } = s
    await page.click('[data-testid=open-settings]')
    await nav(page, 'permissions').click()
    const yours = page.locator('[data-testid=static-rules-yours]')
    await yours.waitFor()
    const rows = yours.locator('[data-testid=static-rule-row]')
    expect(await rows.allInnerTexts()).toEqual(['*\t*\task', 'read_file\t*\tallow', 'read_file\t*.env\tdeny', 'bash\tgit status\tallow', 'bash\trm -rf *\tdeny'])
    expect(await yours.innerText()).toContain(`${s.home}/permissions.jsonc`)
    const workspace = page.locator('[data-testid=static-rules-workspace]')
    expect(await workspace.locator('[data-testid=static-rule-row]').allInnerTexts()).toEqual(['bash\tnpm publish*\tdeny'])
    expect(await workspace.innerText()).toContain('.agents/permissions.jsonc')
    expect(await page.locator('[data-testid=rules-empty]').count()).toBe(1)
    await threeShots(page, '02-permissions')
    await page.click('[data-testid=close-settings]')

    // "Always allow … this session" on an approval.
    await send(page, 'check the tests')
    const dialog = page.locator('[data-testid=approval-dialog]')
    await dialog.waitFor({ timeout: 15_000 })
    await page.click('[data-testid=approval-always-open]')
    await page.locator('[data-testid=always-pattern]').first().fill('npm test*')
    await page.selectOption('[data-testid=always-scope]', 'session')
    await page.click('[data-testid=approval-always-confirm]')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('The tests ran.')

    // The conversation says what it may do without asking.
    const grants = page.locator('[data-testid=conversation-grants]')
    await expect.poll(() => grants.count(), { timeout: 10_000 }).toBe(1)
    expect(await grants.innerText()).toContain('1 permission allowed')
    expect(await grants.textContent()).toContain('1 permission allowed for this conversation')
    await grants.click()
    const list = page.locator('[data-testid=conversation-grants-list]')
    expect(await list.locator('[data-testid=rule-row]').count()).toBe(1)
    expect(await list.locator('[data-testid=rule-pattern]').innerText()).toBe('npm test*')
    expect(await list.innerText()).toContain('This session')
    await threeShots(page, '03-conversation-grants')
    await page.keyboard.press('Escape')

    // Settings › Permissions (remembered) lists it with the conversation's title, not an id.
    await page.click('[data-testid=open-settings]')
    const row = page.locator('[data-testid=settings-grants] [data-testid=rule-row]')
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.locator('[data-testid=rule-where]').innerText()).toBe('This session, from now on — “Checking the tests”')
    await threeShots(page, '04-settings-grants', '[data-testid=settings-grants]')

    // Revoked in Settings: gone there, and from the conversation.
    await row.locator('[data-testid=rule-revoke]').click()
    await expect.poll(() => row.count()).toBe(0)
    expect(await page.locator('[data-testid=rules-empty]').count()).toBe(1)
    await page.click('[data-testid=close-settings]')
    await page.waitForSelector('[data-testid=session-stats]')
    await expect.poll(() => grants.count()).toBe(0)
  })
})
