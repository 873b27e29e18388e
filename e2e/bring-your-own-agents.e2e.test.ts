import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, type Scenario } from './support/scenario'

/** Claude Code agent files as a new user brings them: listed with what they mean here, problems on the main screen. */
describe('bring your own agents', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('byo-agents', {
      script: 'agents:\n  "*": [ { text: "Docs are done.", repeat: true } ]\n  title: [ { text: "Docs session", repeat: true } ]\n',
      files: {
        '.claude/agents/review/reviewer.md': '---\nname: Code Reviewer\ndescription: Reviews changes\ntools: Read, Grep, WebSearch\nmodel: claude-sonnet-4-20250514\nversion: 1.2\n---\nYou review code.\n',
        // Truly broken (an unclosed list): an unquoted ": " alone now loads, with a warning (issue 27).
        '.claude/agents/broken.md': '---\nname: broken\ndescription: [Use it for everything\n---\nBroken.\n',
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('shows a badge on the main screen that opens Settings at the agents', async () => {
    const { page } = s
    const badge = page.locator('[data-testid=agent-issues-badge]')
    await expect.poll(() => badge.count(), { timeout: 10_000 }).toBe(1)
    expect(await badge.innerText()).toMatch(/1 agent file not loaded, 1 with warnings/)
    await shot(page, 'byo-agents', '01-badge')
    await badge.click()
    await page.waitForSelector('[data-testid=settings-agents]')
  })

  it('lists each agent with its source, model, tools and warnings, and the file that did not load with its line', async () => {
    const { page } = s
    const row = page.locator('[data-testid=settings-agent-row][data-agent=code-reviewer]')
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1)
    expect(await row.innerText()).toContain('Code Reviewer')
    expect(await row.locator('[data-testid=agent-source]').innerText()).toMatch(/project · claude\s+.*\.claude\/agents\/review\/reviewer\.md/)
    expect(await row.locator('[data-testid=agent-model]').innerText()).toMatch(/inherit\s+claude-sonnet-4-20250514 · unresolved/)
    expect(await row.locator('[data-testid=agent-tools]').innerText()).toBe('read_file, grep')
    expect(await row.locator('[data-testid=agent-warning-count]').innerText()).toBe('⚠ 3')
    expect(await row.locator('td').nth(1).innerText()).toBe('subagent')
    await row.click()
    const details = page.locator('[data-testid=agent-details][data-agent=code-reviewer]')
    const warnings = await details.locator('[data-testid=agent-warnings]').innerText()
    expect(warnings).toContain('WebSearch is not available here')
    expect(warnings).toMatch(/version \(line 6\): not an agent setting here; ignored/)
    expect(warnings).toMatch(/model: .*no "anthropic" provider is configured: runs on the inherited model instead/)
    expect(await details.locator('[data-testid=agent-rules]').innerText()).toMatch(/\* → deny\s+read_file → allow\s+grep → allow/)
    const error = page.locator('[data-testid=agent-load-error]')
    expect(await error.innerText()).toMatch(/broken\.md:\d+[\s\S]*YAML syntax error at line \d+/)
    await shot(page, 'byo-agents', '02-settings-agents', 'agent-files')
  })

  it('the New agent form writes a normal .md file that loads and appears in the agent picker', async () => {
    const { page } = s
    await page.click('[data-testid=new-agent]')
    await page.fill('[data-testid=new-agent-name]', 'Docs Writer')
    await page.fill('[data-testid=new-agent-description]', 'Writes the docs: README and guides')
    await page.selectOption('[data-testid=new-agent-mode]', 'primary')
    await page.uncheck('[data-testid=new-agent-tool-bash]')
    await page.fill('[data-testid=new-agent-prompt]', 'You write documentation.')
    await shot(page, 'byo-agents', '03-new-agent-form', 'new-agent-form')
    await page.click('[data-testid=new-agent-save]')
    const created = page.locator('[data-testid=agent-created]')
    await expect.poll(() => created.count(), { timeout: 10_000 }).toBe(1)
    // Only .claude/agents exists, so the file goes there (creating .agents/agents would hide the others).
    const file = path.join(s.workdir, '.claude', 'agents', 'docs-writer.md')
    expect(await created.innerText()).toContain(file)
    expect(fs.readFileSync(file, 'utf8')).toBe(
      '---\nname: Docs Writer\ndescription: "Writes the docs: README and guides"\nmode: primary\ntools: read_file, write_file, edit_file, list_dir, glob, grep, web_fetch, todo, question, task\n---\nYou write documentation.\n',
    )
    const row = page.locator('[data-testid=settings-agent-row][data-agent=docs-writer]')
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.locator('[data-testid=agent-tools]').innerText()).not.toContain('bash')

    // Saving again under the same name never overwrites the file.
    await page.click('[data-testid=new-agent]')
    await page.fill('[data-testid=new-agent-name]', 'docs-writer')
    await page.fill('[data-testid=new-agent-description]', 'Another one')
    await page.click('[data-testid=new-agent-save]')
    await expect.poll(() => page.locator('[data-testid=new-agent-error]').count()).toBe(1)
    expect(await page.locator('[data-testid=new-agent-error]').innerText()).toMatch(/already exists/)
    expect(fs.readFileSync(file, 'utf8')).toContain('You write documentation.')

    await page.click('[data-testid=close-settings]')
    await page.click('[data-testid=agent-picker]')
    const option = page.locator('[data-testid=agent-option-docs-writer]')
    await expect.poll(() => option.count()).toBe(1)
    expect(await option.innerText()).toContain('Writes the docs')
    await option.click()
    await send(page, 'write the docs')
    await expect.poll(() => page.locator('[data-testid=transcript]').innerText(), { timeout: 15_000 }).toContain('Docs are done.')
    await shot(page, 'byo-agents', '04-new-agent-used')
  })
})
