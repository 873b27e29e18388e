/**
 * `agentry agents` on Claude Code / opencode files, and hostile YAML through the real CLI: a bad agent file is
 * listed and skipped, a bad config.yaml is a configuration error (exit 2) naming file and line, a bad script file
 * fails the run with exit 2 naming the script — never a crash, never a library's words.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aliasBomb } from '../config/testing/yaml-bombs'
import { agentry, buildCli, tempDir, writeFiles } from './testing/cli-process'

beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})

function scene(files: Record<string, string> = {}, homeFiles: Record<string, string> = {}) {
  const home = tempDir('agents-cli-home')
  const work = tempDir('agents-cli-work')
  made.push(home, work)
  writeFiles(work, files)
  writeFiles(home, { 'script.yaml': 'agents:\n  "*": [ { text: "answered", repeat: true } ]\n', ...homeFiles })
  return { home, work, run: (args: string[]) => agentry(args, { home, cwd: work, env: { AGENTRY_SCRIPT: path.join(home, 'script.yaml') } }) }
}

describe.concurrent('agentry agents', () => {
  it('--json gives each agent its source file, mode, effective model and how, tools, rules and warnings', async () => {
    const s = scene(
      {
        '.claude/agents/team/reviewer.md': '---\nname: Code Reviewer\ndescription: Reviews code\ntools: Read, Grep, WebSearch\nmodel: sonnet\ncolor: blue\n---\nReview.\n',
        '.agents/agents/.keep': '',
      },
      { 'config.yaml': 'providers:\n  anthropic: { type: anthropic }\n' },
    )
    // .agents/agents exists (empty): .claude/agents is shadowed, and said so
    let r = await s.run(['agents', '--json'])
    expect(r.code, r.stderr).toBe(0)
    let rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(rows.find((x) => x.type === 'folder' && x.status === 'shadowed')).toMatchObject({ dir: path.join(s.work, '.claude', 'agents'), files: 1, shadowedBy: path.join(s.work, '.agents', 'agents') })
    expect(rows.some((x) => x.name === 'code-reviewer')).toBe(false)

    fs.rmSync(path.join(s.work, '.agents'), { recursive: true })
    r = await s.run(['agents', '--json'])
    rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(rows.find((x) => x.name === 'code-reviewer')).toEqual({
      type: 'agent',
      name: 'code-reviewer',
      displayName: 'Code Reviewer',
      description: 'Reviews code',
      mode: 'subagent',
      maxSteps: 10,
      model: { spec: 'sonnet', ref: 'anthropic/claude-sonnet-5-5', via: 'alias', detail: 'alias "sonnet" (default models.aliases) → anthropic/claude-sonnet-5-5' },
      inspectable: false,
      caller: 'user',
      background: false,
      hidden: false,
      color: 'blue',
      source: { kind: 'project', file: path.join(s.work, '.claude', 'agents', 'team', 'reviewer.md'), format: 'claude' },
      warnings: [{ field: 'tools', line: 4, reason: 'WebSearch is not available here' }],
      tools: ['read_file', 'grep'],
      permission: [
        { tool: '*', pattern: '*', action: 'deny' },
        { tool: 'read_file', pattern: '*', action: 'allow' },
        { tool: 'grep', pattern: '*', action: 'allow' },
      ],
    })
    const text = await s.run(['agents'])
    expect(text.stdout).toMatch(/^code-reviewer\s+subagent\s+\.claude\/agents\/team\/reviewer\.md \[claude\]\s+\(Code Reviewer\)$/m)
    expect(text.stdout).toContain('    model: anthropic/claude-sonnet-5-5 — alias "sonnet" (default models.aliases) → anthropic/claude-sonnet-5-5\n    tools: read_file, grep\n    ⚠ tools (line 4): WebSearch is not available here\n')
  })
})

describe.concurrent('a YAML alias bomb or a huge file', () => {
  it('in an agent file: the file is listed with its line and skipped; runs still work', async () => {
    const s = scene({ '.agents/agents/bomb.md': `---\ndescription: boom\n${aliasBomb()}---\n` })
    const bomb = path.join(s.work, '.agents', 'agents', 'bomb.md')
    const list = await s.run(['agents'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(new RegExp(`✗ ${bomb.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: frontmatter: YAML refused at line 4:\\d+: aliases \\(\\*name\\) expand to more than 50 copies`))
    const run = await s.run(['run', '--model', 'script/x', 'hi'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('answered\n')
  })

  it.each([
    ['the data dir config.yaml', 'home'],
    ['the workspace config.yaml', 'work'],
  ])('in %s: agents and run exit 2 naming the file and the line', async (_label, where) => {
    const s = scene()
    const file = where === 'home' ? path.join(s.home, 'config.yaml') : path.join(s.work, '.agents', 'config.yaml')
    writeFiles(path.dirname(file), { [path.basename(file)]: `model: script/x\n${aliasBomb()}` })
    for (const args of [['agents'], ['run', 'hi']]) {
      const r = await s.run(args)
      expect([args[0], r.code]).toEqual([args[0], 2])
      expect(r.stderr).toContain(`${file}: YAML refused at line 3:`)
      expect(r.stderr).not.toMatch(/Excessive alias|ReferenceError|\n\s+at /)
    }
  })

  it('in a config.yaml over 1 MiB: refused unparsed, exit 2', async () => {
    const s = scene({}, { 'config.yaml': `# ${'x'.repeat(1024 * 1024)}\nmodel: script/x\n` })
    const r = await s.run(['run', 'hi'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${path.join(s.home, 'config.yaml')}: YAML refused at line 1:1: the YAML is 1,025 KiB, more than the 1,024 KiB allowed; shorten the file`)
  })

  it('in a script file: the run fails with exit 2 naming the script and the line', async () => {
    const s = scene({}, { 'script.yaml': `${aliasBomb()}agents: {}\n` })
    const r = await s.run(['run', '--model', 'script/x', 'hi'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`script ${path.join(s.home, 'script.yaml')}: YAML refused at line 2:`)
    expect(r.stderr).not.toMatch(/Excessive alias|ReferenceError/)
  })
})
