import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - match: "rewrite"
      step: 1
      text: "Rewriting the notes."
      tools: [ { name: write_file, input: { path: notes.md, content: "one\\nTWO\\n" } } ]
    - { match: "rewrite", step: 2, text: "Notes rewritten." }
    - { match: "hello", text: "Hello from the other session." }
    - match: "publish"
      step: 1
      tools: [ { name: bash, input: { command: "make release && npm publish --dry-run" } } ]
    - { match: "publish", step: 2, text: "Published." }
  title:
    - { match: "rewrite", text: "Rewrite session", repeat: true }
    - { match: "hello", text: "Other session", repeat: true }
    - { text: "Publish session", repeat: true }
`

const active = (page: Scenario['page']) =>
  page.evaluate(() => {
    const el = document.activeElement
    return { testid: el?.getAttribute('data-testid') ?? null, inApproval: !!el?.closest('[data-testid=approval-dialog]') }
  })

describe('approvals inline, without freezing the app', () => {
  let s: Scenario
  beforeAll(async () => {
    // Writes inside the workspace are allowed by default; this workspace asks, so the overwrite needs the person.
    s = await startScenario('approval-inline', { script, files: { 'notes.md': 'one\ntwo\nthree\n', '.agents/permissions.jsonc': '{ "write_file": "ask" }\n' } })
  }, 120_000)
  afterAll(async () => s?.close())

  it("shows the host's diff of a write_file overwrite (removed lines, line numbers); other sessions and Settings stay usable meanwhile", async () => {
    const { page } = s
    await send(page, 'rewrite the notes')
    const approval = page.locator('[data-testid=approval-dialog]')
    await approval.waitFor({ timeout: 15_000 })
    const diff = approval.locator('[data-testid=approval-diff]')
    const rows = await diff.locator('.diff-row').evaluateAll((els) =>
      els.map((e) => [e.getAttribute('data-kind'), ...[...e.querySelectorAll('[role=cell]')].map((c) => c.textContent)].join('|')),
    )
    expect(rows).toEqual(['hunk||||@@ -1,3 +1,2 @@', 'ctx|1|1| |one', 'del|2||−|two', 'del|3||−|three', 'add||2|+|TWO'])
    await shot(page, 'approval-inline', '01-write-file-overwrite')
    // Not a modal: nothing covers the page.
    expect(await page.locator('.modal-backdrop, [aria-modal=true]').count()).toBe(0)
    const rewriteRow = page.locator('[data-testid=session-row]', { hasText: 'Rewrite session' })
    await expect.poll(() => rewriteRow.locator('[data-testid=badge-waiting]').innerText(), { timeout: 10_000 }).toContain('1')

    // Another session works while the first one waits.
    await page.click('[data-testid=new-session]')
    expect(await approval.count()).toBe(0)
    await send(page, 'hello there')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Hello from the other session.')
    expect(await approval.count()).toBe(0)
    await page.click('[data-testid=open-settings]')
    await page.waitForSelector('[data-testid=settings-providers]')
    await page.click('[data-testid=close-settings]')
    await shot(page, 'approval-inline', '02-other-session-usable')
    expect(fs.readFileSync(path.join(s.workdir, 'notes.md'), 'utf8')).toBe('one\ntwo\nthree\n')

    // Back in the first session, the approval is where it was.
    await rewriteRow.click()
    await approval.waitFor()
    expect(await approval.locator('[data-testid=approval-diff]').count()).toBe(1)
  })

  it('keyboard: focus stays inside while it has it, Esc goes back to the composer (never denies), Enter allows once', async () => {
    const { page } = s
    const approval = page.locator('[data-testid=approval-dialog]')
    await approval.locator('[data-testid=approval-agent-path]').click()
    expect(await active(page)).toMatchObject({ inApproval: true })
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab')
      expect(await active(page)).toMatchObject({ inApproval: true })
    }
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab')
      expect(await active(page)).toMatchObject({ inApproval: true })
    }
    await page.keyboard.press('Escape')
    expect(await active(page)).toEqual({ testid: 'composer-input', inApproval: false })
    // Enter in the (empty) composer neither sends nor answers.
    await page.keyboard.press('Enter')
    await page.waitForTimeout(300)
    expect(await approval.count()).toBe(1)
    // Shift+Tab from the composer reaches the approval; Enter there allows once.
    await page.keyboard.press('Shift+Tab')
    expect(await active(page)).toMatchObject({ inApproval: true })
    await approval.locator('[data-testid=approval-agent-path]').click()
    await page.keyboard.press('Enter')
    await approval.waitFor({ state: 'detached' })
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Notes rewritten.')
    expect(fs.readFileSync(path.join(s.workdir, 'notes.md'), 'utf8')).toBe('one\nTWO\n')
  })

  it('"Always allow" for a compound command offers one editable pattern per sub-command', async () => {
    const { page } = s
    await page.click('[data-testid=new-session]')
    await send(page, 'publish it')
    const approval = page.locator('[data-testid=approval-dialog]')
    await approval.waitFor({ timeout: 15_000 })
    await page.click('[data-testid=approval-always-open]')
    const inputs = approval.locator('[data-testid=always-pattern]')
    const values = await inputs.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))
    expect(values).toHaveLength(2)
    expect(values[0]).toMatch(/^make /)
    expect(values[1]).toMatch(/^npm /)
    await shot(page, 'approval-inline', '03-always-allow-per-subcommand')
    await inputs.nth(0).fill('make release')
    await approval.getByRole('button', { name: /Remove pattern npm/ }).click()
    expect(await inputs.count()).toBe(1)
    await page.selectOption('[data-testid=always-scope]', 'workspace')
    await page.click('[data-testid=approval-always-confirm]')
    await approval.waitFor({ state: 'detached' })
    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-permissions]')
    await expect.poll(() => page.locator('[data-testid=rule-pattern]').allInnerTexts()).toEqual(['make release'])
    await page.click('[data-testid=close-settings]')
  })
})
