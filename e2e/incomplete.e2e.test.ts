import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/**
 * A child that stops before it finishes (issue 22): its card says "incomplete" next to its status, with why; a
 * background one's notice in the parent says it stopped before it finished — in the browser against `agentry serve`.
 */
const script = `
agents:
  build:
    - step: 1
      text: "Mapping in two ways."
      tools:
        - { name: task, input: { subagent_type: explore, description: "Map the folders", prompt: "map the folders", max_turns: 1 } }
        - { name: task, input: { subagent_type: explore, description: "Map in the background", prompt: "map in the background", max_turns: 1, background: true } }
    - { step: 2, text: "One map is partial; the other comes later." }
    - { match: "Automated notice", text: "The background map stopped early too.", repeat: true }
  explore:
    - { match: "map", step: 1, tools: [ { name: list_dir, input: {} } ], repeat: true }
    # the forced last step: the host tells it that its tool steps are used up
    - { match: "used all the tool steps", text: "Partial map: two folders so far.", repeat: true }
  title: [ { text: "Partial maps", repeat: true } ]
`

describe('a child that stops before it finishes', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('incomplete', { script, files: { 'a/x.txt': 'x', 'b/y.txt': 'y' } })
  }, 90_000)
  afterAll(async () => s?.close())

  it('shows "incomplete" on its card and in the background notice', async () => {
    const { page } = s
    await send(page, 'map the repository')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('The background map stopped early too.')
    const cards = page.locator('[data-testid=transcript] [data-testid=subagent-card]')
    await expect.poll(() => cards.count()).toBe(2)
    for (const card of await cards.all()) {
      expect(await card.getAttribute('data-status')).toBe('completed')
      const pill = card.locator('[data-testid=subagent-incomplete]')
      expect(await pill.innerText()).toBe('incomplete')
      expect(await pill.getAttribute('title')).toBe('Stopped before it finished: it used all 1 of its steps before finishing')
    }
    const callout = page.locator('[data-testid=synthetic-callout]')
    expect(await callout.locator('.callout-title').innerText()).toBe('Background task stopped before it finished: explore')
    expect(await callout.innerText()).toContain('Partial map: two folders so far.')
    await shot(page, 'incomplete', '01-cards-1400')
    await page.setViewportSize({ width: 1024, height: 700 })
    await shot(page, 'incomplete', '02-cards-1024')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(page, 'incomplete', '03-cards-dark')
  })
})
