import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { agentFile as agent } from './support/agents'
import { send, startScenario, type Scenario } from './support/scenario'

const script = `
agents:
  reviewer: [ { text: "Reviewed the change.", repeat: true } ]
  docs: [ { text: "Docs written.", repeat: true } ]
  title:
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
})
