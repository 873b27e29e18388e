import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - { match: "clean", step: 1, text: "Cleaning up.", tools: [ { name: bash, input: { command: "rm -rf build" } } ] }
    - { match: "clean", step: 2, text: "The hook refused it; I left build/ alone." }
  title: [ { text: "Hooks demo", repeat: true } ]
`

const BLOCK_RM = `#!/bin/bash
input=$(cat)
if echo "$input" | grep -q '"command":"rm '; then echo "rm is not allowed here: move files to .trash instead" >&2; exit 2; fi
exit 0
`

/** A Claude Code PreToolUse hook as a person sees it (issue 27): the blocked call names the hook and its reason; Settings lists it. */
describe('hooks in the UI', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('hooks', {
      script,
      files: { 'hooks/block-rm.sh': BLOCK_RM, 'build/out.txt': 'x' },
      config: 'hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - { type: command, command: "bash hooks/block-rm.sh", timeout: 10 }\n',
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it("a blocked call shows the hook's reason in the transcript", async () => {
    const { page } = s
    await send(page, 'clean the build folder')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('The hook refused it')
    const card = page.locator('[data-testid=tool-card][data-tool=bash]').last()
    expect(await card.getAttribute('data-state')).toBe('output-error')
    const line = await card.locator('.tool-error-line').innerText()
    expect(line).toContain('Blocked by PreToolUse hook `bash hooks/block-rm.sh`')
    expect(line).toContain('config.yaml): rm is not allowed here: move files to .trash instead')
    await shot(page, 'hooks', '01-blocked-call')
  })

  it('Settings › Hooks lists the hook with its source', async () => {
    const { page } = s
    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-hooks]')
    const section = page.locator('[data-testid=settings-hooks]')
    await section.waitFor()
    const row = section.locator('[data-testid=settings-hook-row]')
    await expect.poll(() => row.count()).toBe(1)
    const text = await row.innerText()
    expect(text).toContain('PreToolUse')
    expect(text).toContain('Bash')
    expect(text).toContain('bash hooks/block-rm.sh')
    expect(text).toContain('timeout 10 s')
    expect(text).toContain(`${s.home}/config.yaml`)
    await section.scrollIntoViewIfNeeded()
    await shot(page, 'hooks', '02-settings-hooks')
  })
})
