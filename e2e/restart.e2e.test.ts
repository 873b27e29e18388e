import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - { text: "Running a long command.", tools: [ { name: bash, input: { command: "sleep 30" } } ] }
  title: [ { text: "Restart demo", repeat: true } ]
`

describe('daemon restart mid-run', () => {
  let s: Scenario
  beforeAll(async () => {
    // The person allows bash so the run is busy in a tool when the host dies (a workspace file could not loosen it).
    s = await startScenario('restart', { script, permissions: '{ "*": "ask", "bash": "allow" }\n' })
  }, 90_000)
  afterAll(async () => s?.close())

  it('reconnects to the restarted host and shows the orphan cleanup, nothing stuck running', async () => {
    const { page } = s
    await send(page, 'run the long command')
    const card = page.locator('[data-testid=tool-card][data-tool=bash]')
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 15_000 }).toBe('input-available')
    await expect.poll(() => page.locator('[data-testid=badge-running]').count()).toBe(1)
    const urlBefore = page.url()

    // kill -9, then the daemon comes back on the same port with the same token (agentry serve --token)
    await s.restartDaemon({ kill: true, keepToken: true })
    await shot(page, 'restart', '01-host-gone')

    // No reload, no navigation: the page reconnects by itself and catches up from its last seq.
    expect(page.url()).toBe(urlBefore)
    await expect.poll(() => page.getAttribute('[data-testid=connection-state]', 'class'), { timeout: 15_000 }).toContain('conn-open')
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 15_000 }).toBe('output-error')
    await card.locator('.tool-head').click()
    await expect.poll(() => card.innerText()).toMatch(/host restart/i)
    expect(await page.locator('[data-testid=badge-running]').count()).toBe(0)
    expect(await page.locator('[data-testid=stop-button]').count()).toBe(0)
    expect(await transcriptText(page)).toContain('Running a long command.')
    await shot(page, 'restart', '02-after-restart', 'restart-cleanup')
  })

  it('with the host down, Enter says so and keeps the message; once it is back, Enter sends it (issue 28)', async () => {
    const { page } = s
    const resume = await s.pauseDaemon()
    await expect.poll(() => page.getAttribute('[data-testid=connection-state]', 'class'), { timeout: 15_000 }).not.toContain('conn-open')
    await send(page, 'are you there?')
    const error = page.locator('[data-testid=composer-error]')
    await expect.poll(() => error.count(), { timeout: 5_000 }).toBe(1)
    expect(await error.innerText()).toContain('Not connected to the Agentry host right now. Your message is kept in the box.')
    expect(await page.inputValue('[data-testid=composer-input]')).toBe('are you there?')
    await shot(page, 'restart', '02b-send-while-down')
    await resume()
    await expect.poll(() => page.getAttribute('[data-testid=connection-state]', 'class'), { timeout: 15_000 }).toContain('conn-open')
    await page.press('[data-testid=composer-input]', 'Enter')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('are you there?')
    expect(await page.inputValue('[data-testid=composer-input]')).toBe('')
    await page.click('[data-testid=stop-button]')
  })
})

const askScript = `
agents:
  build:
    - { step: 1, text: "I need to write a file.", tools: [ { name: bash, input: { command: "echo hello > greeting.txt" } } ] }
    - { step: 2, text: "Wrote the greeting after the restart." }
  title: [ { text: "Approval across a restart", repeat: true } ]
`

describe('daemon restart while an approval waits', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('restart-approval', { script: askScript })
  }, 90_000)
  afterAll(async () => s?.close())

  it('the dialog comes back after the restart and answering it finishes the run', async () => {
    const { page } = s
    await send(page, 'write the greeting')
    await page.locator('[data-testid=approval-dialog]').waitFor({ timeout: 15_000 })
    await s.restartDaemon({ kill: true, keepToken: true })
    // same page, reconnected: the approval is still there, the transcript explains what happened
    await expect.poll(() => page.getAttribute('[data-testid=connection-state]', 'class'), { timeout: 15_000 }).toContain('conn-open')
    const dialog = page.locator('[data-testid=approval-dialog]')
    await dialog.waitFor({ timeout: 15_000 })
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toMatch(/still waiting for your approval/)
    await shot(page, 'restart', '03-approval-survives', 'restart-approval')
    await page.click('[data-testid=approval-allow-once]')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Wrote the greeting after the restart.')
    // The session turns idle a moment after the last words: the turn's after-checkpoint is taken first (issue 24).
    await expect.poll(() => page.locator('[data-testid=badge-running]').count(), { timeout: 10_000 }).toBe(0)
  })
})

describe('daemon restart with a new token', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('restart-token', { script: 'agents:\n  build: [ { text: "Hello.", repeat: true } ]\n  title: [ { text: "Token demo", repeat: true } ]\n' })
  }, 90_000)
  afterAll(async () => s?.close())

  it('the open tab says its token is no longer valid and how to reopen, instead of reconnecting forever', async () => {
    const { page } = s
    await send(page, 'hi')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Hello.')
    const before = new URL(s.daemon.url).searchParams.get('token')
    const restarted = await s.restartDaemon()
    expect(new URL(restarted.url).searchParams.get('token')).not.toBe(before)
    const banner = page.locator('[data-testid=token-refused]')
    await banner.waitFor({ timeout: 15_000 })
    expect(await banner.innerText()).toMatch(/new access token/)
    expect(await banner.innerText()).toContain('--token')
    expect(await page.locator('[data-testid=connection-state]').innerText()).toBe('Access token no longer valid')
    // What was on screen stays readable.
    expect(await transcriptText(page)).toContain('Hello.')
    await shot(page, 'restart', '04-new-token')
    // Opening the new URL works.
    await page.goto(restarted.url)
    await expect.poll(() => page.getAttribute('[data-testid=connection-state]', 'class'), { timeout: 15_000 }).toContain('conn-open')
    expect(await banner.count()).toBe(0)
  })
})

