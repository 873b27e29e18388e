import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MessageWithParts } from '../../src-shared'
import { createHost } from '../host'
import { createHarness, toolParts, waitFor, type Harness, type HarnessOptions } from '../testing/harness'

/**
 * The hook events beyond the tool and turn ones (issue 27): PostToolUseFailure, PreCompact, SessionStart's other
 * sources, SessionEnd, Notification, and `continue: false` ending a run — real hook scripts, real runs of the
 * scripted model.
 */
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
const cmd = (command: string, matcher?: string, timeout?: number) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }]
/** A hook that appends its stdin (one JSON line) to `file` in the workspace. */
const logTo = (file: string) => `cat >> ${file}; echo >> ${file}`
const start = async (o: HarnessOptions) => (h = await createHarness({ headlessRun: { yes: true, allow: [] }, ...o }))
const text = (m: MessageWithParts) => m.parts.map((p) => String(p.data.text ?? '')).join('')
const lines = (file: string) =>
  fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
    : []
const toolResult = (messages: MessageWithParts[], i = 0) => {
  const part = toolParts(messages)[i]
  return String(part?.data.error ?? part?.data.output ?? '')
}
const hookNotices = (messages: MessageWithParts[]) => messages.filter((m) => m.metadata.notice === 'hook').map(text)
const STOP = (reason: string) => `echo '{"continue":false,"stopReason":"${reason}"}'`

describe('PostToolUseFailure', () => {
  it('runs after a failed call only (PostToolUse after a success only); what it adds follows the error the model reads', async () => {
    const context = `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"the file may be under docs/"}}'`
    personHooks({
      PostToolUseFailure: [{ matcher: 'Read', hooks: [{ type: 'command', command: logTo('.failure.log') }, { type: 'command', command: context }] }],
      PostToolUse: cmd(logTo('.success.log')),
    })
    const harness = await start({
      files: { 'here.txt': 'present\n' },
      script: { agents: { build: [{ tools: [{ name: 'read_file', input: { path: 'missing.txt' } }, { name: 'read_file', input: { path: 'here.txt' } }] }, { text: 'done' }] } },
    })
    const r = await harness.run('read')
    const failed = toolResult(r.messages, 0)
    expect(toolParts(r.messages)[0]?.toolState).toBe('output-error')
    expect(failed).toMatch(/missing\.txt/)
    expect(failed).toMatch(/\n\n\[PostToolUseFailure hook `echo .*` \(~\/.claude\/settings.json\) adds:\]\nthe file may be under docs\/$/)
    expect(toolResult(r.messages, 1)).not.toContain('PostToolUseFailure')
    const w = harness.workdir
    const failures = lines(path.join(w, '.failure.log'))
    expect(failures).toEqual([
      expect.objectContaining({ hook_event_name: 'PostToolUseFailure', tool_name: 'Read', tool_input: { file_path: path.join(w, 'missing.txt') }, tool_use_id: expect.any(String), is_interrupt: false }),
    ])
    expect(String(failures[0]?.error)).toContain('missing.txt')
    expect(lines(path.join(w, '.success.log')).map((l) => [l.hook_event_name, (l.tool_input as { file_path: string }).file_path])).toEqual([['PostToolUse', path.join(w, 'here.txt')]])
  }, 30_000)
})

describe('continue: false', () => {
  it('a PostToolUse hook ends the turn after the call: no further request, stopReason shown to the person, never to the model', async () => {
    personHooks({ PostToolUse: cmd(STOP('the tests are red'), 'Bash') })
    const harness = await start({ script: { agents: { build: [{ tools: [{ name: 'bash', input: { command: 'echo ran' } }] }, { text: 'went on' }] } } })
    const r = await harness.run('go')
    expect(r.messages.some((m) => m.role === 'assistant' && text(m) === 'went on')).toBe(false)
    expect(toolResult(r.messages)).toMatch(/^ran\n/)
    expect(toolResult(r.messages)).not.toContain('the tests are red')
    expect(hookNotices(r.messages)).toEqual([expect.stringMatching(/^Stopped by PostToolUse hook `echo .*` \(~\/.claude\/settings.json\): the tests are red$/)])
    expect(r.final?.finishReason).toBe('stop')
  }, 30_000)

  it('a PreToolUse hook blocks the call and ends the turn', async () => {
    personHooks({ PreToolUse: cmd(STOP('frozen for the release'), 'Bash') })
    const harness = await start({ files: { 'keep.txt': 'x' }, script: { agents: { build: [{ tools: [{ name: 'bash', input: { command: 'rm keep.txt' } }] }, { text: 'went on' }] } } })
    const r = await harness.run('go')
    expect(fs.existsSync(path.join(harness.workdir, 'keep.txt'))).toBe(true)
    expect(toolResult(r.messages)).toMatch(/^Blocked by PreToolUse hook .*: frozen for the release$/)
    expect(r.messages.some((m) => text(m) === 'went on')).toBe(false)
    expect(hookNotices(r.messages)).toEqual([expect.stringMatching(/^Stopped by PreToolUse hook .*: frozen for the release$/)])
  }, 30_000)

  it("a subagent's hook stops only that subagent: its parent reads the task's result and goes on", async () => {
    personHooks({ PostToolUse: cmd(STOP('child must stop'), 'Bash') })
    const harness = await start({
      script: {
        agents: {
          build: [{ tools: [{ name: 'task', input: { subagent_type: 'general', description: 'look', prompt: 'look around' } }] }, { text: 'parent went on' }],
          general: [{ tools: [{ name: 'bash', input: { command: 'echo child-ran' } }] }, { text: 'child went on' }],
        },
      },
    })
    const r = await harness.run('go')
    expect(r.final?.text).toBe('parent went on')
    const events = harness.events.map((e) => JSON.stringify(e.event))
    expect(events.some((e) => e.includes('Stopped by PostToolUse hook') && e.includes('child must stop'))).toBe(true)
    expect(events.some((e) => e.includes('child went on'))).toBe(false)
  }, 30_000)

  it('a Stop hook ends the turn even with a reason to go on; a SessionStart hook ends it before the first request', async () => {
    personHooks({ Stop: cmd(`echo '{"decision":"block","reason":"keep going","continue":false,"stopReason":"enough for today"}'`) })
    const harness = await start({ script: { agents: { build: [{ text: 'first', repeat: true }] } } })
    const r = await harness.run('go')
    expect(r.messages.map((m) => (m.metadata.hook ? 'hook' : m.metadata.notice ? 'notice' : m.role))).toEqual(['user', 'assistant', 'notice'])
    expect(hookNotices(r.messages)).toEqual([expect.stringMatching(/^Stopped by Stop hook .*: enough for today$/)])

    personHooks({ SessionStart: cmd(STOP('no sessions on Fridays'), 'startup') })
    const second = await harness.run('hello')
    expect(second.messages.filter((m) => m.role === 'assistant' && !m.metadata.notice)).toEqual([])
    expect(hookNotices(second.messages)).toEqual([expect.stringMatching(/^Stopped by SessionStart hook .*: no sessions on Fridays$/)])
  }, 30_000)
})

describe('PreCompact', () => {
  const script = (extra: Record<string, unknown> = {}) => ({ agents: { build: [{ text: 'answer', repeat: true }], compaction: [{ text: 'SUMMARY', repeat: true }], title: [{ text: 't', repeat: true }], ...extra } })

  it('a hook blocks /compact (the person is told why); its stdin has trigger manual and the instructions typed', async () => {
    const guard = `cat > .precompact.json; grep -q keep-all .precompact.json && { echo "the transcript is under review" >&2; exit 2; } || true`
    personHooks({ PreCompact: cmd(guard, 'manual') })
    const harness = await start({ script: script() })
    const first = await harness.run('one')
    for (const t of ['two', 'three', 'four']) await harness.run(t, { sessionId: first.sessionId })
    const blocked = await harness.run('/compact keep-all decisions', { sessionId: first.sessionId })
    expect(blocked.messages.some((m) => m.metadata.compaction)).toBe(false)
    expect(text(blocked.messages.at(-1) as MessageWithParts)).toMatch(/^Not compacted: PreCompact hook `cat > .precompact.json.*` \(~\/.claude\/settings.json\) blocked it: the transcript is under review$/)
    expect(JSON.parse(fs.readFileSync(path.join(harness.workdir, '.precompact.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'keep-all decisions' })
    const done = await harness.run('/compact', { sessionId: first.sessionId })
    expect(done.messages.some((m) => m.metadata.compaction)).toBe(true)
  }, 30_000)

  it('an automatic compaction runs its hooks (trigger auto) and cannot be blocked: the block is said, the compaction done', async () => {
    const long = 'x'.repeat(400)
    personHooks({ PreCompact: cmd(`cat > .precompact.json; echo "please do not" >&2; exit 2`, 'auto') })
    const harness = await start({ config: { providers: { script: { type: 'script', models: { test: { contextWindow: 600 } } } } }, script: script({ build: [{ text: `answer ${long}`, repeat: true }] }) })
    const r = await harness.run(`turn 1 ${long}`)
    for (let i = 2; i <= 4; i++) await harness.run(`turn ${i} ${long}`, { sessionId: r.sessionId })
    const messages = harness.host.store.transcript.listMessages(r.sessionId)
    expect(messages.some((m) => m.metadata.compaction)).toBe(true)
    expect(hookNotices(messages)[0]).toMatch(/^Compacted anyway: the conversation no longer fits the model's context, and an automatic compaction cannot be blocked\. PreCompact hook .* blocked it: please do not$/)
    expect(JSON.parse(fs.readFileSync(path.join(harness.workdir, '.precompact.json'), 'utf8'))).toMatchObject({ trigger: 'auto', custom_instructions: '' })
  }, 30_000)
})

describe('SessionStart sources', () => {
  it('compact: the prompt after a /compact runs the compact hooks (not startup), once', async () => {
    personHooks({
      SessionStart: [
        { matcher: 'startup', hooks: [{ type: 'command', command: 'echo "fresh start"' }] },
        { matcher: 'compact', hooks: [{ type: 'command', command: 'echo "re-read CONTRIBUTING.md"' }] },
      ],
    })
    const harness = await start({ script: { agents: { build: [{ match: 're-read CONTRIBUTING.md', text: 'saw it' }, { text: 'answer' }], compaction: [{ text: 'SUMMARY', repeat: true }], title: [{ text: 't', repeat: true }] } } })
    const first = await harness.run('one')
    for (const t of ['two', 'three', 'four']) await harness.run(t, { sessionId: first.sessionId })
    await harness.run('/compact', { sessionId: first.sessionId })
    const after = await harness.run('five', { sessionId: first.sessionId })
    expect(after.final?.text).toBe('saw it')
    const more = await harness.run('six', { sessionId: first.sessionId })
    const hooked = more.messages.filter((m) => m.metadata.hook).map(text)
    expect(hooked).toEqual([expect.stringMatching(/^\[SessionStart hook `echo "fresh start"`.* adds:\]\nfresh start$/), expect.stringMatching(/^\[SessionStart hook `echo "re-read CONTRIBUTING.md"`.* adds:\]\nre-read CONTRIBUTING.md$/)])
  }, 30_000)

  it('resume: the first prompt a new host process runs for a conversation that already had prompts', async () => {
    personHooks({ SessionStart: cmd(logTo('.session-start.log')) })
    const harness = await start({ script: { agents: { build: [{ text: 'answer', repeat: true }], title: [{ text: 't', repeat: true }] } } })
    const r = await harness.run('one')
    await harness.run('two', { sessionId: r.sessionId })
    await harness.host.stop()
    const host = await createHost({ dataDir: harness.dataDir, defaultWorkspace: harness.workdir, retryDelayMs: 1 })
    try {
      for (const text of ['three', 'four']) {
        await host.api.calls['messages.prompt']({ sessionId: r.sessionId, requestId: `req-${text}`, text, headless: { yes: true, allow: [] } })
        do {
          await host.runner.idle()
          await host.runs.settleAll()
        } while (host.runner.runs().length > 0)
      }
    } finally {
      await host.stop()
    }
    expect(lines(path.join(harness.workdir, '.session-start.log')).map((l) => l.source)).toEqual(['startup', 'resume'])
  }, 30_000)
})

describe('SessionEnd', () => {
  it('runs when a conversation is deleted (reason other) and, at the host stop, for each that ran (prompt_input_exit)', async () => {
    personHooks({ SessionEnd: cmd(logTo('.session-end.log')) })
    const harness = await start({ script: { agents: { build: [{ text: 'answer', repeat: true }], title: [{ text: 't', repeat: true }] } } })
    const log = path.join(harness.workdir, '.session-end.log')
    const gone = await harness.run('one')
    const kept = await harness.run('two')
    await harness.host.api.calls['sessions.delete']({ sessionId: gone.sessionId })
    await waitFor(() => lines(log).length === 1)
    expect(lines(log)).toEqual([expect.objectContaining({ hook_event_name: 'SessionEnd', session_id: gone.sessionId, reason: 'other' })])
    await harness.host.stop()
    expect(lines(log).slice(1)).toEqual([expect.objectContaining({ session_id: kept.sessionId, reason: 'prompt_input_exit' })])
  }, 30_000)

  it('a hook that hangs delays the stop no longer than its timeout', async () => {
    personHooks({ SessionEnd: cmd('touch .session-end-ran; sleep 30', undefined, 1) })
    const harness = await start({ script: { agents: { build: [{ text: 'answer', repeat: true }], title: [{ text: 't', repeat: true }] } } })
    await harness.run('one')
    const started = Date.now()
    await harness.host.stop()
    expect(Date.now() - started).toBeLessThan(8_000)
    expect(fs.existsSync(path.join(harness.workdir, '.session-end-ran'))).toBe(true)
  }, 30_000)
})

describe('Notification', () => {
  it('runs when an approval waits (permission_prompt) and when the model asks a question (elicitation_dialog), without delaying either', async () => {
    // Slow on purpose: the approval must be pending long before the hook is done.
    personHooks({ Notification: cmd(`sleep 2; ${logTo('.notification.log')}`) })
    h = await createHarness({
      permissions: '{ "bash": "ask" }',
      script: {
        agents: {
          build: [{ tools: [{ name: 'bash', input: { command: 'echo approved' } }] }, { tools: [{ name: 'question', input: { question: 'Tabs or spaces?', options: ['tabs', 'spaces'] } }] }, { text: 'done' }],
          '*': [{ text: 'T', repeat: true }],
        },
      },
    })
    const harness = h
    const { sessionId } = await harness.run('go', { wait: false })
    const pending = () => (harness.host.store.flush(), harness.host.store.approvals.listApprovals({ status: 'pending' }))
    const log = path.join(harness.workdir, '.notification.log')
    for (const kind of ['tool', 'question']) {
      const approval = await waitFor(() => pending()[0])
      expect(approval.kind).toBe(kind)
      expect(lines(log)).toHaveLength(kind === 'tool' ? 0 : 1)
      await harness.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once', ...(kind === 'question' ? { feedback: 'tabs' } : {}) })
      await waitFor(() => pending().length === 0)
      await waitFor(() => lines(log).length === (kind === 'tool' ? 1 : 2))
    }
    await waitFor(() => harness.host.store.sessions.getSession(sessionId)?.status === 'idle')
    expect(lines(log)).toEqual([
      expect.objectContaining({ hook_event_name: 'Notification', session_id: sessionId, notification_type: 'permission_prompt', message: 'Agentry needs your permission to use Bash' }),
      expect.objectContaining({ notification_type: 'elicitation_dialog', message: 'Agentry has a question for you: Tabs or spaces?' }),
    ])
  }, 30_000)
})
