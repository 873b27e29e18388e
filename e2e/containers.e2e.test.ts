import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { podmanEngine } from '../src-main/containers/testing/podman'
import { agentFile } from './support/agents'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/** A child with isolation: container as the person sees it (issue 29): its card says where it ran; Settings checks the engine. */
const found = await podmanEngine()
const engine = 'reason' in found ? undefined : found

const script = `
agents:
  build:
    - step: 1
      text: "Handing the build to a worker in its own container."
      tools:
        - { name: task, input: { subagent_type: worker, description: "Build in a box", prompt: "Build it", isolation: container } }
    - { step: 2, text: "The worker built it in its container." }
  worker:
    - { step: 1, tools: [ { name: bash, input: { command: "echo built > built.txt && ls /sys/class/net" } } ] }
    - { step: 2, text: "Built." }
  title: [ { text: "Container demo", repeat: true } ]
`

describe.skipIf(!engine)('a container child', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('containers', {
      script,
      permissions: '{ "*": "allow" }',
      files: agentFile('worker', 'description: Builds things\nmode: subagent'),
      config: `containers:\n  engine: ${engine!.url}\n  image: ${engine!.image}\n  limits: { cpus: 1, memoryMb: 512, pids: 128 }\n`,
    })
  }, 120_000)
  afterAll(async () => s?.close())

  it('its card names the container, image and limits; its command is marked as run in the container; the run map says so; Settings shows the engine', async () => {
    const { page } = s
    await send(page, 'Build it in a container')
    await expect.poll(() => transcriptText(page), { timeout: 30_000 }).toContain('built it in its container')
    const card = page.locator('[data-testid=subagent-card][data-agent=worker]')
    const row = card.locator('[data-testid=subagent-container]')
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 10_000 }).toBe('removed')
    expect(await row.innerText()).toContain(`container · ${engine!.image}`)
    expect(await row.locator('[data-testid=container-summary]').innerText()).toBe('container removed · 1 CPU · 512 MB · 128 processes · no network')
    await card.locator('[data-testid=subagent-expand]').click()
    const badge = card.locator('[data-testid=sandbox-badge]').first()
    await expect.poll(() => badge.getAttribute('data-mode'), { timeout: 10_000 }).toBe('container')
    await shot(page, 'containers', '01-container-card')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(page, 'containers', '01-container-card-dark')
    await page.emulateMedia({ colorScheme: 'light' })

    // The run map says where it worked.
    await page.locator('[data-testid=run-map-toggle]').click()
    await expect.poll(() => page.locator('[data-testid=run-node-container]').count(), { timeout: 10_000 }).toBe(1)
    await shot(page, 'containers', '01b-run-map')
    await page.locator('[data-testid=run-map-toggle]').click()

    await page.locator('[data-testid=open-settings]').click()
    await page.locator('[data-testid=settings-nav-sandbox]').click()
    const section = page.locator('[data-testid=settings-containers]')
    await expect.poll(() => section.getAttribute('data-ok'), { timeout: 15_000 }).toBe('true')
    expect(await section.locator('[data-testid=containers-status]').innerText()).toContain('podman')
    await section.scrollIntoViewIfNeeded()
    await shot(page, 'containers', '02-settings-engine')
  })
})
