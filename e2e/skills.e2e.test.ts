import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { startScenario, type Scenario } from './support/scenario'

/** 1400×900, 1024×700 and dark (into e2e/artifacts/skills, ignored by git). */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 })
  await shot(page, 'skills', `${name}-1400`)
  await page.setViewportSize({ width: 1024, height: 700 })
  await shot(page, 'skills', `${name}-1024`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await shot(page, 'skills', `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1400, height: 900 })
}

/**
 * Settings › Skills and › Commands (issue 27): the workspace's skills and commands (waiting for trust), the person's,
 * a warned file, and a file that could not be used.
 */
describe('skills and commands in settings', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('skills', {
      script: 'agents:\n  "*": [ { text: "ok", repeat: true } ]\n',
      files: {
        '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the app to staging. Use when the user asks to deploy or ship.\nallowed-tools: Bash(make:*)\n---\nRun make deploy.\n',
        '.claude/skills/release-notes/SKILL.md': '---\nname: release-notes\ndescription: Use when: the user asks for release notes\n---\nWrite them.\n',
        '.opencode/skill/broken/SKILL.md': '---\nname: broken\n---\nno description\n',
        '.claude/commands/ship.md': '---\ndescription: Ship it\n---\nShip the branch.\n',
        '.opencode/command/ops/rollback.md': 'Roll back the last deploy.\n',
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('lists each skill with its source and whether it is offered, its warnings, and the file that could not be used', async () => {
    const { page } = s
    fs.mkdirSync(path.join(s.home, 'skills', 'changelog'), { recursive: true })
    fs.writeFileSync(path.join(s.home, 'skills', 'changelog', 'SKILL.md'), '---\nname: changelog\ndescription: Write a changelog entry from the commits since the last tag.\n---\nbody\n')
    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-skills]')
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

  it('Settings › Commands lists the built-ins and the person\'s commands (hint, description, source, agent/model/subtask), warnings, the file not loaded, and what waits for trust', async () => {
    const { page } = s
    const dir = path.join(s.home, 'commands')
    fs.mkdirSync(path.join(dir, 'git'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'review.md'), '---\ndescription: Review a branch before it is merged\nargument-hint: [branch] [focus]\nagent: plan\nmodel: haiku\nsubtask: true\n---\nReview $1.\n')
    fs.writeFileSync(path.join(dir, 'git', 'summary.md'), '---\ndescription: Summarize the commits since the last tag\nsubtask: maybe\n---\nSummarize.\n')
    fs.writeFileSync(path.join(dir, 'broken.md'), '---\ndescription: [unclosed, list\n---\nbody\n')
    fs.writeFileSync(path.join(dir, 'help.md'), 'My own help\n')
    // Settings reads the lists when it opens (and on Refresh): the files written now show.
    await page.click('[data-testid=settings-refresh]')
    const section = page.locator('[data-testid=settings-commands]')
    const row = (name: string) => section.locator(`[data-testid=settings-command-row][data-command="${name}"]`)
    await expect.poll(() => row('review').count(), { timeout: 10_000 }).toBe(1)
    const names = await section.locator('[data-testid=settings-command-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-command')))
    expect(names).toEqual(expect.arrayContaining(['help', 'compact', 'clear', 'review', 'git:summary']))
    expect(names).not.toContain('ship')
    const review = await row('review').innerText()
    expect(review).toContain('/review [branch] [focus]')
    expect(review).toContain('Review a branch before it is merged')
    expect(review).toContain('yours')
    expect(review).toContain(path.join(dir, 'review.md'))
    expect(await row('review').locator('[data-testid=command-runs-with]').innerText()).toBe('agent plan\nmodel haiku\nas a subtask')
    expect(await row('help').innerText()).toContain('built-in')
    expect(await row('git:summary').locator('[data-testid=command-warnings]').innerText()).toContain('ignored: expected')
    expect(await row('git:summary').locator('[data-testid=command-runs-with]').innerText()).toContain('the session’s agent and model')
    const errors = section.locator('[data-testid=command-load-error]')
    expect(await errors.count()).toBe(2)
    expect(await errors.allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining(`${path.join(dir, 'broken.md')}:`), expect.stringContaining('/help is a built-in command; rename the file to use it')]),
    )
    expect(await section.locator('[data-testid=commands-untrusted]').innerText()).toContain('2 workspace command files are not offered until you trust the workspace')
    // The section is taller than the window: its heading at the top.
    await section.evaluate((el) => el.scrollIntoView({ block: 'start' }))
    await shots(page, '02-settings-commands')
  })
})
