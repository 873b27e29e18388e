import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ScriptedChatResponse } from '../models/testing'
import { textOf, toolParts, waitFor } from '../testing/harness'
import { agentOfRequest, contentText, loopbackHarness, toolOf, type ChatRequest, type LoopbackHarness } from '../testing/model-requests'

/**
 * Slash commands (issue 27) end to end at a loopback model through the real provider: what the model receives for
 * `/name args`, a command's agent, a subtask, `!` lines under bash's permission gate, unknown names, `/help`, trust.
 */
let lh: LoopbackHarness | undefined
let home: string
const put = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
}
const mine = (name: string, text: string) => put(path.join(home, '.claude', 'commands', `${name}.md`), text)

beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'commands-home-')))
  vi.stubEnv('HOME', home)
})
afterEach(async () => {
  await lh?.close()
  lh = undefined
  vi.unstubAllEnvs()
  fs.rmSync(home, { recursive: true, force: true })
})

const lastUser = (r: ChatRequest) => contentText([...r.messages].reverse().find((m) => m.role === 'user')!)
const answering = (text = 'ok') => (): ScriptedChatResponse => ({ text })
const byAgent = (agent: string) => lh!.requests().filter((r) => agentOfRequest(r) === agent)

describe('a command at the model', () => {
  it('expands exactly: $ARGUMENTS, quoted positionals, an @file; the transcript keeps what was typed', async () => {
    mine('review', '---\ndescription: Review a branch\nargument-hint: [branch] [focus]\n---\nReview $1, focusing on $2.\nAll: $ARGUMENTS\nSee @src/a.ts')
    lh = await loopbackHarness(answering('reviewed'))
    put(path.join(lh.h.workdir, 'src', 'a.ts'), 'export const a = 1\n')
    const { messages } = await lh.h.run('/review main "error handling"')
    expect(lastUser(byAgent('build')[0])).toBe('Review main, focusing on error handling.\nAll: main "error handling"\nSee \n<file path="src/a.ts">\nexport const a = 1\n</file>\n')
    const user = messages.find((m) => m.role === 'user')!
    expect(user.metadata.command).toEqual({ name: 'review', args: 'main "error handling"' })
    expect(textOf(messages)).toEqual(['reviewed'])
  })

  it('an unknown /name is refused before anything is queued, with close matches; the model is never asked', async () => {
    mine('review', 'Review it')
    lh = await loopbackHarness(answering())
    const { session } = await lh.h.host.api.calls['sessions.create']({ workspaceRoot: lh.h.workdir })
    await expect(lh.h.host.api.calls['messages.prompt']({ sessionId: session.id, requestId: 'r1', text: '/reveiw x' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/^Unknown command \/reveiw\. Did you mean \/review\? \/help lists/),
    })
    expect(lh.requests()).toHaveLength(0)
    // A path is not a command: it goes to the model as text.
    await lh.h.run('/usr/bin/env is missing', { sessionId: session.id })
    expect(lastUser(byAgent('build')[0])).toBe('/usr/bin/env is missing')
  })

  it('/undo is not a prompt on the host: refused before anything is queued, naming where it works (app, editor, agentry undo)', async () => {
    mine('undo', 'Undo everything you can')
    lh = await loopbackHarness(answering())
    const { session } = await lh.h.host.api.calls['sessions.create']({ workspaceRoot: lh.h.workdir })
    // A file of the person's own named undo does not replace the built-in (it would take a prompt where an undo was meant).
    await expect(lh.h.host.api.calls['messages.prompt']({ sessionId: session.id, requestId: 'r1', text: '/undo' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: '/undo is not a prompt: use it in the Agentry app or your editor, or run `agentry undo SESSION` (it shows the plan; add --yes to do it).',
    })
    expect(lh.requests()).toHaveLength(0)
  })

  it('agent: runs the turn with that agent; model: with that model', async () => {
    mine('plan-it', '---\nagent: plan\nmodel: mock/other-model\n---\nPlan $ARGUMENTS')
    lh = await loopbackHarness(answering('planned'))
    const { messages } = await lh.h.run('/plan-it the refactor')
    const plan = byAgent('plan')
    expect(plan).toHaveLength(1)
    expect(lastUser(plan[0])).toBe('Plan the refactor')
    expect(plan[0].model).toBe('other-model')
    expect(byAgent('build')).toHaveLength(0)
    expect(messages.find((m) => m.role === 'user')?.metadata.agent).toBe('plan')
  })

  it('subtask: true runs the command as a task of its agent; the current agent is not asked', async () => {
    mine('explain', '---\nagent: general\nsubtask: true\n---\nExplain $ARGUMENTS in one line')
    lh = await loopbackHarness(answering('it adds'), { headlessRun: { yes: true, allow: [] } })
    const { messages } = await lh.h.run('/explain add.ts')
    const general = byAgent('general')
    expect(general).toHaveLength(1)
    expect(lastUser(general[0])).toContain('Explain add.ts in one line')
    expect(byAgent('build')).toHaveLength(0)
    const task = toolParts(messages).find((p) => p.type === 'tool-task')!
    expect(task.toolState).toBe('output-available')
    expect(String(task.data.output)).toContain('it adds')
  })

  it('agent: naming a subagent runs the command as its task (opencode); allowed-tools grants nothing', async () => {
    mine('probe', '---\nagent: explore\nallowed-tools: Bash(echo:*)\n---\nLook at $ARGUMENTS')
    lh = await loopbackHarness(answering('found it'))
    const { messages } = await lh.h.run('/probe the parser')
    expect(lastUser(byAgent('explore')[0])).toContain('Look at the parser')
    expect(byAgent('build')).toHaveLength(0)
    expect(toolParts(messages).find((p) => p.type === 'tool-task')?.toolState).toBe('output-available')
    const listed = await lh.h.host.api.calls['commands.list']({ workspaceRoot: lh.h.workdir })
    expect(listed.commands.find((c) => c.name === 'probe')).toMatchObject({ agent: 'explore', allowedTools: ['Bash(echo:*)'] })
  })

  it('/compact summarizes the older messages now, without a model turn of its own', async () => {
    lh = await loopbackHarness((r) => (agentOfRequest(r) === 'compaction' ? { text: 'SUMMARY' } : { text: 'answer' }))
    const first = await lh.h.run('one')
    for (const t of ['two', 'three', 'four']) await lh.h.run(t, { sessionId: first.sessionId })
    const builds = byAgent('build').length
    const { messages } = await lh.h.run('/compact', { sessionId: first.sessionId })
    expect(byAgent('compaction')).toHaveLength(1)
    expect(byAgent('build')).toHaveLength(builds)
    expect(messages.some((m) => m.metadata.compaction)).toBe(true)
    expect(textOf(messages).join('\n')).toContain('Compacted: the older messages are summarized')
  })

  it('Retry after a command failed runs the command again: the model receives the expansion, never the typed text', async () => {
    mine('see', 'Read @notes.md')
    lh = await loopbackHarness(answering('read'))
    const { sessionId, messages } = await lh.h.run('/see')
    expect(textOf(messages).join('\n')).toContain('/see: @notes.md: no such file in the workspace')
    put(path.join(lh.h.workdir, 'notes.md'), 'NOTES')
    await lh.h.host.api.calls['messages.retry']({ sessionId, requestId: 'retry-1' })
    await waitFor(() => byAgent('build').length > 0)
    await lh.h.host.runner.idle()
    expect(lastUser(byAgent('build')[0])).toBe('Read \n<file path="notes.md">\nNOTES\n</file>\n')
  })

  it('/help lists the commands as a notice; no model request', async () => {
    mine('review', '---\ndescription: Review a branch\nargument-hint: [branch]\n---\nx')
    lh = await loopbackHarness(answering())
    const { messages } = await lh.h.run('/help')
    const notice = textOf(messages).join('\n')
    expect(notice).toContain('- /review [branch] — Review a branch (person)')
    expect(notice).toContain('- /clear — Start a new session')
    expect(lh.requests().filter((r) => agentOfRequest(r) !== 'title')).toHaveLength(0)
  })

  it('a workspace command is not offered before the workspace is trusted', async () => {
    lh = await loopbackHarness(answering())
    put(path.join(lh.h.workdir, '.claude', 'commands', 'theirs.md'), 'Do as I say')
    const before = await lh.h.host.api.calls['commands.list']({ workspaceRoot: lh.h.workdir })
    expect(before.commands.map((c) => c.name)).not.toContain('theirs')
    expect(before.untrusted).toBe(1)
    const trust = await lh.h.host.api.calls['trust.get']({ workspaceRoot: lh.h.workdir })
    await lh.h.host.api.calls['trust.set']({ workspaceRoot: lh.h.workdir, trusted: true, files: trust.trust.files.map((f) => ({ path: f.path, sha256: f.sha256 })) })
    const after = await lh.h.host.api.calls['commands.list']({ workspaceRoot: lh.h.workdir })
    expect(after.commands.find((c) => c.name === 'theirs')).toMatchObject({ source: 'workspace', description: 'Do as I say' })
  })
})

describe('skills as commands', () => {
  const skill = (dir: string, name: string, extra = '', body = `# ${name}\nDo the ${name} thing.`) =>
    put(path.join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n${body}\n`)

  it('/skill args puts its instructions and folder in the prompt (arguments as $ARGUMENTS or an ARGUMENTS line); listed with source skill', async () => {
    const skills = path.join(home, '.claude', 'skills')
    skill(skills, 'pdf')
    skill(skills, 'deploy', 'disable-model-invocation: true\n', 'Deploy $ARGUMENTS now.')
    lh = await loopbackHarness(answering('done'))
    await lh.h.run('/pdf form.pdf')
    const sent = lastUser(byAgent('build')[0])
    expect(sent).toBe(`Use the skill "pdf" for this. Its folder is ${path.join(skills, 'pdf')} (read the files beside SKILL.md there with read_file).\n\n# pdf\nDo the pdf thing.\n\nARGUMENTS: form.pdf`)
    // The person invokes a skill the model is never offered.
    await lh.h.run('/deploy staging')
    const second = byAgent('build').at(-1)!
    expect(lastUser(second)).toMatch(/\n\nDeploy staging now\.$/)
    expect(toolOf(second, 'skill')!.function.description).not.toContain('deploy')
    const listed = await lh.h.host.api.calls['commands.list']({ workspaceRoot: lh.h.workdir })
    expect(listed.commands.filter((c) => c.source === 'skill').map((c) => [c.name, c.description])).toEqual([
      ['deploy', 'The deploy skill.'],
      ['pdf', 'The pdf skill.'],
    ])
  })

  it('a command file of the same name keeps the name; a built-in too; an untrusted workspace skill is no command', async () => {
    const skills = path.join(home, '.claude', 'skills')
    skill(skills, 'review')
    skill(skills, 'help')
    mine('review', 'Review it the command way')
    lh = await loopbackHarness(answering())
    skill(path.join(lh.h.workdir, '.claude', 'skills'), 'theirs')
    const listed = await lh.h.host.api.calls['commands.list']({ workspaceRoot: lh.h.workdir })
    expect(listed.commands.filter((c) => ['review', 'help', 'theirs'].includes(c.name)).map((c) => [c.name, c.source])).toEqual([
      ['help', 'builtin'],
      ['review', 'person'],
    ])
    await lh.h.run('/review')
    expect(lastUser(byAgent('build')[0])).toBe('Review it the command way')
  })
})

describe('!`shell` lines go through bash’s permission gate', () => {
  it('headless: an ask is a deny; the model is not asked and the error names the line', async () => {
    mine('status', 'Status: !`echo hi`')
    lh = await loopbackHarness(answering(), { headlessRun: { yes: false, allow: [] } })
    const { messages, final } = await lh.h.run('/status')
    expect(final?.finishReason).toBe('error')
    expect(textOf(messages).join('\n')).toMatch(/^\/status: the shell line `echo hi` did not run: Permission denied: bash needs approval/m)
    expect(byAgent('build')).toHaveLength(0)
  })

  it('asks the person like bash does; allowed, its output is in what the model receives', async () => {
    mine('status', 'Status: !`echo hi-from-shell`')
    lh = await loopbackHarness(answering('seen'))
    const { sessionId } = await lh.h.run('/status', { wait: false })
    const approval = await waitFor(() => lh!.h.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })[0])
    expect(approval).toMatchObject({ toolName: 'bash', arguments: { input: { command: 'echo hi-from-shell' } } })
    await lh.h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
    await waitFor(() => byAgent('build').length > 0)
    await lh.h.host.runner.idle()
    expect(lastUser(byAgent('build')[0])).toMatch(/^Status: hi-from-shell/)
  })

  it('a deny rule denies it, even with --yes', async () => {
    mine('clean', 'Cleaned: !`rm -rf build`')
    lh = await loopbackHarness(answering(), { headlessRun: { yes: true, allow: [] }, permissions: JSON.stringify({ bash: { '*': 'allow', 'rm *': 'deny' } }) })
    const { messages } = await lh.h.run('/clean')
    expect(textOf(messages).join('\n')).toMatch(/^\/clean: the shell line `rm -rf build` did not run: Permission denied/m)
    expect(byAgent('build')).toHaveLength(0)
  })
})
