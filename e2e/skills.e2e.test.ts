import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { startScenario, type Scenario } from './support/scenario'

/** Settings › Skills (issue 27): the workspace's skills (waiting for trust), the person's, and a bad SKILL.md. */
describe('skills in settings', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('skills', {
      script: 'agents:\n  "*": [ { text: "ok", repeat: true } ]\n',
      files: {
        '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the app to staging. Use when the user asks to deploy or ship.\nallowed-tools: Bash(make:*)\n---\nRun make deploy.\n',
        '.claude/skills/release-notes/SKILL.md': '---\nname: release-notes\ndescription: Use when: the user asks for release notes\n---\nWrite them.\n',
        '.opencode/skill/broken/SKILL.md': '---\nname: broken\n---\nno description\n',
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('lists each skill with its source and whether it is offered, its warnings, and the file that could not be used', async () => {
    const { page } = s
    fs.mkdirSync(path.join(s.home, 'skills', 'changelog'), { recursive: true })
    fs.writeFileSync(path.join(s.home, 'skills', 'changelog', 'SKILL.md'), '---\nname: changelog\ndescription: Write a changelog entry from the commits since the last tag.\n---\nbody\n')
    await page.click('[data-testid=open-settings]')
    const rows = page.locator('[data-testid=settings-skill-row]')
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3)
    expect(await page.locator('[data-testid=settings-skill-row][data-skill=changelog] [data-testid=skill-offered]').innerText()).toBe('yes')
    expect(await page.locator('[data-testid=settings-skill-row][data-skill=deploy] [data-testid=skill-offered]').innerText()).toContain('not trusted')
    expect(await page.locator('[data-testid=settings-skill-row][data-skill=release-notes] [data-testid=skill-warnings]').innerText()).toContain('Quote it')
    const error = page.locator('[data-testid=skill-load-error]')
    expect(await error.innerText()).toContain('description is missing')
    await page.locator('[data-testid=settings-skills]').scrollIntoViewIfNeeded()
    await shot(page, 'skills', '01-settings-skills', 'settings-skills')
  })
})
