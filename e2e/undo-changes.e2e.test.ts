import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFile } from './support/agents'
import { axeViolations } from './support/axe'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const FIRST = 'Create a.txt please'
const SECOND = 'Now delegate b.txt and extend a.txt'

const script = `
agents:
  build:
    - match: "Create a.txt"
      step: 1
      tools:
        - { name: write_file, input: { path: a.txt, content: "one\\ntwo\\n" } }
    - { match: "Create a.txt", step: 2, text: "Wrote a.txt." }
    - match: "delegate b.txt"
      step: 1
      text: "Handing b.txt to a worker."
      tools:
        - { name: task, input: { subagent_type: worker, description: "Write b.txt", prompt: "Write b.txt" } }
    - match: "delegate b.txt"
      step: 2
      tools:
        - { name: edit_file, input: { path: a.txt, old_string: "two\\n", new_string: "two\\nthree\\n" } }
    - { match: "delegate b.txt", step: 3, text: "The worker wrote b.txt and I extended a.txt." }
    - { match: "protected note", step: 1, tools: [ { name: write_file, input: { path: .agents/notes.md, content: "a note\\n" } } ] }
    - { match: "protected note", step: 2, text: "Wrote the protected note." }
    - { match: "two places", step: 1, tools: [ { name: write_file, input: { path: long.txt, content: "L1\\nCHANGED 2\\nL3\\nL4\\nL5\\nL6\\nL7\\nL8\\nL9\\nL10\\nCHANGED 11\\nL12\\n" } } ] }
    - { match: "two places", step: 2, text: "Changed long.txt in two places." }
  worker:
    - { step: 1, tools: [ { name: write_file, input: { path: b.txt, content: "from the worker\\n" } } ] }
    - { step: 2, text: "Wrote b.txt." }
  title: [ { text: "Undo demo", repeat: true } ]
`

const panel = (page: Page) => page.locator('[data-testid=changes-panel]')
const turns = (page: Page) => panel(page).locator('[data-testid=change-turn]')
const dialog = (page: Page) => page.locator('[data-testid=restore-dialog]')

/** Waits for the dialog's plan (a dry run) to arrive. */
async function planned(page: Page): Promise<string> {
  await expect.poll(() => dialog(page).getAttribute('data-state'), { timeout: 10_000 }).not.toBe('planning')
  return (await dialog(page).getAttribute('data-state'))!
}

describe('undo, checkpoints and the Changes panel', () => {
  let s: Scenario
  const file = (name: string) => path.join(s.workdir, name)
  const read = (name: string) => fs.readFileSync(file(name), 'utf8')

  beforeAll(async () => {
    s = await startScenario('undo', {
      script,
      permissions: '{ "*": "allow" }',
      files: agentFile('worker', 'description: Writes files\nmode: subagent\ninspectable: true'),
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('lists each turn with its files and who changed them; reverts a file and an agent', async () => {
    const { page } = s
    await page.setViewportSize({ width: 1400, height: 900 })
    await send(page, FIRST)
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Wrote a.txt.')
    await send(page, SECOND)
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('I extended a.txt')
    expect(read('a.txt')).toBe('one\ntwo\nthree\n')
    expect(read('b.txt')).toBe('from the worker\n')

    await page.click('[data-testid=changes-toggle]')
    expect(await page.getAttribute('[data-testid=changes-toggle]', 'aria-pressed')).toBe('true')
    await expect.poll(() => turns(page).count(), { timeout: 10_000 }).toBe(2)
    // Newest first: the second turn changed a.txt (the root) and added b.txt (the worker).
    const second = turns(page).nth(0)
    expect(await second.locator('.change-turn-title').innerText()).toBe(SECOND)
    const b = second.locator('[data-testid=change-file][data-path="b.txt"]')
    expect(await b.getAttribute('data-status')).toBe('added')
    expect(await b.locator('[data-testid=change-authors]').innerText()).toBe('by build › worker')
    expect(await b.locator('[data-testid=change-stat]').innerText()).toBe('+1 −0')
    const a2 = second.locator('[data-testid=change-file][data-path="a.txt"]')
    expect(await a2.getAttribute('data-status')).toBe('modified')
    expect(await a2.locator('[data-testid=change-authors]').innerText()).toBe('by build')
    const first = turns(page).nth(1)
    expect(await first.locator('.change-turn-title').innerText()).toBe(FIRST)
    expect(await first.locator('[data-testid=change-file]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-status')} ${e.getAttribute('data-path')}`))).toEqual(['added a.txt'])

    // A file's diff opens in place, with line numbers.
    await a2.locator('[data-testid=change-file-toggle]').click()
    expect(await a2.locator('[data-testid=change-file-toggle]').getAttribute('aria-expanded')).toBe('true')
    const diff = a2.locator('[data-testid=change-diff]')
    await expect.poll(() => diff.locator('.diff-row.dadd .diff-text').allInnerTexts()).toEqual(['three'])
    expect(await diff.locator('.diff-row.dadd .diff-no').nth(1).innerText()).toBe('3')
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'undo', '01-changes-panel')
    await page.setViewportSize({ width: 1024, height: 700 })
    await shot(page, 'undo', '02-changes-panel-1024')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(page, 'undo', '03-changes-panel-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 1400, height: 900 })

    // The worker's card says what it changed and offers to take it back: the plan names b.txt; cancelled, nothing is written.
    const card = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-agent=worker]')
    expect(await card.locator('[data-testid=subagent-changes]').innerText()).toContain('Changed 1 file: b.txt')
    await card.locator('[data-testid=subagent-revert]').click()
    expect(await planned(page)).toBe('ready')
    expect(await dialog(page).locator('[data-testid=restore-step]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-action')} ${e.getAttribute('data-path')}`))).toEqual(['delete b.txt'])
    await shot(page, 'undo', '04-revert-agent-plan')
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog(page).count()).toBe(0)
    expect(read('b.txt')).toBe('from the worker\n')

    // Revert file: b.txt goes (the worker added it); the transcript stays.
    await b.locator('[data-testid=change-revert-file]').click()
    expect(await planned(page)).toBe('ready')
    expect(await dialog(page).locator('[data-testid=restore-step]').getAttribute('data-action')).toBe('delete')
    await dialog(page).locator('[data-testid=restore-confirm]').click()
    await expect.poll(() => fs.existsSync(file('b.txt')), { timeout: 10_000 }).toBe(false)
    await expect.poll(() => dialog(page).count()).toBe(0)
    await expect.poll(() => page.locator('[data-testid=info-notice]').last().innerText()).toContain('Reverted: 1 file restored')
    expect(read('a.txt')).toBe('one\ntwo\nthree\n')
    expect(await transcriptText(page)).toContain('I extended a.txt')
    // The revert is recorded as a turn of its own.
    await expect.poll(() => turns(page).count(), { timeout: 10_000 }).toBe(3)
    expect(await turns(page).nth(0).locator('.change-turn-title').innerText()).toBe('Revert')
  })

  it('rewinds to a message: files restored, later messages hidden, its text back in the message box; Redo puts it all back', async () => {
    const { page } = s
    const userMessages = page.locator('[data-testid=transcript] [data-testid=message][data-role=user]')
    await expect.poll(() => userMessages.count()).toBe(2)
    await userMessages.nth(1).locator('[data-testid=rewind-message]').click()
    expect(await planned(page)).toBe('ready')
    expect(await dialog(page).getAttribute('role')).toBe('dialog')
    expect(await dialog(page).locator('[data-testid=restore-step]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-action')} ${e.getAttribute('data-path')}`))).toEqual(['restore a.txt'])
    // Keyboard: the plan is ready, so Confirm has focus.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('restore-confirm')
    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'undo', '05-rewind-plan')
    await page.keyboard.press('Enter')

    await expect.poll(() => read('a.txt'), { timeout: 10_000 }).toBe('one\ntwo\n')
    await expect.poll(() => userMessages.count()).toBe(1)
    expect(await transcriptText(page)).not.toContain('I extended a.txt')
    expect(await page.inputValue('[data-testid=composer-input]')).toBe(SECOND)
    expect(await page.locator('[data-testid=info-notice]').last().innerText()).toContain('Rewound: 1 file restored')
    const bar = page.locator('[data-testid=redo-bar]')
    await expect.poll(() => bar.count(), { timeout: 10_000 }).toBe(1)
    // The revert recorded among the undone turns is not a turn of the conversation.
    expect(await bar.innerText()).toContain('1 turn rewound')
    expect(await turns(page).nth(0).getAttribute('data-state')).toBe('undone')
    await shot(page, 'undo', '06-rewound-redo-bar')
    await page.setViewportSize({ width: 1024, height: 700 })
    await shot(page, 'undo', '07-rewound-1024')
    await page.setViewportSize({ width: 1400, height: 900 })

    await bar.locator('[data-testid=redo-button]').click()
    expect(await planned(page)).toBe('ready')
    expect(await dialog(page).locator('[data-testid=restore-step]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-action')} ${e.getAttribute('data-path')}`))).toEqual(['restore a.txt'])
    await dialog(page).locator('[data-testid=restore-confirm]').click()
    await expect.poll(() => read('a.txt'), { timeout: 10_000 }).toBe('one\ntwo\nthree\n')
    await expect.poll(() => userMessages.count(), { timeout: 10_000 }).toBe(2)
    await expect.poll(() => transcriptText(page)).toContain('I extended a.txt')
    await expect.poll(() => bar.count()).toBe(0)
    // The rewound text was still untouched in the message box: Redo takes it back out.
    expect(await page.inputValue('[data-testid=composer-input]')).toBe('')
    expect(fs.existsSync(file('b.txt'))).toBe(false)
  })

  it('refuses a rewind over a file changed on disk since, and writes nothing', async () => {
    const { page } = s
    fs.writeFileSync(file('a.txt'), 'edited by hand\n')
    const userMessages = page.locator('[data-testid=transcript] [data-testid=message][data-role=user]')
    await userMessages.nth(1).locator('[data-testid=rewind-message]').click()
    // The plan itself (the host's dry run checks the disk) shows the conflict, before anything is confirmed.
    expect(await planned(page)).toBe('conflicts')
    const conflict = dialog(page).locator('[data-testid=restore-conflict]')
    expect(await conflict.count()).toBe(1)
    expect(await conflict.innerText()).toContain('a.txt')
    expect(await dialog(page).locator('[data-testid=restore-conflicts]').innerText()).toMatch(/Nothing will be written/)
    expect(await dialog(page).locator('[data-testid=restore-confirm]').isDisabled()).toBe(true)
    await shot(page, 'undo', '08-conflict')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(page, 'undo', '09-conflict-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await dialog(page).locator('[data-testid=restore-cancel]').click()
    await expect.poll(() => dialog(page).count()).toBe(0)
    expect(read('a.txt')).toBe('edited by hand\n')
    expect(await userMessages.count()).toBe(2)
    // Focus returns to the button that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('rewind-message')

    // `/undo` in the composer is the same Rewind, of the last message: the same plan, the same refusal.
    await page.fill('[data-testid=composer-input]', '/undo')
    await page.press('[data-testid=composer-input]', 'Enter')
    expect(await planned(page)).toBe('conflicts')
    expect(await dialog(page).locator('[data-testid=restore-conflict]').innerText()).toContain('a.txt')
    expect(await page.inputValue('[data-testid=composer-input]')).toBe('')
    await dialog(page).locator('[data-testid=restore-cancel]').click()
    await expect.poll(() => dialog(page).count()).toBe(0)
    expect(read('a.txt')).toBe('edited by hand\n')
    expect(await userMessages.count()).toBe(2)

    // Closed, the panel gives its place back; the header keeps the Changes button.
    await page.click('[data-testid=changes-close]')
    await expect.poll(() => panel(page).count()).toBe(0)
    expect(await page.getAttribute('[data-testid=changes-toggle]', 'aria-pressed')).toBe('false')
    await page.setViewportSize({ width: 1024, height: 700 })
    await shot(page, 'undo', '10-panel-closed-1024')
    await page.setViewportSize({ width: 1400, height: 900 })
  })

  it('restores a protected file only when the person ticks it explicitly', async () => {
    const { page } = s
    await send(page, 'Write a protected note')
    // Protected configuration always asks (allowed once).
    await page.click('[data-testid=approval-allow-once]', { timeout: 20_000 })
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Wrote the protected note.')
    expect(fs.existsSync(file('.agents/notes.md'))).toBe(true)
    await page.click('[data-testid=changes-toggle]')
    const note = turns(page).nth(0).locator('[data-testid=change-file][data-path=".agents/notes.md"]')
    await expect.poll(() => note.count(), { timeout: 10_000 }).toBe(1)
    await note.locator('[data-testid=change-revert-file]').click()
    await expect.poll(() => dialog(page).getAttribute('data-state'), { timeout: 10_000 }).toBe('conflicts')
    expect(await dialog(page).locator('[data-testid=restore-conflict]').getAttribute('data-reason')).toBe('protected')
    expect(await dialog(page).locator('[data-testid=restore-confirm]').isDisabled()).toBe(true)
    await shot(page, 'undo', '11-protected')
    await dialog(page).locator('[data-testid=restore-include-protected]').check()
    expect(await planned(page)).toBe('ready')
    expect(await dialog(page).locator('[data-testid=restore-step]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-action')} ${e.getAttribute('data-path')}`))).toEqual(['delete .agents/notes.md'])
    await dialog(page).locator('[data-testid=restore-confirm]').click()
    await expect.poll(() => fs.existsSync(file('.agents/notes.md')), { timeout: 10_000 }).toBe(false)
    await expect.poll(() => dialog(page).count()).toBe(0)
  })

  it('takes back one of two changes in a file (a hunk), keeping the other; each file has Open', async () => {
    const { page } = s
    fs.writeFileSync(file('long.txt'), 'L1\nL2\nL3\nL4\nL5\nL6\nL7\nL8\nL9\nL10\nL11\nL12\n')
    await send(page, 'Change long.txt in two places')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Changed long.txt in two places.')
    if ((await panel(page).count()) === 0) await page.click('[data-testid=changes-toggle]')
    const long = turns(page).nth(0).locator('[data-testid=change-file][data-path="long.txt"]')
    await expect.poll(() => long.count(), { timeout: 10_000 }).toBe(1)
    expect(await long.locator('[data-testid=change-open-file]').count()).toBe(1)
    await long.locator('[data-testid=change-file-toggle]').click()
    const hunks = long.locator('[data-testid=change-hunk]')
    await expect.poll(() => hunks.count()).toBe(2)
    await shot(page, 'undo', '13-hunks')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(page, 'undo', '14-hunks-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await hunks.nth(1).locator('[data-testid=change-revert-hunk]').click()
    expect(await planned(page)).toBe('ready')
    await dialog(page).locator('[data-testid=restore-confirm]').click()
    await expect.poll(() => read('long.txt'), { timeout: 10_000 }).toBe('L1\nCHANGED 2\nL3\nL4\nL5\nL6\nL7\nL8\nL9\nL10\nL11\nL12\n')
    await expect.poll(() => dialog(page).count()).toBe(0)
  })

  it('shows the checkpoints space in Settings and prunes', async () => {
    const { page } = s
    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-checkpoints]')
    const section = page.locator('[data-testid=settings-checkpoints]')
    await expect.poll(() => section.locator('[data-testid=checkpoints-space]').innerText(), { timeout: 10_000 }).toMatch(/\d+(\.\d)? (B|KB|MB) used in 1 workspace$/)
    expect(await section.locator('[data-testid=checkpoints-enabled]').getAttribute('data-enabled')).toBe('true')
    await section.locator('[data-testid=checkpoints-prune]').click()
    await expect.poll(() => section.locator('[data-testid=checkpoints-freed]').innerText(), { timeout: 20_000 }).toMatch(/^Pruned: .+ freed\.$/)
    await section.scrollIntoViewIfNeeded()
    await shot(page, 'undo', '12-settings-checkpoints')
    await page.click('[data-testid=close-settings]')
  })
})
