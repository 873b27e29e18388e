import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, toolParts, waitFor, type Harness, type HarnessOptions } from '../testing/harness'

/**
 * Claude Code hooks in real runs (issue 27): the scripted model calls tools, hook scripts run in the sandbox with the
 * workspace as cwd, and what they say reaches the model as the call's result.
 */
const BLOCK_RM = `#!/bin/bash
input=$(cat)
if echo "$input" | grep -q '"command":"rm '; then echo "rm is not allowed here: move files to .trash instead" >&2; exit 2; fi
exit 0
`

let home: string
let savedHome: string | undefined
let h: Harness | undefined

beforeEach(() => {
  savedHome = process.env.HOME
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-hooks-home-'))
  process.env.HOME = home
})
afterEach(async () => {
  await h?.close()
  h = undefined
  process.env.HOME = savedHome
  fs.rmSync(home, { recursive: true, force: true })
})

function personHooks(hooks: Record<string, unknown>): void {
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true })
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ hooks }))
}
const cmd = (command: string, timeout?: number) => ({ hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] })
const bashCall = (command: string) => ({ name: 'bash', input: { command } })
const start = async (o: HarnessOptions) => (h = await createHarness({ headlessRun: { yes: true, allow: [] }, ...o }))
const toolResult = (r: { messages: Parameters<typeof toolParts>[0] }, i = 0) => {
  const part = toolParts(r.messages)[i]
  return String(part?.data.error ?? part?.data.output ?? '')
}

describe('hooks in runs', () => {
  it('a PreToolUse hook script blocks rm, its reason reaching the model as the call\'s error; other commands run', async () => {
    personHooks({ PreToolUse: [{ matcher: 'Bash', ...cmd('bash "$CLAUDE_PROJECT_DIR/.claude/hooks/block-rm.sh"') }] })
    const harness = await start({
      files: { '.claude/hooks/block-rm.sh': BLOCK_RM, 'build/x.txt': 'x' },
      script: { agents: { build: [{ tools: [bashCall('rm -rf build'), bashCall('echo still-here')] }, { text: 'done' }] } },
    })
    const r = await harness.run('clean up')
    expect(toolResult(r, 0)).toMatch(/^Blocked by PreToolUse hook `bash "\$CLAUDE_PROJECT_DIR\/.claude\/hooks\/block-rm.sh"` \(~\/.claude\/settings.json\): rm is not allowed here/)
    expect(toolParts(r.messages)[0]?.toolState).toBe('output-error')
    expect(fs.existsSync(path.join(harness.workdir, 'build/x.txt'))).toBe(true)
    expect(toolResult(r, 1)).toContain('still-here')
  }, 30_000)

  it('a hook that hangs is stopped at its timeout and the call proceeds with a notice', async () => {
    personHooks({ PreToolUse: [{ matcher: '*', ...cmd('sleep 30', 1) }] })
    const harness = await start({ script: { agents: { build: [{ tools: [bashCall('echo ran')] }, { text: 'done' }] } } })
    const started = Date.now()
    const r = await harness.run('go')
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(toolResult(r)).toContain('ran')
    expect(toolResult(r)).toContain('— notice: timed out after 1 s and was stopped; it was skipped]')
  }, 30_000)

  it("a workspace's hook does not run before the workspace is trusted, and does after", async () => {
    const harness = await start({
      files: { '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: [cmd('touch "$CLAUDE_PROJECT_DIR/hook-ran"')] } }) },
      script: { agents: { build: [{ tools: [bashCall('echo one')], repeat: true, step: 1 }, { text: 'done', repeat: true, step: 2 }] } },
    })
    const marker = path.join(harness.workdir, 'hook-ran')
    await harness.run('first')
    expect(fs.existsSync(marker)).toBe(false)
    const listed = await harness.host.api.calls['hooks.list']({ workspaceRoot: harness.workdir })
    expect(listed.hooks).toEqual([expect.objectContaining({ event: 'PreToolUse', active: false, source: path.join(harness.workdir, '.claude/settings.json') })])
    await harness.host.api.calls['trust.set']({ workspaceRoot: harness.workdir, trusted: true })
    await harness.run('second')
    expect(fs.existsSync(marker)).toBe(true)
  }, 30_000)

  it("a hook's allow never lifts a rule's deny; its ask in a headless run denies", async () => {
    const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`
    const ask = `cat | grep -q needs-review && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"a person reviews this"}}' || true`
    personHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: allow }, { type: 'command', command: ask }] }] })
    const harness = await start({
      permissions: '{ "bash": { "*": "allow", "rm *": "deny" } }',
      script: { agents: { build: [{ tools: [bashCall('rm -rf src'), bashCall('echo needs-review'), bashCall('echo fine')] }, { text: 'done' }] } },
    })
    const r = await harness.run('go')
    expect(toolResult(r, 0)).toMatch(/^Permission denied: .*rm/)
    expect(toolResult(r, 1)).toMatch(/^Permission denied: PreToolUse hook `cat \| grep.*asks for approval: a person reviews this, and this run is headless/)
    expect(toolResult(r, 2)).toMatch(/^fine\n/)
  }, 30_000)

  it("a hook's ask makes the person approve a call the rules allow (reason shown, no \"always\"), even a todo", async () => {
    const ask = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"a person reviews this"}}'`
    personHooks({ PreToolUse: [{ matcher: 'Bash|TodoWrite', hooks: [{ type: 'command', command: ask }] }] })
    h = await createHarness({
      permissions: '{ "bash": "allow" }',
      script: { agents: { build: [{ tools: [bashCall('echo reviewed')] }, { tools: [{ name: 'todo', input: { todos: [] } }] }, { text: 'done' }], '*': [{ text: 'T', repeat: true }] } },
    })
    const harness = h
    const { sessionId } = await harness.run('go', { wait: false })
    for (const tool of ['bash', 'todo']) {
      const pending = () => (harness.host.store.flush(), harness.host.store.approvals.listApprovals({ status: 'pending' }))
      const approval = await waitFor(() => pending()[0])
      expect(approval).toMatchObject({ toolName: tool, alwaysSuggestions: [], arguments: { reason: expect.stringMatching(/^PreToolUse hook `echo .*` \(~\/.claude\/settings.json\) asks for approval: a person reviews this$/) } })
      await harness.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
      await waitFor(() => pending().length === 0)
    }
    await waitFor(() => harness.host.store.sessions.getSession(sessionId)?.status === 'idle')
    const parts = toolParts(harness.host.store.transcript.listMessages(sessionId))
    expect(String(parts[0]?.data.output)).toMatch(/^reviewed/)
  }, 30_000)

  it("tool_input on stdin has Claude Code's shape for Bash, Write and Edit", async () => {
    personHooks({ PreToolUse: [{ matcher: 'Bash|Write|Edit', ...cmd('cat >> .hook-stdin.log; echo >> .hook-stdin.log') }] })
    const harness = await start({
      files: { 'a.txt': 'hello world\n' },
      script: {
        agents: {
          build: [
            { tools: [{ name: 'bash', input: { command: 'echo hi', timeoutMs: 5000 } }] },
            { tools: [{ name: 'write_file', input: { path: 'b.txt', content: 'new' } }] },
            { tools: [{ name: 'edit_file', input: { path: 'a.txt', old_string: 'hello', new_string: 'bye' } }] },
            { tools: [{ name: 'read_file', input: { path: 'a.txt' } }] },
            { text: 'done' },
          ],
        },
      },
    })
    const r = await harness.run('go')
    const lines = fs.readFileSync(path.join(harness.workdir, '.hook-stdin.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    const w = harness.workdir
    expect(lines.map((l) => [l.hook_event_name, l.tool_name, l.tool_input])).toEqual([
      ['PreToolUse', 'Bash', { command: 'echo hi', timeout: 5000 }],
      ['PreToolUse', 'Write', { file_path: path.join(w, 'b.txt'), content: 'new' }],
      ['PreToolUse', 'Edit', { file_path: path.join(w, 'a.txt'), old_string: 'hello', new_string: 'bye', replace_all: false }],
    ])
    expect(lines[0]).toMatchObject({ session_id: r.sessionId, cwd: w, permission_mode: 'default', tool_use_id: expect.any(String) })
  }, 30_000)

  it('PostToolUse additionalContext and a block reason reach the model after the result', async () => {
    const context = `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember to run the linter"}}'`
    const block = `echo '{"decision":"block","reason":"the output mentions a secret"}'`
    personHooks({ PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: context }, { type: 'command', command: block }] }] })
    const harness = await start({ script: { agents: { build: [{ tools: [bashCall('echo result-text')] }, { text: 'done' }] } } })
    const r = await harness.run('go')
    const out = toolResult(r)
    expect(out).toMatch(/^result-text/)
    expect(out).toContain('PostToolUse hook `echo \'{"decision":"block"')
    expect(out).toContain('says:]\nthe output mentions a secret')
    expect(out).toContain('adds:]\nremember to run the linter')
  }, 30_000)

  it("a subagent's tool calls run the hooks too", async () => {
    personHooks({ PreToolUse: [{ matcher: 'Bash', ...cmd('bash "$CLAUDE_PROJECT_DIR/.claude/hooks/block-rm.sh"') }] })
    const harness = await start({
      files: { '.claude/hooks/block-rm.sh': BLOCK_RM },
      script: {
        agents: {
          build: [{ tools: [{ name: 'task', input: { subagent_type: 'general', description: 'clean', prompt: 'clean up' } }] }, { text: 'done' }],
          general: [{ tools: [bashCall('rm -rf build')] }, { text: 'child done' }],
        },
      },
    })
    await harness.run('go')
    const blocked = harness.events.map((e) => JSON.stringify(e.event)).find((e) => e.includes('rm is not allowed here'))
    expect(blocked).toBeDefined()
  }, 30_000)
})
