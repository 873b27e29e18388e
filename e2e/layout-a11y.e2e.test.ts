import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFile } from './support/agents'
import { axeViolations } from './support/axe'
import { shot } from './support/browser'
import { DIFF_BLOCK } from './support/markdown-samples'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/**
 * Every screen, in light and dark, at 1400×900 and 1024×700: axe-core finds no violation (WCAG 2.x A/AA
 * including contrast, and best practices), and the narrow layout keeps every control whole.
 */

const answer = [
  'Here is what I found in `__init__.py`:',
  '',
  '| file | lines | status |',
  '|---|---:|---|',
  '| src/app.ts | 120 | ok |',
  '| src/auth.ts | 48 | needs work |',
  '',
  '- [x] read the code',
  '- [ ] write the tests',
  '  - unit tests',
  '  - e2e tests',
  '',
  'See [the docs](https://en.wikipedia.org/wiki/Markdown_(disambiguation)) for more.',
  '',
  '```ts',
  'const re = /"[^"]*"/g // match quoted text',
  'export function quoted(s: string): string[] {',
  '  return s.match(re) ?? []',
  '}',
  '```',
  '',
  DIFF_BLOCK,
].join('\n')

const script = `
agents:
  build:
    - match: "review"
      step: 1
      text: "Planning the review."
      tools:
        - { name: todo, input: { todos: [ { content: "Read the code", status: completed }, { content: "Check the tests", status: in_progress }, { content: "Write the summary", status: pending } ] } }
        - { name: task, input: { subagent_type: helper, description: "Look at the tests", prompt: "Look at the tests" } }
    - match: "review"
      step: 2
      text: ${JSON.stringify(answer)}
    - match: "clean"
      step: 1
      text: "Cleaning up."
      tools: [ { name: bash, input: { command: "rm -rf build && ls" } } ]
    - { match: "clean", step: 2, text: "Cleaned." }
    - match: "ask"
      step: 1
      tools: [ { name: question, input: { question: "Which database should I use?", options: [ "SQLite", "PostgreSQL" ] } } ]
    - { match: "ask", step: 2, text: "Noted." }
  helper:
    - { step: 1, tools: [ { name: read_file, input: { path: README.md } } ] }
    - { step: 2, text: "The tests cover the parser; the server has none." }
  title: [ { text: "Review of the sample project", repeat: true } ]
`

type Screen = { name: string; prepare(page: Page): Promise<void>; leave?(page: Page): Promise<void> }

describe('layout and accessibility on every screen', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('layout', {
      script,
      files: agentFile('helper', 'description: Looks at one part of the project\nmode: subagent\ninspectable: true\ncolor: "#49a86b"'),
    })
  }, 120_000)
  afterAll(async () => s?.close())

  const screens: Screen[] = [
    { name: 'first-run', prepare: async () => {} },
    {
      name: 'agent-menu',
      prepare: async (page) => {
        await page.click('[data-testid=agent-picker]')
        await page.waitForSelector('[data-testid=agent-menu]')
      },
      leave: async (page) => page.keyboard.press('Escape'),
    },
    {
      name: 'transcript',
      prepare: async (page) => {
        if ((await page.locator('[data-testid=todo-list]').count()) === 0) {
          await send(page, 'review the project')
          await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('See the docs for more.')
          await page.locator('[data-testid=code-block] .hljs-regexp').first().waitFor()
        }
      },
    },
    {
      name: 'child-session',
      prepare: async (page) => {
        await page.locator('[data-testid=subagent-open]').first().click()
        await page.waitForSelector('[data-testid=breadcrumb]')
        await expect.poll(() => transcriptText(page)).toContain('the server has none')
      },
      leave: async (page) => page.click('[data-testid=breadcrumb-link]'),
    },
    {
      name: 'approval',
      prepare: async (page) => {
        await page.click('[data-testid=new-session]')
        await send(page, 'clean the build')
        await page.locator('[data-testid=approval-dialog]').waitFor({ timeout: 15_000 })
      },
      leave: async (page) => {
        await page.click('[data-testid=approval-allow-once]')
        await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Cleaned.')
      },
    },
    {
      name: 'question',
      prepare: async (page) => {
        await page.click('[data-testid=new-session]')
        await send(page, 'ask me something')
        await page.locator('[data-testid=question-dialog]').waitFor({ timeout: 15_000 })
      },
      leave: async (page) => {
        await page.locator('[data-testid=question-option]', { hasText: 'SQLite' }).click()
        await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Noted.')
      },
    },
    {
      name: 'palette',
      prepare: async (page) => {
        await page.keyboard.press('Control+k')
        await page.waitForSelector('[data-testid=palette]')
      },
      leave: async (page) => page.keyboard.press('Escape'),
    },
    {
      name: 'settings',
      prepare: async (page) => {
        await page.click('[data-testid=open-settings]')
        await page.waitForSelector('[data-testid=settings-agents]')
      },
      leave: async (page) => page.click('[data-testid=close-settings]'),
    },
    {
      name: 'provider-form',
      prepare: async (page) => {
        await page.click('[data-testid=open-settings]')
        await page.click('[data-testid=provider-add]')
        // an inline field error is part of what must stay readable
        await page.fill('[data-testid=provider-name]', 'demo')
        await page.waitForSelector('[data-testid=provider-field-error-name]')
      },
      leave: async (page) => page.click('[data-testid=close-settings]'),
    },
    {
      name: 'model-menu',
      prepare: async (page) => {
        await page.click('[data-testid=model-picker]')
        await page.waitForSelector('[data-testid=model-option]')
      },
      leave: async (page) => page.keyboard.press('Escape'),
    },
    {
      name: 'message-search',
      prepare: async (page) => {
        await page.fill('[data-testid=session-search]', 'found')
        await page.waitForSelector('[data-testid=message-hit] mark')
      },
      leave: async (page) => page.fill('[data-testid=session-search]', ''),
    },
  ]

  it.each(screens.map((sc) => [sc.name, sc] as const))('%s: no axe violations in light and dark, screenshots at 1400×900, 1024×700 and dark', async (name, screen) => {
    const { page } = s
    await page.setViewportSize({ width: 1400, height: 900 })
    await page.emulateMedia({ colorScheme: 'light' })
    await screen.prepare(page)
    await page.waitForTimeout(150)
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        const violations = await axeViolations(page)
        expect(violations, `${name} (${scheme}): ${JSON.stringify(violations, null, 1)}`).toEqual([])
        await shot(page, 'layout', `${name}-1400x900-${scheme}`)
      }
      await page.emulateMedia({ colorScheme: 'light' })
      await page.setViewportSize({ width: 1024, height: 700 })
      await page.waitForTimeout(150)
      await shot(page, 'layout', `${name}-1024x700`)
      expect(await overflowProblems(page), name).toEqual([])
    } finally {
      await page.emulateMedia({ colorScheme: 'light' })
      await page.setViewportSize({ width: 1400, height: 900 })
      await screen.leave?.(page)
    }
  })

  it('Settings › Appearance overrides the OS (and survives a reload); messages show when they were written (issue 28)', async () => {
    const { page } = s
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    await page.emulateMedia({ colorScheme: 'light' })
    const time = page.locator('[data-testid=transcript] [data-testid=message-time]').first()
    if ((await time.count()) === 0) await page.locator('[data-testid=session-row]').first().click()
    await time.waitFor()
    expect(await time.innerText()).toMatch(/\d{1,2}:\d{2}/)
    expect(await time.getAttribute('title')).toMatch(/\d{4}/)
    expect(await bg()).toBe('rgb(247, 247, 248)')
    await page.click('[data-testid=open-settings]')
    await page.locator('[data-testid=theme-dark]').check()
    expect(await bg()).toBe('rgb(23, 24, 28)')
    expect(await axeViolations(page)).toEqual([])
    await page.locator('[data-testid=settings-appearance]').scrollIntoViewIfNeeded()
    await shot(page, 'layout', 'appearance-dark-over-light-os')
    await page.reload()
    await page.waitForSelector('[data-testid=composer-input], [data-testid=settings-appearance]')
    expect(await bg()).toBe('rgb(23, 24, 28)')
    // Light over a dark OS, then back to the OS.
    await page.emulateMedia({ colorScheme: 'dark' })
    if ((await page.locator('[data-testid=settings-appearance]').count()) === 0) await page.click('[data-testid=open-settings]')
    await page.locator('[data-testid=theme-light]').check()
    expect(await bg()).toBe('rgb(247, 247, 248)')
    await page.locator('[data-testid=theme-system]').check()
    expect(await bg()).toBe('rgb(23, 24, 28)')
    await page.emulateMedia({ colorScheme: 'light' })
    await page.click('[data-testid=close-settings]')
  })
})

/** Things cut off at the narrow size: the page scrolls sideways, Send leaves the composer, stats wrap, fields stick out. */
async function overflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    const doc = document.scrollingElement
    if (doc && doc.scrollWidth > window.innerWidth + 1) problems.push(`page is ${doc.scrollWidth}px wide in a ${window.innerWidth}px window`)
    const inside = (el: Element | null, box: Element | null, what: string) => {
      if (!el || !box) return
      const a = el.getBoundingClientRect()
      const b = box.getBoundingClientRect()
      if (a.right > b.right + 0.5 || a.left < b.left - 0.5) problems.push(`${what} sticks out of its box (${Math.round(a.left)}–${Math.round(a.right)} vs ${Math.round(b.left)}–${Math.round(b.right)})`)
    }
    inside(document.querySelector('[data-testid=send-button]'), document.querySelector('[data-testid=composer]'), 'Send')
    for (const el of document.querySelectorAll('.subagent-stats')) {
      const h = el.getBoundingClientRect().height
      if (h > 30) problems.push(`subagent stats wrap (${Math.round(h)}px high)`)
    }
    for (const el of document.querySelectorAll('.session-stats')) {
      const h = el.getBoundingClientRect().height
      if (h > 30) problems.push(`session header stats wrap (${Math.round(h)}px high)`)
    }
    inside(document.querySelector('[data-testid=model-picker]'), document.querySelector('[data-testid=composer]'), 'Model picker')
    for (const el of document.querySelectorAll('.settings input, .settings select, .settings button')) {
      inside(el, el.closest('.card'), `settings control ${(el as HTMLElement).dataset.testid ?? el.tagName}`)
    }
    for (const el of document.querySelectorAll('.approval-panel button')) inside(el, el.closest('.approval-panel'), `approval button "${el.textContent}"`)
    return problems
  })
}
