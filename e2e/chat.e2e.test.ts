import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { DIFF_BLOCK } from './support/markdown-samples'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const code = 'const re = /"[^"]*"/g // match quoted text\nconst s = "done"'
const answer = [
  'Call __init__ first, then see __init__.py.',
  '',
  '| file | lines |',
  '|---|---:|',
  '| src/app.ts | 120 |',
  '',
  '| Finding | Severity |',
  '|---|---|',
  `| ${'The session token is compared with == instead of a constant-time comparison, in src/auth/session-manager.ts and src/auth/api-keys.ts; '.repeat(3)}| High |`,
  '',
  '- [x] read the code',
  '- [ ] write the tests',
  '',
  '- outer',
  '  - inner',
  '    - deepest',
  '',
  'See [the page](https://en.wikipedia.org/wiki/Markdown_(disambiguation)) and ~~not this~~.',
  '',
  '```ts',
  code,
  '```',
  '',
  DIFF_BLOCK,
].join('\n')

const paragraph = (i: number) => `Paragraph ${i}: ${Array.from({ length: 40 }, (_, k) => `word${k}`).join(' ')}.`
const long = Array.from({ length: 20 }, (_, i) => paragraph(i + 1)).join('\n\n') + '\n\nThe long answer ends here.'

const script = `
agents:
  build:
    - match: "review"
      step: 1
      text: "Tracking the work."
      tools:
        - { name: todo, input: { todos: [ { content: "Read the code", status: completed }, { content: "Write the tests", status: in_progress }, { content: "Ship it", status: pending } ] } }
    - { match: "review", step: 2, text: ${JSON.stringify(answer)} }
    - { match: "long", text: ${JSON.stringify(long)}, chunkDelayMs: 8 }
    - { match: "short", text: "A short reply at the bottom." }
    - { match: "why does this fail", text: "It fails at line 1204." }
  title: [ { text: "Chat session", repeat: true } ]
`

describe('the conversation', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('chat', { script })
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(s.daemon.url).origin })
  }, 120_000)
  afterAll(async () => s?.close())

  it('renders Markdown faithfully: tables, task lists, nested lists, links with ")", no bold __init__, regexes and diffs highlighted; todo as a checklist', async () => {
    const { page } = s
    await send(page, 'review the project')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('and not this.')
    const md = page.locator('[data-testid=part-text]').last()
    expect(await md.locator('table').first().locator('th').allInnerTexts()).toEqual(['file', 'lines'])
    expect(await md.locator('table').first().locator('td').allInnerTexts()).toEqual(['src/app.ts', '120'])
    // A short word in a table beside a long cell is never broken mid-word ("Severit|y"), at either width.
    const linesOf = (text: string) =>
      md.locator('table th, table td', { hasText: new RegExp(`^${text}$`) }).evaluate((el) => {
        const r = document.createRange()
        r.selectNodeContents(el)
        return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size
      })
    expect(await linesOf('Severity')).toBe(1)
    expect(await linesOf('High')).toBe(1)
    await page.setViewportSize({ width: 1024, height: 700 })
    expect(await linesOf('Severity')).toBe(1)
    await md.locator('table').nth(1).scrollIntoViewIfNeeded()
    await shot(page, 'chat', '01b-table-1024')
    await page.setViewportSize({ width: 1400, height: 900 })
    expect(await md.locator('input[type=checkbox]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).checked))).toEqual([true, false])
    expect(await md.locator('li li li').innerText()).toBe('deepest')
    expect(await md.locator('a', { hasText: 'the page' }).getAttribute('href')).toBe('https://en.wikipedia.org/wiki/Markdown_(disambiguation)')
    expect(await md.locator('del').innerText()).toBe('not this')
    expect(await md.locator('strong').count()).toBe(0)
    expect(await md.innerText()).toContain('Call __init__ first, then see __init__.py.')
    // Highlighting arrives when the grammar chunk has loaded.
    const block = md.locator('[data-testid=code-block][data-lang=ts]')
    await expect.poll(() => block.locator('.hljs-regexp').allInnerTexts()).toEqual(['/"[^"]*"/g'])
    expect(await block.locator('.hljs-string').allInnerTexts()).toEqual(['"done"'])
    expect(await block.locator('.hljs-comment').allInnerTexts()).toEqual(['// match quoted text'])
    const diff = md.locator('[data-testid=code-diff]')
    expect(await diff.locator('[data-kind=del] .diff-text').allInnerTexts()).toEqual(['start(3000)'])
    expect(await diff.locator('[data-kind=add] .diff-text').allInnerTexts()).toEqual(['start(Number(process.env.PORT ?? 3000))'])
    expect(await diff.locator('[data-kind=del] .diff-no').first().innerText()).toBe('2')

    const todos = page.locator('[data-testid=todo-item]')
    expect(await todos.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-status')}:${e.textContent}`))).toEqual([
      'completed:Read the code',
      'in_progress:Write the testsin progress',
      'pending:Ship it',
    ])
    // Copy once per answer, under its last step; not under the step that only called a tool (issue 28).
    const stepMessage = page.locator('[data-testid=message][data-role=assistant]', { hasText: 'Tracking the work.' })
    expect(await stepMessage.locator('[data-testid=copy-message]').count()).toBe(0)
    expect(await page.locator('[data-testid=message][data-role=assistant]', { hasText: 'and not this' }).locator('[data-testid=copy-message]').count()).toBe(1)
    await shot(page, 'chat', '01-markdown')
  })

  it('copies a code block and a whole message to the clipboard', async () => {
    const { page } = s
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText())
    const block = page.locator('[data-testid=code-block][data-lang=ts]')
    await block.locator('[data-testid=copy-code]').click()
    await expect.poll(() => block.locator('[data-testid=copy-code]').getAttribute('data-state')).toBe('copied')
    expect(await clipboard()).toBe(code)
    await page.locator('[data-testid=message][data-role=assistant]').last().locator('[data-testid=copy-message]').click()
    expect(await clipboard()).toBe(answer)
    await page.locator('[data-testid=message][data-role=user]').last().locator('[data-testid=copy-message]').click()
    expect(await clipboard()).toBe('review the project')
  })

  it('Up-arrow in an empty composer brings back the last message; not when there is text', async () => {
    const { page } = s
    const input = page.locator('[data-testid=composer-input]')
    await input.focus()
    await page.keyboard.press('ArrowUp')
    expect(await input.inputValue()).toBe('review the project')
    await input.fill('draft')
    await page.keyboard.press('ArrowUp')
    expect(await input.inputValue()).toBe('draft')
    await input.fill('')
    // Up, then at once select all (Ctrl+A, or an automation's fill()): the recalled text's caret used to be placed
    // a frame later, collapsing that selection, so typing appended to the recalled text instead of replacing it
    // (CI once got "review the projectdraft").
    const selection = await page.evaluate(async () => {
      const el = document.querySelector<HTMLTextAreaElement>('[data-testid=composer-input]')!
      el.focus()
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true, cancelable: true }))
      el.select()
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      return { value: el.value, start: el.selectionStart, end: el.selectionEnd }
    })
    expect(selection).toEqual({ value: 'review the project', start: 0, end: 'review the project'.length })
    await input.fill('')
  })

  it('@ offers the subagents; Tab completes the name and the caret lands after it, so typing goes on from there', async () => {
    const { page } = s
    const input = page.locator('[data-testid=composer-input]')
    await input.focus()
    await page.keyboard.type('ask @ex')
    await expect.poll(() => page.locator('[data-testid=mention-menu] [role=option] .agent-option-name').allTextContents()).toEqual(['@explore'])
    await page.keyboard.press('Tab')
    await expect.poll(() => page.locator('[data-testid=mention-menu]').count()).toBe(0)
    await page.keyboard.type('to look')
    expect(await input.inputValue()).toBe('ask @explore to look')
    await input.fill('')
  })

  it('follows the latest: a person scrolled up is not dragged down, sees "Jump to latest", and sending scrolls to the new message', async () => {
    const { page } = s
    const list = page.locator('[data-testid=transcript]')
    await send(page, 'long answer please')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Paragraph 3:')
    // While the answer is being written, nothing offers to regenerate it (issue 28: a disabled Regenerate sat there).
    expect(await page.locator('[data-testid=regenerate]').count()).toBe(0)
    // Streaming at the bottom: the view follows.
    await expect.poll(() => list.getAttribute('data-at-end')).toBe('true')
    await list.evaluate((el) => el.scrollTo({ top: 0 }))
    const jump = page.locator('[data-testid=jump-latest]')
    await jump.waitFor({ timeout: 10_000 })
    expect(await transcriptText(page)).not.toContain('The long answer ends here.')
    expect(await list.evaluate((el) => el.scrollTop)).toBeLessThan(50)
    await shot(page, 'chat', '02-jump-to-latest')
    await jump.click()
    await expect.poll(() => list.getAttribute('data-at-end')).toBe('true')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('The long answer ends here.')
    expect(await list.getAttribute('data-at-end')).toBe('true')

    await list.evaluate((el) => el.scrollTo({ top: 0 }))
    await expect.poll(() => list.getAttribute('data-at-end')).toBe('false')
    await send(page, 'short one')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('A short reply at the bottom.')
    await expect.poll(() => list.getAttribute('data-at-end')).toBe('true')
    expect(await page.locator('[data-testid=message][data-role=user]', { hasText: 'short one' }).isVisible()).toBe(true)
    expect(await jump.count()).toBe(0)
  })

  it('a long paste is one chip in the box (Expand shows it, × drops it) and is sent whole (issue 28)', async () => {
    const { page } = s
    const input = page.locator('[data-testid=composer-input]')
    const log = Array.from({ length: 1204 }, (_, i) => `2026-11-27T10:00:${String(i % 60).padStart(2, '0')} ERROR worker ${i + 1}: connection reset`).join('\n')
    await page.evaluate((text) => navigator.clipboard.writeText(text), log)
    await input.fill('why does this fail? ')
    await input.press('End')
    await page.keyboard.press('Control+V')
    await expect.poll(() => input.inputValue()).toBe('why does this fail? [Pasted text #1, 1,204 lines]')
    const chip = page.locator('[data-testid=paste-chip]')
    expect(await chip.innerText()).toContain('Pasted text #1 · 1,204 lines')
    await shot(page, 'chat', '06-paste-chip')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(page, 'chat', '06-paste-chip-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    // × drops it; a second paste is a new chip; Expand puts the text in the box.
    await chip.locator('[data-testid=paste-remove]').click()
    expect(await input.inputValue()).toBe('why does this fail? ')
    await input.press('End')
    await page.keyboard.press('Control+V')
    await expect.poll(() => input.inputValue()).toBe('why does this fail? [Pasted text #2, 1,204 lines]')
    await chip.locator('[data-testid=paste-expand]').click()
    expect(await input.inputValue()).toBe(`why does this fail? ${log}`)
    expect(await chip.count()).toBe(0)
    await input.fill('why does this fail? ')
    await input.press('End')
    await page.keyboard.press('Control+V')
    await expect.poll(() => chip.count()).toBe(1)
    await input.press('Enter')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('It fails at line 1204.')
    // In the transcript it shows its first lines and a button for the rest; the model got all of it.
    const sentMessage = page.locator('[data-testid=transcript] [data-testid=message][data-role=user]').last()
    expect(await sentMessage.innerText()).not.toContain('worker 1204: connection reset')
    expect(await sentMessage.innerText()).not.toContain('[Pasted text')
    await shot(page, 'chat', '07-long-message-collapsed')
    await sentMessage.locator('[data-testid=long-text-more]').click()
    expect(await sentMessage.innerText()).toContain('worker 1204: connection reset')

    // Export (issue 28): the whole conversation as a Markdown file, from the palette.
    const download = page.waitForEvent('download')
    await page.keyboard.press('Control+k')
    await page.keyboard.type('export')
    await page.keyboard.press('Enter')
    const file = await download
    expect(file.suggestedFilename()).toBe('Chat-session.md')
    const md = fs.readFileSync(await file.path(), 'utf8')
    expect(md).toMatch(/^# Chat session\n/)
    expect(md).toContain('## You · ')
    expect(md).toContain('worker 1204: connection reset')
    expect(md).toContain('It fails at line 1204.')
    expect(await chip.count()).toBe(0)
  })
})

describe('the offline demo', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('demo', { script: 'agents: {}\n', model: 'demo/demo' })
  }, 120_000)
  afterAll(async () => s?.close())

  it("shows the subagents' results as compact blocks, never raw <task_result> tags", async () => {
    const { page } = s
    await page.waitForSelector('[data-testid=first-run]') // the workspace is open and its (empty) list loaded
    await page.click('[data-testid=demo-prompt]')
    // The demo's `ls` is a read-only command: it runs without asking (issue 28), so no approval stops the demo.
    await expect.poll(() => transcriptText(page), { timeout: 30_000 }).toContain('The subagents are done')
    expect(await page.locator('[data-testid=approval-dialog]').count()).toBe(0)
    const results = page.locator('[data-testid=transcript] [data-testid=task-result]')
    await expect.poll(() => results.count()).toBe(2)
    expect((await results.evaluateAll((els) => els.map((e) => e.getAttribute('data-agent')))).sort()).toEqual(['explore', 'general'])
    expect(await transcriptText(page)).not.toMatch(/<\/?task_(result|error)/)
    // The quoted result is shown once, inside its block, not repeated after it.
    expect((await transcriptText(page)).split('a real model would also read the key files').length - 1).toBe(1)
    await shot(page, 'chat', '03-demo-results')
  })
})
