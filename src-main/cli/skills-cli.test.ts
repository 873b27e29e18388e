import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentry, buildCli, tempDir, writeFiles } from './testing/cli-process'

/** `agentry skills` through the real CLI: the person's and the workspace's skills, their source, problems and trust. */
beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})

describe('agentry skills', () => {
  it('lists each skill with its source and file, an untrusted workspace\'s as not offered, and bad files with their reason', async () => {
    const data = tempDir('skills-cli-data')
    const home = tempDir('skills-cli-home')
    const work = tempDir('skills-cli-work')
    made.push(data, home, work)
    writeFiles(home, { '.claude/skills/pdf/SKILL.md': '---\nname: pdf\ndescription: Use when: a PDF form\n---\nbody\n' })
    writeFiles(work, {
      '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the app.\nallowed-tools: Bash(make:*)\n---\nRun make deploy.\n',
      '.opencode/skill/broken/SKILL.md': '---\nname: broken\n---\nno description\n',
    })
    const env = { HOME: home }
    const r = await agentry(['skills', '--json'], { home: data, cwd: work, env })
    expect(r.code, r.stderr).toBe(0)
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(rows.filter((x) => x.type === 'skill').map((x) => [x.name, x.source, x.offered])).toEqual([['pdf', 'person', true], ['deploy', 'workspace', false]])
    expect(rows.find((x) => x.name === 'pdf')).toMatchObject({ warnings: [{ line: 3, field: 'description' }] })
    expect(rows.find((x) => x.name === 'deploy')).toMatchObject({ allowedTools: ['Bash(make:*)'], notOffered: 'the workspace is not trusted (agentry trust)' })
    expect(rows.find((x) => x.type === 'error')).toMatchObject({ file: path.join(work, '.opencode/skill/broken/SKILL.md'), reason: 'description is missing (required: it tells the model when to use the skill)' })

    const text = await agentry(['skills'], { home: data, cwd: work, env })
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('deploy  workspace  .claude/skills/deploy/SKILL.md  (not offered: the workspace is not trusted (agentry trust))')
    expect(text.stdout).toContain('1 SKILL.md file(s) not used:\n  ✗ .opencode/skill/broken/SKILL.md:1: description is missing')
  })
})
