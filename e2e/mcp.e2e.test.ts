import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from './support/axe'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const everything = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url))

const script = `
agents:
  build:
    - { step: 1, text: "Asking the server.", tools: [ { name: mcp__everything__echo, input: { message: "hello from the browser" } } ] }
    - { step: 2, text: "The server answered." }
  title: [ { text: "MCP demo", repeat: true } ]
`

describe('MCP servers in the UI (server-everything, the daemon, Chromium)', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('mcp', {
      script,
      config: `mcp:\n  everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio] }\n`,
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('Settings shows the server (not started until needed), starts it, and lists its tools; no axe violations', async () => {
    const { page } = s
    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-mcp]')
    const row = page.locator('[data-testid=mcp-server][data-name=everything]')
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('idle')
    expect(await row.innerText()).toMatch(/configured in .*config\.yaml/)
    await row.locator('[data-testid=mcp-start]').click()
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('running')
    await row.locator('[data-testid=mcp-tools] summary').click()
    const tools = await row.locator('[data-testid=mcp-tool] code').allInnerTexts()
    expect(tools).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']))
    expect(await row.locator('[data-testid=mcp-status]').innerText()).toBe('running')
    await row.scrollIntoViewIfNeeded()
    await shot(page, 'mcp', '01-settings-running')
    expect(await axeViolations(page)).toEqual([])
    await page.click('[data-testid=close-settings]')
  })

  it('a call asks first; the approval names the server and the tool; the card shows the server', async () => {
    const { page } = s
    await send(page, 'echo through MCP')
    const dialog = page.locator('[data-testid=approval-dialog]')
    await dialog.waitFor({ timeout: 20_000 })
    expect(await page.locator('[data-testid=approval-mcp]').innerText()).toBe('Allow echo from the MCP server everything?')
    expect(await dialog.innerText()).toContain('hello from the browser')
    await shot(page, 'mcp', '02-approval')
    expect(await axeViolations(page)).toEqual([])
    await page.click('[data-testid=approval-allow-once]')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('The server answered.')
    const card = page.locator('[data-testid=tool-card][data-tool=mcp__everything__echo]')
    expect(await card.getAttribute('data-state')).toBe('output-available')
    expect(await card.locator('[data-testid=tool-server]').innerText()).toBe('MCP · everything')
    await card.locator('.tool-head').click()
    expect(await card.locator('[data-testid=tool-output]').innerText()).toBe('Echo: hello from the browser')
  })
})
