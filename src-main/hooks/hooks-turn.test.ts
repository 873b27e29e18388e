import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MessageWithParts } from '../../src-shared'
import { createHarness, type Harness, type HarnessOptions } from '../testing/harness'

/** The turn's hooks (issue 27): UserPromptSubmit, SessionStart, Stop and SubagentStop in real runs of the scripted model. */
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
const cmd = (command: string) => [{ hooks: [{ type: 'command', command }] }]
const start = async (o: HarnessOptions) => (h = await createHarness({ headlessRun: { yes: true, allow: [] }, ...o }))
const text = (m: MessageWithParts) => m.parts.map((p) => String(p.data.text ?? '')).join('')

describe('turn hooks', () => {
  it('a UserPromptSubmit block keeps the prompt from the model and tells the person why', async () => {
    personHooks({ UserPromptSubmit: cmd(`cat | grep -q secret && { echo "prompts must not contain secrets" >&2; exit 2; } || true`) })
    const harness = await start({ script: { agents: { build: [{ text: 'answered', repeat: true }] } } })
    const r = await harness.run('my secret is hunter2')
    expect(r.messages.map((m) => [m.role, m.metadata.notice ?? null])).toEqual([['user', 'hook_blocked'], ['assistant', 'error']])
    expect(text(r.messages[1] as MessageWithParts)).toMatch(/^Your prompt was not sent: UserPromptSubmit hook `cat \| grep.*` \(~\/.claude\/settings.json\) blocked it: prompts must not contain secrets$/)
    const next = await harness.run('hello', { sessionId: r.sessionId })
    expect(next.messages.at(-1)?.parts.map((p) => p.data.text)).toEqual(['answered'])
  }, 30_000)

  it('a UserPromptSubmit block holds for a command whose ! line ran first: the expansion never reaches the model', async () => {
    personHooks({ UserPromptSubmit: cmd(`cat | grep -q secret && { echo "prompts must not contain secrets" >&2; exit 2; } || true`) })
    fs.mkdirSync(path.join(home, '.claude', 'commands'), { recursive: true })
    fs.writeFileSync(path.join(home, '.claude', 'commands', 'leak.md'), 'Say: !`echo hi` and the secret $ARGUMENTS')
    const harness = await start({ permissions: '{ "bash": "allow" }', script: { agents: { build: [{ text: 'answered', repeat: true }] } } })
    const r = await harness.run('/leak hunter2')
    expect(r.messages.some((m) => m.role === 'assistant' && text(m) === 'answered')).toBe(false)
    expect(text(r.messages.at(-1) as MessageWithParts)).toMatch(/^Your prompt was not sent: UserPromptSubmit hook .* blocked it: prompts must not contain secrets$/)
  }, 30_000)

  it('SessionStart and UserPromptSubmit context reaches the model, visibly', async () => {
    personHooks({
      SessionStart: cmd(`echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"this project uses pnpm"}}'`),
      UserPromptSubmit: cmd('echo "current branch: main"'),
    })
    const harness = await start({ script: { agents: { build: [{ match: 'current branch: main', text: 'saw the context' }, { text: 'no context' }] } } })
    const r = await harness.run('hi')
    const hookMessages = r.messages.filter((m) => m.metadata.hook).map(text)
    expect(hookMessages).toEqual([expect.stringMatching(/^\[SessionStart hook .* adds:\]\nthis project uses pnpm$/), expect.stringMatching(/^\[UserPromptSubmit hook `echo "current branch: main"` \(~\/.claude\/settings.json\) adds:\]\ncurrent branch: main$/)])
    expect(text(r.messages.at(-1) as MessageWithParts)).toBe('saw the context')
    // SessionStart is for a conversation's first prompt only.
    const again = await harness.run('more', { sessionId: r.sessionId })
    expect(again.messages.filter((m) => m.metadata.hook).map(text).filter((t) => t.includes('pnpm'))).toHaveLength(1)
  }, 30_000)

  it('a Stop hook sends the model back with its reason, at most 3 times a turn', async () => {
    personHooks({ Stop: cmd(`echo '{"decision":"block","reason":"run the tests first"}'`) })
    const harness = await start({ script: { agents: { build: [{ text: 'done', repeat: true }] } } })
    const r = await harness.run('go')
    const shape = r.messages.map((m) => (m.metadata.hook ? 'hook' : m.metadata.notice ? `notice` : m.role))
    expect(shape).toEqual(['user', 'assistant', 'hook', 'assistant', 'hook', 'assistant', 'hook', 'assistant', 'notice'])
    expect(text(r.messages[2] as MessageWithParts)).toMatch(/^\[Stop hook .* says:\]\nrun the tests first$/)
    expect(text(r.messages.at(-1) as MessageWithParts)).toContain('it ends here (the limit is 3)')
  }, 30_000)

  it('a Stop hook that lets the turn end (stop_hook_active on the retry) ends it after one continuation', async () => {
    personHooks({ Stop: cmd(`cat | grep -q '"stop_hook_active":true' || echo '{"decision":"block","reason":"check the diff"}'`) })
    const harness = await start({ script: { agents: { build: [{ text: 'first' }, { text: 'second' }] } } })
    const r = await harness.run('go')
    expect(r.messages.map((m) => (m.metadata.hook ? 'hook' : m.role))).toEqual(['user', 'assistant', 'hook', 'assistant'])
    expect(r.final?.text).toBe('second')
  }, 30_000)

  it('SubagentStart context and SubagentStop run for a child, under its agent type', async () => {
    personHooks({
      SubagentStart: [{ matcher: 'general', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"child rules apply"}}'` }] }],
      SubagentStop: [{ matcher: 'general', hooks: [{ type: 'command', command: 'cat > .subagent-stop.json' }] }],
    })
    const harness = await start({
      script: {
        agents: {
          build: [{ tools: [{ name: 'task', input: { subagent_type: 'general', description: 'look', prompt: 'look around' } }] }, { text: 'done' }],
          general: [{ match: 'child rules apply', text: 'child saw it' }, { text: 'child did not see it' }],
        },
      },
    })
    const r = await harness.run('go')
    const task = r.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool-task')
    expect(String(task?.data.output)).toContain('child saw it')
    const stop = JSON.parse(fs.readFileSync(path.join(harness.workdir, '.subagent-stop.json'), 'utf8')) as Record<string, unknown>
    expect(stop).toMatchObject({ hook_event_name: 'SubagentStop', agent_type: 'general', stop_hook_active: false, last_assistant_message: 'child saw it' })
  }, 30_000)
})
