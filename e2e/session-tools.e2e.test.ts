import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFile } from './support/agents'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const first = `
agents:
  build:
    - { match: "start", step: 1, tools: [ { name: task, input: { subagent_type: helper, description: "Long job", prompt: "work slowly", background: true } } ] }
    - { match: "start", step: 2, text: "Started the helper." }
    - { match: "Automated notice", text: "Noted the helper's result.", repeat: true }
  helper:
    - { match: "work slowly", delayMs: 4000, text: "Slow work done." }
  title: [ { text: "Session tools demo", repeat: true } ]
`

/** The second prompt's script names the child, whose id is known only once it runs (the script file is re-read). */
const second = (childId: string) => `
agents:
  build:
    - { match: "nudge", step: 1, tools: [ { name: sessions_send, input: { session_id: "${childId}", message: "Also check the tests." } } ] }
    - { match: "nudge", step: 2, text: "Sent the helper a follow-up." }
    - { match: "Automated notice", text: "Noted the helper's result.", repeat: true }
  helper:
    - { match: "work slowly", delayMs: 4000, text: "Slow work done." }
    - { match: "Also check the tests", text: "Checked the tests too." }
  title: [ { text: "Session tools demo", repeat: true } ]
`

describe('sessions_send', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('session-tools', {
      script: first,
      permissions: '{ "*": "allow" }',
      files: agentFile('helper', 'description: Works in its own session\nmode: subagent\ninspectable: true'),
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('a message sent to a running inspectable child waits for its run and then appears in its view with the answer', async () => {
    const { page } = s
    await send(page, 'start the helper')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Started the helper.')
    const card = page.locator('[data-testid=transcript] [data-testid=subagent-card][data-agent=helper]')
    const childId = (await card.getAttribute('data-task-id'))!
    expect(await card.getAttribute('data-status')).toBe('running')
    const scriptFile = path.join(s.home, 'script.yaml')
    fs.writeFileSync(scriptFile, second(childId))
    const later = new Date(Date.now() + 2000)
    fs.utimesSync(scriptFile, later, later)

    await send(page, 'nudge the helper')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Sent the helper a follow-up.')
    await card.locator('[data-testid=subagent-open]').click()
    // The child's own view: its first answer, then the message the parent sent, then its answer to that.
    await expect.poll(() => transcriptText(page), { timeout: 30_000 }).toContain('Checked the tests too.')
    const text = await transcriptText(page)
    expect(text.indexOf('Slow work done.')).toBeGreaterThanOrEqual(0)
    expect(text.indexOf('Also check the tests.')).toBeGreaterThan(text.indexOf('Slow work done.'))
    expect(text.indexOf('Checked the tests too.')).toBeGreaterThan(text.indexOf('Also check the tests.'))
  })
})
