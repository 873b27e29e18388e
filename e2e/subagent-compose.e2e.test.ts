import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFile } from './support/agents'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/**
 * Where subagent features meet (issue 12), in the browser against `agentry serve`: a custom primary agent (opaque by
 * default, like every custom agent) hands work to the inspectable `general`, directly and through an opaque helper
 * of its own; and Stop while a background child runs.
 */
const composeScript = `
agents:
  lead:
    - step: 1
      text: "Delegating."
      tools:
        - { name: task, input: { subagent_type: general, description: "Check the build", prompt: "check the build" } }
        - { name: task, input: { subagent_type: scout, description: "Scout and dig", prompt: "scout then dig" } }
    - { step: 2, text: "Lead summary: the build is fine and the scout reported." }
  scout:
    - { step: 1, tools: [ { name: task, input: { subagent_type: general, description: "Dig deeper", prompt: "dig deeper" } } ] }
    - { step: 2, text: "Scout: general dug it up." }
  general:
    - { match: "check the build", text: "General: the build passes." }
    - { match: "dig deeper", text: "General: found the root cause three levels down." }
  title: [ { text: "Custom lead", repeat: true } ]
`

describe('a custom primary agent delegates to general', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('compose', {
      script: composeScript,
      files: {
        ...agentFile('lead', 'description: Leads the work\nmode: primary\ncolor: "#c77d2e"'),
        ...agentFile('scout', 'description: Scouts, then asks general\nmode: subagent'),
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('the inspectable children open from their cards, also the one started by an opaque helper', async () => {
    const { page } = s
    await page.click('[data-testid=agent-picker]')
    await page.click('[data-testid=agent-option-lead]')
    await send(page, 'get the work done')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Lead summary: the build is fine')
    const top = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-depth="1"]')
    await expect.poll(() => top.evaluateAll((els) => els.map((e) => [e.getAttribute('data-agent'), e.getAttribute('data-status')]))).toEqual([
      ['general', 'completed'],
      ['scout', 'completed'],
    ])

    // general, called by the custom primary: its card opens its own session.
    const general = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-depth="1"][data-agent=general]')
    await general.locator('[data-testid=subagent-open]').click()
    await expect.poll(() => page.locator('[data-testid=breadcrumb]').innerText()).toContain('Custom lead')
    await expect.poll(() => transcriptText(page)).toContain('General: the build passes.')
    // Its prompt was written by its caller, not the person: no Edit or Rewind on it (issue 28); Copy stays.
    const prompt = page.locator('[data-testid=transcript] [data-testid=message][data-role=user]').first()
    expect(await prompt.locator('[data-testid=copy-message]').count()).toBe(1)
    expect(await prompt.locator('[data-testid=edit-message]').count()).toBe(0)
    await page.click('[data-testid=breadcrumb-link]')
    await expect.poll(() => page.locator('[data-testid=breadcrumb]').count()).toBe(0)
    // The person's own message in the conversation keeps them.
    expect(await page.locator('[data-testid=transcript] [data-testid=message][data-role=user]').first().locator('[data-testid=edit-message]').count()).toBe(1)

    // general, called by the opaque scout: nested in scout's card, and it opens as well.
    const scout = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-depth="1"][data-agent=scout]')
    await scout.locator('[data-testid=subagent-expand]').first().click()
    const deep = scout.locator('[data-testid=subagent-card][data-agent=general][data-depth="2"]')
    await expect.poll(() => deep.getAttribute('data-status'), { timeout: 10_000 }).toBe('completed')
    await shot(page, 'compose', '01-general-under-opaque-scout')
    await deep.locator('[data-testid=subagent-open]').click()
    await expect.poll(() => transcriptText(page)).toContain('General: found the root cause three levels down.')
    await shot(page, 'compose', '02-inspectable-grandchild-open')
    // The session list nests it under the conversation it belongs to.
    expect(await page.locator('[data-testid=session-row][data-agent=general]').count()).toBe(2)
  })
})

const stopScript = `
agents:
  build:
    - step: 1
      text: "Starting a long background watch."
      tools:
        - { name: task, input: { subagent_type: watcher, description: "Watch the logs", prompt: "watch", background: true } }
    - { step: 2, text: "The watcher keeps going in the background." }
    - { match: "Automated notice", text: "A NEW TURN STARTED", repeat: true }
  watcher: [ { delayMs: 120000, text: "never" } ]
  title: [ { text: "Stop demo", repeat: true } ]
`

describe('Stop with a background child running', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('stop-background', { script: stopScript, files: agentFile('watcher', 'description: Watches in the background\nmode: subagent') })
  }, 90_000)
  afterAll(async () => s?.close())

  it('stops the child, keeps its result, and leaves the session idle with no new assistant turn', async () => {
    const { page } = s
    await send(page, 'watch the logs in the background')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('The watcher keeps going in the background.')
    await expect.poll(() => page.locator('[data-testid=task-row]').getAttribute('data-status'), { timeout: 10_000 }).toBe('running')
    await expect.poll(() => page.locator('[data-testid=session-row]').first().getAttribute('data-status')).toBe('idle')
    const assistantTurns = await page.locator('[data-testid=transcript] [data-role=assistant]').count()

    // The turn is over but a child still runs: Stop is offered, and ends it.
    await page.click('[data-testid=stop-button]')
    await expect.poll(() => page.locator('[data-testid=task-row]').getAttribute('data-status'), { timeout: 10_000 }).toBe('aborted')
    const callout = page.locator('[data-testid=synthetic-callout]')
    await expect.poll(() => callout.count(), { timeout: 10_000 }).toBe(1)
    expect(await callout.getAttribute('data-outcome')).toBe('aborted')
    expect(await callout.innerText()).toContain('stopped by the user')
    // The person's Stop is not a failure (issue 28): grey "Stopped by you" on the row and a neutral notice.
    expect(await page.locator('[data-testid=task-row]').getAttribute('data-stopped')).toBe('user')
    expect(await page.locator('[data-testid=task-row] [data-testid=task-status]').innerText()).toBe('Stopped by you')
    expect(await callout.getAttribute('data-stopped')).toBe('user')
    expect(await callout.getAttribute('class')).not.toContain('error')
    expect(await callout.locator('.callout-title').innerText()).toBe('Background task stopped by you: watcher')
    await shot(page, 'stop-background', '01-stopped')

    // Nothing reacts to it: give a wrongly started turn time to show up, then check.
    await new Promise((r) => setTimeout(r, 1500))
    expect(await transcriptText(page)).not.toContain('A NEW TURN STARTED')
    expect(await page.locator('[data-testid=transcript] [data-role=assistant]').count()).toBe(assistantTurns)
    expect(await page.locator('[data-testid=session-row]').first().getAttribute('data-status')).toBe('idle')
    expect(await page.locator('[data-testid=stop-button]').count()).toBe(0)
    expect(await page.locator('[data-testid=badge-running]').count()).toBe(0)
  })
})

describe('Settings: the small model', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('small-model', { script: 'agents:\n  "*": [ { text: "ok", repeat: true } ]\n' })
  }, 90_000)
  afterAll(async () => s?.close())

  it('shows, saves and clears it', async () => {
    const { page } = s
    await page.click('[data-testid=open-settings]')
    const field = page.locator('[data-testid=small-model]')
    await field.waitFor()
    expect(await field.inputValue()).toBe('')
    await field.fill('script/mini')
    await page.click('[data-testid=small-model-save]')
    await expect.poll(() => page.locator('[data-testid=settings-small-model]').innerText()).toContain('Small model saved.')
    await page.click('[data-testid=close-settings]')
    await page.click('[data-testid=open-settings]')
    await expect.poll(() => page.locator('[data-testid=small-model]').inputValue()).toBe('script/mini')
    // Reopened Settings start without the earlier save's message, so the wait below is for the second save.
    expect(await page.locator('[data-testid=settings-small-model]').innerText()).not.toContain('Small model saved.')
    await page.locator('[data-testid=small-model]').fill('')
    await page.click('[data-testid=small-model-save]')
    // As after the first save: closing before the write lands reopens on the old value (seen on a loaded machine).
    await expect.poll(() => page.locator('[data-testid=settings-small-model]').innerText()).toContain('Small model saved.')
    await page.click('[data-testid=close-settings]')
    await page.click('[data-testid=open-settings]')
    await expect.poll(() => page.locator('[data-testid=small-model]').inputValue()).toBe('')
  })
})
