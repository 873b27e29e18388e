import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFile } from './support/agents'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - step: 1
      text: "Splitting the work across three subagents."
      tools:
        - { name: task, input: { subagent_type: scout, description: "Scout the repo", prompt: "Scout the repository" } }
        - { name: task, input: { subagent_type: researcher, description: "Research the README", prompt: "Read the README" } }
        - { name: task, input: { subagent_type: watcher, description: "Watch the logs", prompt: "Watch the logs", background: true } }
    - step: 2
      text: "Scout and researcher are done; the watcher keeps going in the background."
    - text: "The background watcher reported back."
  scout:
    - { step: 1, text: "Digging deeper.", tools: [ { name: task, input: { subagent_type: digger, description: "Dig to bedrock", prompt: "Dig" } } ] }
    - { step: 2, text: "Scout summary: the digger reached the bottom." }
  digger:
    - { text: "Dug all the way down to the bedrock layer.", chunkDelayMs: 30 }
  researcher:
    - { step: 1, delayMs: 400, tools: [ { name: read_file, input: { path: README.md } } ] }
    - { step: 2, text: "Research notes: the README describes a sample project." }
  watcher:
    - { delayMs: 2500, text: "Watched the logs: all quiet." }
  title: [ { text: "Fan-out demo", repeat: true } ]
`

describe('subagent fan-out', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('fanout', {
      script,
      files: {
        ...agentFile('scout', 'description: Scouts the repository\nmode: subagent\ncolor: "#e0883e"'),
        ...agentFile('digger', 'description: Digs into one detail\nmode: subagent\ncolor: "#8a5a44"'),
        ...agentFile('researcher', 'description: Researches with its own session\nmode: subagent\ninspectable: true\ncolor: "#49a86b"'),
        ...agentFile('watcher', 'description: Watches in the background\nmode: subagent\ncolor: "#b365d6"'),
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('shows live cards, nested transcripts, the inspectable child view and the background callout', async () => {
    const { page } = s
    await send(page, 'Fan out to your subagents please')
    const topCards = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-depth="1"]')
    await expect.poll(() => topCards.count(), { timeout: 15_000 }).toBe(3)
    await shot(page, 'fanout', '01-cards-live', 'subagents-live')
    await expect.poll(() => topCards.evaluateAll((els) => els.map((e) => e.getAttribute('data-agent')))).toEqual(['scout', 'researcher', 'watcher'])

    // Blocking children finish; the parent's step 2 text arrives.
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('the watcher keeps going in the background')
    const scout = page.locator('[data-testid=subagent-card][data-agent=scout]')
    expect(await scout.getAttribute('data-status')).toBe('completed')
    expect(await scout.innerText()).toMatch(/\d+ steps?/)

    // Opaque child expands in place, and its own child (the grandchild) expands inside it.
    await scout.locator('[data-testid=subagent-expand]').first().click()
    await expect.poll(() => scout.locator('[data-testid=subagent-transcript]').first().innerText()).toContain('Scout summary: the digger reached the bottom.')
    const digger = scout.locator('[data-testid=subagent-card][data-agent=digger]')
    await digger.locator('[data-testid=subagent-expand]').click()
    await expect.poll(() => digger.innerText()).toContain('Dug all the way down to the bedrock layer.')
    await shot(page, 'fanout', '02-nested-transcripts', 'nested-transcript')

    // The inspectable child also expands (loaded from its own session) and opens in its own view.
    const researcher = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-agent=researcher]')
    await researcher.locator('[data-testid=subagent-expand]').click()
    await expect.poll(() => researcher.innerText()).toContain('Research notes')
    await researcher.locator('[data-testid=subagent-open]').click()
    await expect.poll(() => page.locator('[data-testid=breadcrumb]').innerText()).toContain('Fan-out demo')
    await expect.poll(() => transcriptText(page)).toContain('Research notes: the README describes a sample project.')
    expect(await page.locator('[data-testid=session-row][data-depth="1"][data-agent=researcher]').count()).toBe(1)
    await shot(page, 'fanout', '03-child-session', 'child-session')
    await page.click('[data-testid=breadcrumb-link]')
    await expect.poll(() => page.locator('[data-testid=breadcrumb]').count()).toBe(0)
    await expect.poll(() => page.locator('[data-testid=transcript] [data-testid=subagent-card][data-depth="1"]').count()).toBe(3)

    // The background child's completion arrives as a callout, and the tasks panel shows it done.
    const callout = page.locator('[data-testid=synthetic-callout]')
    await expect.poll(() => callout.count(), { timeout: 20_000 }).toBe(1)
    expect(await callout.innerText()).toContain('watcher')
    expect(await callout.innerText()).toContain('Watched the logs: all quiet.')
    await expect.poll(() => page.locator('[data-testid=task-row]').getAttribute('data-status')).toBe('completed')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('The background watcher reported back.')
    await shot(page, 'fanout', '04-background-callout', 'background-callout')
  })
})
