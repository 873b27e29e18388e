import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { agentFile } from './support/agents'
import { axeViolations } from './support/axe'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/**
 * The composer's `@` menu in the browser (issue 28): files of the workspace fuzzy-matched by the host (.gitignore
 * respected), picked into the text as `@path`; a running child of the conversation offered beside the agent types,
 * and a message to it steered to that child (it reads it at its next step) instead of the conversation.
 */
const script = `
agents:
  build:
    - { match: "slow helper", step: 1, repeat: true, text: "Asking the slow helper.", tools: [ { name: task, input: { subagent_type: slowpoke, description: "Slow work", prompt: "Work slowly on it" } } ] }
    - { match: "slow helper", step: 2, repeat: true, text: "The slow helper is back." }
  slowpoke:
    - { match: "change of plan", text: "Understood: switching to the new plan." }
    - { step: 1, repeat: true, delayMs: 8000, tools: [ { name: list_dir, input: {} } ] }
    - { text: "Done the old way.", repeat: true }
  title: [ { text: "Mentions", repeat: true } ]
`

const menu = (page: Page) => page.locator('[data-testid=mention-menu]')
const input = (page: Page) => page.locator('[data-testid=composer-input]')

/** 1400×900 and dark, into e2e/artifacts/mentions, with axe-core finding nothing in either. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 })
  expect(await axeViolations(page), name).toEqual([])
  await shot(page, 'mentions', `${name}-1400`)
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await axeViolations(page), `${name} (dark)`).toEqual([])
  await shot(page, 'mentions', `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

describe('the @ menu', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('mentions', {
      script,
      files: {
        ...agentFile('slowpoke', 'description: Works slowly\nmode: subagent\ncolor: "#b365d6"'),
        '.gitignore': 'dist/\n',
        'src/composer.tsx': 'export {}\n',
        'src/components/compare-panel.tsx': 'export {}\n',
        'docs/compression notes.md': '# notes\n',
        'dist/composer.js': '// built\n',
      },
    })
    await s.page.setViewportSize({ width: 1400, height: 900 })
  }, 120_000)
  afterAll(async () => s?.close())

  it('`@comp` lists the workspace files fuzzy-matched (not the ignored ones); Tab puts `@src/composer.tsx ` in the box', async () => {
    const { page } = s
    await input(page).focus()
    await page.keyboard.type('look at @comp')
    const files = menu(page).locator('[data-testid=mention-file]')
    const paths = () => files.locator('.mention-file-path').allInnerTexts()
    await expect.poll(paths).toContain('src/composer.tsx')
    expect((await paths())[0]).toBe('src/composer.tsx')
    expect((await paths()).join('\n')).not.toContain('dist/')
    expect(await menu(page).getAttribute('role')).toBe('listbox')
    expect(await menu(page).locator('.mention-group').allInnerTexts()).toEqual(['FILES'])
    await shots(page, '01-files')
    // ↓ then ↑ comes back to the first; Tab picks it.
    await page.keyboard.press('ArrowDown')
    expect(await files.nth(1).getAttribute('aria-selected')).toBe('true')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('Tab')
    await expect.poll(() => menu(page).count()).toBe(0)
    expect(await input(page).inputValue()).toBe('look at @src/composer.tsx ')
    // A path with a space goes in quoted; Esc closes the menu and leaves the text as typed.
    await page.keyboard.type('and @notes')
    await expect.poll(paths).toContain('docs/compression notes.md')
    await files.filter({ hasText: 'compression notes' }).click()
    expect(await input(page).inputValue()).toBe('look at @src/composer.tsx and @"docs/compression notes.md" ')
    await page.keyboard.type('@sl')
    await expect.poll(() => menu(page).count()).toBe(1)
    await page.keyboard.press('Escape')
    await expect.poll(() => menu(page).count()).toBe(0)
    expect(await input(page).inputValue()).toBe('look at @src/composer.tsx and @"docs/compression notes.md" @sl')
    await input(page).fill('')
  })

  it('a running child is offered beside the agent types; picked, the message goes to it (steered) and it answers it', async () => {
    const { page } = s
    await send(page, 'slow helper please')
    await expect.poll(() => page.locator('[data-testid=subagent-status]').first().innerText(), { timeout: 20_000 }).toBe('running')
    await input(page).focus()
    await page.keyboard.type('@')
    const childOption = menu(page).locator('[data-testid=mention-child]')
    await expect.poll(() => childOption.count(), { timeout: 10_000 }).toBe(1)
    expect(await childOption.innerText()).toContain('slowpoke')
    expect(await childOption.innerText()).toContain('Slow work')
    expect(await menu(page).locator('[data-testid=mention-agent]').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('@slowpoke')]))
    expect(await menu(page).locator('.mention-group').allInnerTexts()).toEqual(['RUNNING NOW — MESSAGE IT', 'SUBAGENTS'])
    await shots(page, '02-running-child')
    await page.keyboard.press('Enter')
    const chip = page.locator('[data-testid=mention-to]')
    await expect.poll(() => chip.innerText()).toContain('To: slowpoke · Slow work')
    expect(await input(page).inputValue()).toBe('')
    await page.keyboard.type('change of plan: use the new parser')
    await shot(page, 'mentions', '03-to-chip-1400')
    await page.keyboard.press('Enter')
    await expect.poll(() => chip.count()).toBe(0)
    expect(await input(page).inputValue()).toBe('')
    // The conversation did not get it as a prompt; the child read it at its next step and answered it.
    await expect.poll(() => transcriptText(page), { timeout: 30_000 }).toContain('The slow helper is back.')
    expect(await page.locator('[data-testid=message][data-role=user]').allInnerTexts()).toEqual([expect.stringContaining('slow helper please')])
    await page.locator('[data-testid=subagent-expand]').first().click()
    const nested = page.locator('[data-testid=subagent-transcript]').first()
    await expect.poll(() => nested.innerText(), { timeout: 10_000 }).toContain('change of plan: use the new parser')
    expect(await nested.innerText()).toContain('Understood: switching to the new plan.')
    expect(await nested.innerText()).not.toContain('Done the old way.')
  })

  it('a child that ended before the message was sent: a clear error, the text kept', async () => {
    const { page } = s
    await page.click('[data-testid=new-session]')
    await send(page, 'slow helper again')
    await expect.poll(() => page.locator('[data-testid=subagent-status]').first().innerText(), { timeout: 20_000 }).toBe('running')
    await input(page).focus()
    await page.keyboard.type('@slow')
    await expect.poll(() => menu(page).locator('[data-testid=mention-child]').count(), { timeout: 10_000 }).toBe(1)
    await page.keyboard.press('Tab')
    await page.keyboard.type('too late for this')
    await expect.poll(() => transcriptText(page), { timeout: 30_000 }).toContain('The slow helper is back.')
    await expect.poll(() => page.locator('[data-testid=mention-to]').getAttribute('data-running')).toBe('false')
    await page.keyboard.press('Enter')
    const error = page.locator('[data-testid=composer-error]')
    await expect.poll(() => error.innerText()).toContain('has ended')
    expect(await error.innerText()).toContain('remove the "To:" chip')
    expect(await input(page).inputValue()).toBe('too late for this')
    // × sends it to the conversation again.
    await page.click('[data-testid=mention-to-remove]')
    expect(await page.locator('[data-testid=mention-to]').count()).toBe(0)
  })
})
