import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFile } from './support/agents'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - step: 1
      text: "Handing the edit to a worker in its own worktree."
      tools:
        - { name: task, input: { subagent_type: worker, description: "Edit the README", prompt: "Edit the README", isolation: worktree } }
    - step: 2
      text: "The worker finished; its branch is kept for review."
  worker:
    - { step: 1, tools: [ { name: edit_file, input: { path: README.md, old_string: "# Sample project", new_string: "# Sample project, edited in a worktree" } } ] }
    - { step: 2, text: "Edited the README." }
  title: [ { text: "Worktree demo", repeat: true } ]
`

describe('a worktree child', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('worktree', {
      script,
      permissions: '{ "*": "allow" }',
      files: agentFile('worker', 'description: Edits files\nmode: subagent'),
    })
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: s.workdir, stdio: 'pipe' })
    git('init', '-q', '-b', 'main')
    git('add', '-A')
    git('commit', '-q', '-m', 'start')
  }, 90_000)
  afterAll(async () => s?.close())

  it('shows its branch and what it changed; the diff opens in place; removing it removes folder and branch', async () => {
    const { page } = s
    await send(page, 'Edit the README in a worktree')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('its branch is kept for review')
    const card = page.locator('[data-testid=subagent-card][data-agent=worker]')
    const row = card.locator('[data-testid=subagent-worktree]')
    await expect.poll(() => row.getAttribute('data-state')).toBe('kept')
    const taskId = (await card.getAttribute('data-task-id'))!
    expect(await row.innerText()).toContain(`agentry/${taskId}`)
    expect(await row.locator('[data-testid=worktree-summary]').innerText()).toBe('1 file changed, 1 insertion(+), 1 deletion(-)')
    expect(await row.locator('[data-testid=worktree-open]').getAttribute('title')).toBe(path.join(s.home, 'worktrees', taskId))
    // The workspace itself is untouched.
    expect(fs.readFileSync(path.join(s.workdir, 'README.md'), 'utf8')).toBe('# Sample project\n')

    await row.locator('[data-testid=worktree-diff]').click()
    const diff = row.locator('[data-testid=worktree-diff-view]')
    await expect.poll(() => diff.innerText(), { timeout: 10_000 }).toContain('# Sample project, edited in a worktree')
    await shot(page, 'worktree', '01-branch-and-diff', 'worktree-card')

    // Apply to workspace: planned first (a three-way merge against the worktree's base), then written.
    await row.locator('[data-testid=worktree-apply]').click()
    const dialog = page.locator('[data-testid=restore-dialog]')
    await expect.poll(() => dialog.getAttribute('data-state'), { timeout: 10_000 }).toBe('ready')
    expect(await dialog.locator('[data-testid=restore-step]').allInnerTexts()).toEqual([expect.stringContaining('README.md')])
    await shot(page, 'worktree', '02-apply-plan')
    await dialog.locator('[data-testid=restore-confirm]').click()
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0)
    expect(fs.readFileSync(path.join(s.workdir, 'README.md'), 'utf8')).toBe('# Sample project, edited in a worktree\n')
    // Nothing of the person's git moved: no commit, no staged change (the apply writes the working files only).
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: s.workdir, encoding: 'utf8' })).toBe(' M README.md\n')
    expect(execFileSync('git', ['log', '--oneline'], { cwd: s.workdir, encoding: 'utf8' }).trim().split('\n')).toHaveLength(1)

    await row.locator('[data-testid=worktree-remove]').click()
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 10_000 }).toBe('removed')
    expect(fs.existsSync(path.join(s.home, 'worktrees', taskId))).toBe(false)
    expect(execFileSync('git', ['branch', '--list', `agentry/${taskId}`], { cwd: s.workdir, encoding: 'utf8' }).trim()).toBe('')
    // A reload shows the same: the removal is stored in the card.
    await page.reload()
    await expect.poll(() => page.locator('[data-testid=subagent-worktree]').getAttribute('data-state'), { timeout: 15_000 }).toBe('removed')
  })
})
