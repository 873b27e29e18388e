import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFile } from './support/agents'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - { match: "first", step: 1, text: "Asking the scout.", tools: [ { name: task, input: { subagent_type: scout, description: "Check the repo", prompt: "Check the repo" } } ] }
    - { match: "first", step: 2, text: "Scout finished its check." }
    - { match: "second", step: 1, text: "Cleaning up.", tools: [ { name: bash, input: { command: "rm -rf build" } } ] }
    - { match: "second", step: 2, text: "Understood, I will keep the build folder." }
  scout:
    - { step: 1, tools: [ { name: task, input: { subagent_type: digger, description: "Inspect git", prompt: "Inspect git" } } ] }
    - { step: 2, text: "Scout done." }
  digger:
    - { step: 1, tools: [ { name: bash, input: { command: "git fetch --dry-run" } } ] }
    - { step: 2, text: "Git fetch checked." }
  title: [ { text: "Approvals demo", repeat: true } ]
`

describe('approvals inline in the conversation', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('approvals', {
      script,
      files: {
        ...agentFile('scout', 'description: Scouts the repository\nmode: subagent'),
        ...agentFile('digger', 'description: Runs inspection commands\nmode: subagent\ncolor: "#8a5a44"'),
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('shows a depth-2 approval with its agent path; Always allow saves the edited pattern, revocable in settings', async () => {
    const { page } = s
    await send(page, 'first: inspect the repository')
    const dialog = page.locator('[data-testid=approval-dialog]')
    await dialog.waitFor({ timeout: 15_000 })
    // Who asks, by the tasks they were given (issue 28: it read "build › scout › digger"), and why, in plain words.
    expect(await page.locator('[data-testid=approval-agent-path]').innerText()).toBe('build › Check the repo › Inspect git')
    expect(await page.locator('[data-testid=approval-reason]').innerText()).not.toMatch(/root session|subagent level|→/)
    expect(await page.locator('[data-testid=approval-clock-note]').innerText()).toContain("the subagent's clock is paused")
    expect(await page.locator('[data-testid=approval-arguments]').innerText()).toContain('git fetch --dry-run')
    await expect.poll(() => page.locator('[data-testid=badge-waiting]').first().innerText()).toContain('1')
    await shot(page, 'approvals', '01-dialog', 'approval-dialog')

    await page.click('[data-testid=approval-always-open]')
    const patterns = page.locator('[data-testid=always-pattern]')
    expect(await patterns.count()).toBe(1)
    expect((await patterns.first().inputValue()).length).toBeGreaterThan(0)
    await patterns.first().fill('git fetch*')
    await page.selectOption('[data-testid=always-scope]', 'workspace')
    await shot(page, 'approvals', '02-always-allow', 'approval-always')
    await page.click('[data-testid=approval-always-confirm]')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Scout finished its check.')

    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-permissions]')
    const rule = page.locator('[data-testid=rule-row]', { hasText: 'git fetch*' })
    await expect.poll(() => rule.count()).toBe(1)
    expect(await rule.innerText()).toContain('workspace')
    await rule.scrollIntoViewIfNeeded()
    await shot(page, 'approvals', '03-settings-rules', 'settings-rules')
    await rule.locator('[data-testid=rule-revoke]').click()
    await expect.poll(() => page.locator('[data-testid=rule-row]', { hasText: 'git fetch*' }).count()).toBe(0)
    await page.click('[data-testid=close-settings]')
  })

  it('Esc never denies (it goes back to the composer); Deny with feedback sends the feedback to the model', async () => {
    const { page } = s
    await send(page, 'second: clean up')
    const dialog = page.locator('[data-testid=approval-dialog]')
    await dialog.waitFor({ timeout: 15_000 })
    expect(await page.locator('[data-testid=approval-agent-path]').innerText()).toBe('build')
    expect(await page.locator('[data-testid=approval-command]').innerText()).toContain('rm -rf build')
    // The risk is on the card itself.
    expect(await page.locator('[data-testid=approval-risks]').innerText()).toContain('deletes or overwrites files')
    await page.click('[data-testid=approval-deny-open]')
    await page.fill('[data-testid=deny-feedback]', 'Do not delete the build folder')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('composer-input')
    await page.waitForTimeout(300)
    expect(await dialog.count()).toBe(1)
    await page.click('[data-testid=approval-deny-confirm]')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Understood, I will keep the build folder.')
    const card = page.locator('[data-testid=tool-card][data-tool=bash]').last()
    expect(await card.getAttribute('data-state')).toBe('output-error')
    await card.locator('.tool-head').click()
    await expect.poll(() => card.locator('[data-testid=tool-output]').innerText()).toContain('Do not delete the build folder')
    await shot(page, 'approvals', '04-denied-with-feedback', 'denied-feedback')
  })
})
