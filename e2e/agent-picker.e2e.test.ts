import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { agentFile as agent } from './support/agents'
import { axeViolations } from './support/axe'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/** Later answers in the searched session, so the match sits far above the end of a virtualized transcript. */
const FILLERS = 10
const filler = (i: number) =>
  `Filler answer ${i}. ` + Array.from({ length: 5 }, (_, k) => `Paragraph ${k + 1} talks about the build, the tests and the release notes at some length, so that this answer takes a good part of the screen.`).join('\\n\\n')

const script = `
agents:
  reviewer: [ { text: "Reviewed the change.", repeat: true } ]
  docs: [ { text: "Docs written.", repeat: true } ]
  build:
    - { match: "lock notes", text: "Only the older session says the scheduler takes the lock twice.", repeat: true }
    - { match: "Please review the code and", text: "The newer session blames the **scheduler** in \`sched.ts\`.", repeat: true }
${Array.from({ length: FILLERS }, (_, i) => `    - { match: "filler ${i + 1}.", text: "${filler(i + 1)}", repeat: true }`).join('\n')}
  title:
    - { match: "lock notes", text: "Lock notes", repeat: true }
    - { match: "Please review the code and", text: "Please review the code and", repeat: true }
    - { match: "filler", text: "Filler", repeat: true }
    - { match: "review", text: "Review session", repeat: true }
    - { match: "docs", text: "Docs session", repeat: true }
    - { text: "Some session", repeat: true }
`

describe('agent picker and session filters', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('picker', {
      script,
      files: {
        ...agent('reviewer', 'description: Reviews changes carefully\nmode: primary\ncolor: "#d65c7a"'),
        ...agent('docs', 'description: Writes documentation\nmode: all\ncolor: "#3aa6a6"'),
        ...agent('helper', 'description: Helps other agents\nmode: subagent'),
        ...agent('secret', 'description: Not for people\nmode: primary\nhidden: true'),
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('offers only primary/all agents that are not hidden', async () => {
    const { page } = s
    await page.waitForSelector('[data-testid=first-run]')
    await shot(page, 'picker', '01-first-run', 'first-run')
    await page.click('[data-testid=agent-picker]')
    const names = await page.locator('[data-testid^=agent-option-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('agent-option-'.length)))
    expect(names).toEqual(expect.arrayContaining(['build', 'plan', 'reviewer', 'docs']))
    for (const hidden of ['explore', 'general', 'helper', 'secret', 'title']) expect(names).not.toContain(hidden)
    await expect.poll(() => page.locator('[data-testid=agent-option-reviewer]').innerText()).toContain('Reviews changes carefully')
    await shot(page, 'picker', '02-agent-menu', 'agent-picker')
  })

  it('sends with the picked agent, remembers it per workspace, and filters sessions by agent mode', async () => {
    const { page } = s
    await page.click('[data-testid=agent-option-reviewer]')
    await send(page, 'please review my change')
    await expect.poll(() => page.locator('[data-testid=transcript]').innerText(), { timeout: 15_000 }).toContain('Reviewed the change.')
    await expect.poll(() => page.locator('[data-testid=session-heading]').innerText(), { timeout: 10_000 }).toBe('Review session')

    await page.click('[data-testid=new-session]')
    await page.click('[data-testid=agent-picker]')
    await page.click('[data-testid=agent-option-docs]')
    await send(page, 'write the docs')
    await expect.poll(() => page.locator('[data-testid=transcript]').innerText(), { timeout: 15_000 }).toContain('Docs written.')

    await page.reload()
    await page.waitForSelector('[data-testid=session-row]')
    expect(await page.getAttribute('[data-testid=agent-picker]', 'data-agent')).toBe('docs')

    const rowAgents = () => page.locator('[data-testid=session-row]').evaluateAll((els) => els.map((e) => e.getAttribute('data-agent')))
    await expect.poll(rowAgents).toEqual(['docs', 'reviewer'])
    await page.selectOption('[data-testid=filter-mode]', 'primary')
    await expect.poll(rowAgents).toEqual(['reviewer'])
    await shot(page, 'picker', '03-mode-filter-primary', 'session-picker')
    await page.selectOption('[data-testid=filter-mode]', 'all')
    await expect.poll(rowAgents).toEqual(['docs'])
    await page.selectOption('[data-testid=filter-mode]', 'subagent')
    await expect.poll(rowAgents).toEqual([])
    await page.waitForSelector('[data-testid=session-list-empty]')
    await page.selectOption('[data-testid=filter-mode]', '')
    await page.fill('[data-testid=session-search]', 'review')
    await expect.poll(rowAgents).toEqual(['reviewer'])
  })

  it("message search (issue 28): each hit shows its own session's sentence as plain text; opening one scrolls to the match far up and highlights it", async () => {
    const { page } = s
    await page.fill('[data-testid=session-search]', '')
    await page.click('[data-testid=new-session]')
    await page.click('[data-testid=agent-picker]')
    await page.click('[data-testid=agent-option-build]')
    await send(page, 'lock notes please')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('takes the lock twice')
    const olderId = sessionOf(page)
    await page.click('[data-testid=new-session]')
    await send(page, 'Please review the code and tell me what is wrong')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('The newer session blames')
    const newerId = sessionOf(page)
    for (let i = 1; i <= FILLERS; i++) {
      await send(page, `filler ${i}.`)
      await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain(`Filler answer ${i}.`)
    }
    await expect.poll(() => page.locator('[data-testid=session-heading]').innerText(), { timeout: 10_000 }).toBe('Please review the code and')
    // The match is far up: not even rendered (the transcript is virtualized).
    expect(await transcriptText(page)).not.toContain('The newer session blames')

    await page.fill('[data-testid=session-search]', 'scheduler')
    const hitOf = (id: string) => page.locator(`[data-testid=message-hit][data-session-id="${id}"]`)
    await hitOf(newerId).waitFor({ timeout: 15_000 })
    // Its own sentence, Markdown read as text (no ** or backticks), the word marked.
    expect(await hitOf(newerId).locator('.message-hit-snippet').innerText()).toBe('The newer session blames the scheduler in sched.ts.')
    expect(await hitOf(newerId).locator('mark').innerText()).toBe('scheduler')
    expect(await hitOf(olderId).locator('.message-hit-snippet').innerText()).toBe('Only the older session says the scheduler takes the lock twice.')
    // No title contains the word, and the message hits are not followed by a "no title matches" line.
    expect(await page.locator('[data-testid=session-list-empty]').count()).toBe(0)

    // The session already open: the view goes up to the match and marks it.
    await hitOf(newerId).click()
    await expectMatchInView(page, 'The newer session blames the scheduler')
    for (const [name, size, scheme] of [
      ['04-search-match-1400', { width: 1400, height: 900 }, 'light'],
      ['05-search-match-1024', { width: 1024, height: 700 }, 'light'],
      ['06-search-match-dark', { width: 1400, height: 900 }, 'dark'],
    ] as const) {
      await page.setViewportSize(size)
      await page.emulateMedia({ colorScheme: scheme })
      await page.waitForTimeout(200)
      await shot(page, 'picker', name)
      // The marked row (its label, ring, region name) and the hits pass axe in light and dark.
      if (size.width === 1400) expect(await axeViolations(page)).toEqual([])
    }
    expect(await page.locator('[data-search-match]').count()).toBe(1)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 1360, height: 860 })

    // Another session: it opens at the match instead of at its end.
    await hitOf(olderId).click()
    await expect.poll(() => sessionOf(page)).toBe(olderId)
    await expectMatchInView(page, 'Only the older session says the scheduler')
    await shot(page, 'picker', '06b-search-match-other-session')
    // The highlight stays until the person does something else: a click clears it.
    await page.click('[data-testid=transcript]')
    await expect.poll(() => page.locator('[data-search-match]').count()).toBe(0)
    expect(await page.evaluate(() => CSS.highlights.get('search-match')?.size ?? 0)).toBe(0)

    // Words in titles and in messages: each list says which it is.
    await page.fill('[data-testid=session-search]', 'notes')
    await page.locator('[data-testid=message-hit]').first().waitFor({ timeout: 10_000 })
    await page.locator('[data-testid=titles-label]').waitFor()
    expect(await page.locator('[data-testid=session-row]').count()).toBe(1)
    await shot(page, 'picker', '07-search-titles-and-messages')

    // Nothing anywhere: one empty state, not one per group.
    await page.fill('[data-testid=session-search]', 'zzqqnothing')
    await page.locator('[data-testid=search-empty]').waitFor({ timeout: 10_000 })
    await shot(page, 'picker', '08-search-nothing')
    expect(await page.locator('[data-testid=search-empty]').innerText()).toContain('zzqqnothing')
    expect(await page.locator('[data-testid=session-list-empty]').count()).toBe(0)
    expect(await page.locator('[data-testid=message-hits]').count()).toBe(0)
    await page.fill('[data-testid=session-search]', '')
  })
})

const sessionOf = (page: Page) => decodeURIComponent(/#\/s\/(.+)$/.exec(page.url())?.[1] ?? '')

/** The matching message is on screen inside the transcript, marked (row and words), and has the focus. */
async function expectMatchInView(page: Page, text: string): Promise<void> {
  const row = page.locator('[data-search-match]')
  await row.waitFor({ timeout: 10_000 })
  await expect.poll(() => row.innerText()).toContain(text)
  await expect
    .poll(async () => {
      const [r, t] = await Promise.all([row.boundingBox(), page.locator('[data-testid=transcript]').boundingBox()])
      return !!r && !!t && r.y >= t.y - 1 && r.y < t.y + t.height - 20
    })
    .toBe(true)
  expect(await page.evaluate(() => CSS.highlights.get('search-match')?.size ?? 0)).toBeGreaterThan(0)
  expect(await page.evaluate(() => !!document.activeElement?.closest('[data-search-match]'))).toBe(true)
  expect(await row.getAttribute('aria-label')).toMatch(/search match/i)
}
