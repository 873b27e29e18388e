import fs from 'node:fs'
import path from 'node:path'
import { methods, type SessionNotification } from '@agentclientprotocol/sdk/unstable'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeRule, SessionSummary } from '../../src-shared'
import { createBridgeClient } from '../../src-shared/bridge-client'
import { agentry, buildCli, tempDir, writeFiles } from '../cli/testing/cli-process'
import { connectLocalSocket } from '../local-socket'
import { initialize, startAcp, type AcpProcess } from './testing/acp-client'
import { contentText, fold } from './testing/fold'

/**
 * `agentry acp` as an editor runs it, driven by the ACP SDK's own client (a real process, the scripted model, a real
 * data dir): a fan-out to three subagents, an approval from a depth-2 child answered "always", cancelling a run,
 * and loading the session again after the process restarted.
 */
beforeAll(() => buildCli(), 60_000)

const SCRIPT = {
  agents: {
    build: [
      {
        match: 'fan out',
        step: 1,
        text: 'Fanning out.',
        tools: [
          { name: 'task', input: { subagent_type: 'general', description: 'Child A', prompt: 'child A: list the folder' } },
          { name: 'task', input: { subagent_type: 'general', description: 'Child B', prompt: 'child B: say hello' } },
          { name: 'task', input: { subagent_type: 'general', description: 'Child C', prompt: 'child C: go one level deeper' } },
        ],
      },
      { match: 'fan out', step: 2, text: 'All three are done.' },
      { match: 'slow', step: 1, text: 'Starting a slow child.', tools: [{ name: 'task', input: { subagent_type: 'general', description: 'Slow child', prompt: 'slowly: take your time' } }] },
      { match: 'slow', step: 2, text: 'never reached' },
    ],
    general: [
      { match: 'child A', step: 1, tools: [{ name: 'list_dir', input: { path: '.' } }] },
      { match: 'child A', step: 2, text: 'A listed the folder.' },
      { match: 'child B', step: 1, text: 'Hello from B.' },
      { match: 'child C', step: 1, tools: [{ name: 'task', input: { subagent_type: 'general', description: 'Grandchild', prompt: 'grandchild: run a command' } }] },
      { match: 'child C', step: 2, text: 'C is done.' },
      { match: 'grandchild', step: 1, tools: [{ name: 'bash', input: { command: 'echo deep' } }] },
      { match: 'grandchild', step: 2, text: 'The grandchild ran echo.' },
      { match: 'slowly', text: 'too late', delayMs: 120_000 },
    ],
    '*': [{ text: 'Title', repeat: true }],
  },
}

describe('agentry acp driven by the ACP SDK client', () => {
  const home = tempDir('acp-home')
  const work = tempDir('acp-work')
  writeFiles(home, { 'script.yaml': SCRIPT, 'config.yaml': 'model: script/x\n' })
  writeFiles(work, { 'README.md': '# demo\n' })
  const env = { AGENTRY_SCRIPT: path.join(home, 'script.yaml') }
  const cli = (args: string[]) => agentry(args, { home, cwd: work, env })
  let p: AcpProcess
  let sessionId = ''
  /** everything the editor saw live in this session, plus the prompts it sent */
  const live: SessionNotification[] = []
  const prompts: string[] = []

  beforeAll(async () => {
    p = startAcp({ home, cwd: work, env })
    const init = await initialize(p)
    expect(init).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true } } })
  }, 60_000)
  afterAll(async () => {
    p.child.kill()
    fs.rmSync(home, { recursive: true, force: true })
    fs.rmSync(work, { recursive: true, force: true })
  })

  const prompt = async (text: string) => {
    prompts.push(text)
    const from = p.updates.length
    const result = await p.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] })
    return { result, updates: p.updates.slice(from) }
  }

  it('opens a session in the workspace with the primary agents as modes', async () => {
    const s = await p.agent.request(methods.agent.session.new, { cwd: work, mcpServers: [] })
    sessionId = s.sessionId
    expect(s.modes?.currentModeId).toBe('build')
    expect(s.modes?.availableModes.map((m) => m.id)).toEqual(expect.arrayContaining(['build', 'plan']))
    expect(s.modes?.availableModes.map((m) => m.id)).not.toContain('general')
    expect(s.configOptions?.[0]).toMatchObject({ id: 'model', category: 'model', currentValue: 'script/x' })
  })

  it('fans out to three children: updates in order, every tool call ends completed; a depth-2 approval answered "always"', async () => {
    p.onPermission = async (request) => {
      const always = request.options.find((o) => o.optionId === 'allow_always_workspace')
      return { outcome: { outcome: 'selected', optionId: always?.optionId ?? 'allow_once' } }
    }
    const { result, updates } = await prompt('fan out to three children')
    live.push(...updates)
    expect(result.stopReason).toBe('end_turn')

    // The depth-2 approval: the agent path in its title, "always" offered with the suggested pattern.
    expect(p.permissions).toHaveLength(1)
    const asked = p.permissions[0].request
    expect(asked.toolCall.title).toBe('build › general › general: Run `echo deep`')
    expect(asked.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'allow_always', 'reject_once'])
    expect(asked.options[2].name).toMatch(/^Always allow `echo .*` in this workspace$/)

    const view = fold(updates)
    const calls = [...view.calls.values()]
    const tasks = calls.filter((c) => c.kind === 'think')
    expect(tasks.map((c) => c.title)).toEqual(['Child A · general', 'Child B · general', 'Child C · general'])
    for (const c of calls) expect([c.title, c.status]).toEqual([c.title, 'completed'])
    // The child that asked is shown as a call of its own, and it ran after the answer.
    const asking = calls.find((c) => c.toolCallId === asked.toolCall.toolCallId)
    expect(asking?.statuses).toEqual(['pending', 'in_progress', 'completed'])
    expect(contentText(asking?.content)).toContain('deep')
    // Each child's card names it (inspectable: openable in the app) and ends with its answer.
    const childC = tasks[2]
    expect(contentText(childC.content)).toMatch(/^general · completed · 2 steps · [\d,]+ tokens/)
    expect(contentText(childC.content)).toMatch(/Child session `ses_[^`]+`: open it under this conversation in the Agentry app, or run `agentry show ses_/)
    expect(contentText(childC.content)).toContain('C is done.')

    // In order: the text before the calls, each call's updates after its start, the final answer after every call ended.
    const index = (test: (n: SessionNotification) => boolean) => updates.findIndex(test)
    const lastIndex = (test: (n: SessionNotification) => boolean) => updates.length - 1 - [...updates].reverse().findIndex(test)
    const firstText = index((n) => n.update.sessionUpdate === 'agent_message_chunk')
    const finalText = index((n) => n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' && n.update.content.text.startsWith('All'))
    for (const t of tasks) {
      const isThis = (n: SessionNotification) => 'toolCallId' in n.update && n.update.toolCallId === t.toolCallId
      const start = index((n) => isThis(n) && n.update.sessionUpdate === 'tool_call')
      expect(start).toBeGreaterThan(firstText)
      expect(index(isThis)).toBe(start)
      expect(lastIndex(isThis)).toBeLessThan(finalText)
    }
    expect(view.messages.filter((m) => m.kind === 'agent_message_chunk').map((m) => m.text)).toEqual(['Fanning out.', 'All three are done.'])
  }, 120_000)

  it('the "always" answer is a rule the CLI and Settings see; the approval is gone for every client', async () => {
    const r = await cli(['rules', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const rules = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as RuntimeRule)
    expect(rules).toEqual([expect.objectContaining({ scope: 'workspace', scopeKey: fs.realpathSync(work), tool: 'bash', action: 'allow' })])
    expect(rules[0].pattern).toMatch(/^echo /)
    const text = await cli(['rules'])
    expect(text.stdout).toContain(`bash ${JSON.stringify(rules[0].pattern)} → allow  (workspace ${fs.realpathSync(work)}`)
    // What the app's approval list asks the same host: nothing is pending any more.
    const app = createBridgeClient((await connectLocalSocket(home))!)
    try {
      expect((await app.calls['approvals.list']({})).approvals).toEqual([])
      expect((await app.calls['rules.list']({ workspaceRoot: fs.realpathSync(work) })).rules).toHaveLength(1)
    } finally {
      app.close()
    }
  }, 60_000)

  it('cancel mid-run stops the run and its child: the prompt returns cancelled, nothing is left running', async () => {
    const from = p.updates.length
    prompts.push('slow work please')
    const running = p.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'slow work please' }] })
    // Wait until the child runs (its card in the task call says so), then cancel.
    await p.waitForUpdate((n) => n.update.sessionUpdate === 'tool_call_update' && contentText(n.update.content ?? []).includes('general · running'), { from })
    await p.agent.notify(methods.agent.session.cancel, { sessionId })
    const result = await running
    expect(result.stopReason).toBe('cancelled')
    await new Promise((r) => setTimeout(r, 300)) // anything still on its way
    const updates = p.updates.slice(from)
    live.push(...updates)
    const view = fold(updates)
    const task = [...view.calls.values()].find((c) => c.title === 'Slow child · general')
    expect(task?.status).toBe('failed')
    // The editor's cancel is the person's Stop (issue 28): said as such, not as a bare "aborted".
    expect(contentText(task?.content)).toMatch(/general · stopped by you/)
    for (const c of fold(live).calls.values()) expect(['completed', 'failed']).toContain(c.status)
    const listed = (await cli(['sessions', '--json'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as SessionSummary & { depth: number })
    expect(listed.find((s) => s.id === sessionId)?.status).toBe('aborted')
    expect(listed.filter((s) => ['busy', 'waiting_on_approval', 'retrying'].includes(s.status))).toEqual([])
  }, 120_000)

  it('after a restart, session/load replays the same transcript', async () => {
    expect(await p.close()).toBe(0)
    expect(p.stderr()).not.toMatch(/unexpected|Error:/)
    p = startAcp({ home, cwd: work, env })
    await initialize(p)
    const listed = await p.agent.request(methods.agent.session.list, { cwd: work })
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId)
    const loaded = await p.agent.request(methods.agent.session.load, { sessionId, cwd: work, mcpServers: [] })
    expect(loaded.modes?.currentModeId).toBe('build')
    const replay = fold(p.updates)
    const shown = fold(live)
    expect(replay.messages.filter((m) => m.kind === 'user_message_chunk').map((m) => m.text)).toEqual(prompts)
    const said = (v: typeof replay) => v.messages.filter((m) => m.kind !== 'user_message_chunk').map((m) => [m.kind, m.messageId, m.text])
    expect(said(replay)).toEqual(said(shown))
    // Every call of the session itself, as it ended; a subagent's approval call is shown live only (inside its task's
    // card it is part of the child's own transcript).
    const own = (v: typeof replay) =>
      [...v.calls.values()].filter((c) => !c.toolCallId.startsWith('sub:')).map(({ toolCallId, title, kind, status, content, locations }) => ({ toolCallId, title, kind, status, content, locations }))
    expect(own(replay)).toEqual(own(shown))
  }, 120_000)
})
