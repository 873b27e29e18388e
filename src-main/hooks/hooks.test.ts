import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HookProblem } from '../../src-shared'
import { claudeToolInput, claudeToolName } from './claude-tools'
import { loadHooks, matchingHooks, parseHooksSection } from './load-hooks'
import { compileMatcher } from './matcher'

const parse = (section: unknown) => {
  const problems: HookProblem[] = []
  const hooks = parseHooksSection(section, { file: '/x/settings.json', active: true }, problems)
  return { hooks, problems }
}
const group = (matcher: string | undefined, command = 'true', extra: Record<string, unknown> = {}) => ({ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command, ...extra }] })

describe('matchers (as Claude Code defines them)', () => {
  const m = (s: string | undefined, name: string) => {
    const c = compileMatcher(s)
    if (!c.ok) throw new Error(c.reason)
    return c.match(name)
  }
  it('absent, empty and * match every tool', () => {
    for (const s of [undefined, '', '*']) expect(m(s, 'Bash') && m(s, 'mcp__a__b')).toBe(true)
  })
  it('a name or names joined by | match exactly', () => {
    expect(m('Bash', 'Bash')).toBe(true)
    expect(m('Bash', 'BashOutput')).toBe(false)
    expect(m('Edit|Write', 'Write')).toBe(true)
    expect(m('Edit|Write', 'Read')).toBe(false)
  })
  it('anything else is a regular expression', () => {
    expect(m('mcp__memory__.*', 'mcp__memory__save')).toBe(true)
    expect(m('Notebook.*', 'Bash')).toBe(false)
    expect(compileMatcher('(')).toMatchObject({ ok: false, reason: expect.stringContaining('not a valid regular expression') })
  })
})

describe('hook configuration', () => {
  it('keeps events, matchers, commands and timeouts (default 60 s)', () => {
    const { hooks, problems } = parse({ PreToolUse: [group('Bash', 'a.sh', { timeout: 5 })], Stop: [group(undefined, 'b.sh')] })
    expect(problems).toEqual([])
    expect(hooks.map(({ event, matcher, command, timeoutSeconds }) => ({ event, matcher, command, timeoutSeconds }))).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', command: 'a.sh', timeoutSeconds: 5 },
      { event: 'Stop', matcher: '', command: 'b.sh', timeoutSeconds: 60 },
    ])
  })
  it('says what is wrong in one line per problem, naming the field and the fix, and keeps the rest', () => {
    const { hooks, problems } = parse({
      PreToolUse: [group('Bash', 'ok.sh'), group('(', 'x'), { matcher: 'Bash' }, group('Bash', ''), group('Bash', 'y', { timeout: -1 })],
      PostToolUse: [{ matcher: '', hooks: [{ type: 'prompt', prompt: 'is this ok?' }] }],
      preToolUse: [],
      PermissionRequest: [group('', 'notify-send hi')],
      Stop: 'nope',
    })
    expect(hooks.map((h) => h.command)).toEqual(['ok.sh'])
    expect(problems.map((p) => `${p.path}: ${p.reason}`)).toEqual([
      'hooks.PreToolUse[1].matcher: matcher "(" is not a valid regular expression (Invalid regular expression: /(/: Unterminated group); write a tool name, names joined by |, or a valid regex',
      'hooks.PreToolUse[2]: must be { "matcher": "<tool name or regex>", "hooks": [ { "type": "command", "command": "…" } ] }',
      'hooks.PreToolUse[3].hooks[0].command: is missing or empty; give the shell command to run',
      'hooks.PreToolUse[4].hooks[0].timeout: must be a positive number of seconds',
      'hooks.PostToolUse[0].hooks[0].type: "prompt" hooks do not run in Agentry; only "command" hooks do — this one is ignored',
      'hooks.preToolUse: unknown event "preToolUse"; the events are PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStart, SubagentStop, SessionStart, SessionEnd, PreCompact, Notification (names are case-sensitive)',
      'hooks.PermissionRequest: PermissionRequest hooks do not run in Agentry (approvals are decided by your rules and the approval dialog here); they are ignored',
      'hooks.Stop: must be a list of { "matcher": …, "hooks": [ … ] } groups',
    ])
  })
  it('a file that is not JSON is one problem, never a crash; a workspace file is inactive until trusted', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-hooks-'))
    fs.writeFileSync(path.join(dir, 'bad.json'), '{ "hooks": ')
    fs.writeFileSync(path.join(dir, 'ws.json'), JSON.stringify({ hooks: { PreToolUse: [group('Bash', 'guard.sh')] } }))
    fs.writeFileSync(path.join(dir, 'config.yaml'), 'model: a/b\nhooks:\n  Stop:\n    - hooks: [{ type: command, command: done.sh }]\n')
    const set = loadHooks(
      [
        { file: path.join(dir, 'bad.json'), format: 'json', workspace: false },
        { file: path.join(dir, 'config.yaml'), format: 'yaml', workspace: false },
        { file: path.join(dir, 'ws.json'), format: 'json', workspace: true },
      ],
      { trusted: false },
    )
    expect(set.problems).toEqual([{ file: path.join(dir, 'bad.json'), path: '', reason: expect.stringMatching(/^not valid JSON \(.*\); fix the file — none of its hooks run meanwhile$/) }])
    expect(set.all.map((h) => [h.command, h.active])).toEqual([['done.sh', true], ['guard.sh', false]])
    expect(matchingHooks(set, 'PreToolUse', 'Bash')).toEqual([])
    expect(matchingHooks(loadHooks([{ file: path.join(dir, 'ws.json'), format: 'json', workspace: true }], { trusted: true }), 'PreToolUse', 'Bash')).toHaveLength(1)
    fs.rmSync(dir, { recursive: true })
  })
})

describe("Claude Code's tool names and inputs", () => {
  it('maps names, and makes file paths absolute', () => {
    expect(['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'web_fetch', 'task', 'mcp__gh__search'].map(claudeToolName)).toEqual([
      'Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'WebFetch', 'Task', 'mcp__gh__search',
    ])
    expect(claudeToolInput('read_file', { path: 'src/a.ts', limit: 5 }, '/w')).toEqual({ file_path: '/w/src/a.ts', limit: 5 })
    expect(claudeToolInput('grep', { pattern: 'x', include: '*.ts' }, '/w')).toEqual({ pattern: 'x', glob: '*.ts' })
    expect(claudeToolInput('task', { description: 'd', prompt: 'p', subagent_type: 'explore' }, '/w')).toEqual({ description: 'd', prompt: 'p', subagent_type: 'explore' })
  })
})
