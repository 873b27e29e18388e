import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadShellGrammar } from '../permissions'
import { createHarness, waitFor, type Harness } from '../testing/harness'

beforeAll(() => loadShellGrammar())

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const pending = (sessionId: string) => h!.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })

describe('Settings › Permissions: the static rules as a table', () => {
  it("settings.get lists the person's rules and the workspace's, with their file; an untrusted workspace's only tighten", async () => {
    h = await createHarness({
      permissions: '{ "*": "ask", "read_file": { "*": "allow", "*.env": "deny" }, "bash": { "git status": "allow" } }',
      files: { '.agents/permissions.jsonc': '{ "bash": { "rm *": "deny" } }' },
    })
    const s = await h.host.api.calls['settings.get']({ workspaceRoot: h.workdir })
    const mine = s.permissionsFiles[0]
    expect(s.staticRules).toEqual([
      { tool: '*', pattern: '*', action: 'ask', file: mine, from: 'yours', tightenOnly: false },
      { tool: 'read_file', pattern: '*', action: 'allow', file: mine, from: 'yours', tightenOnly: false },
      { tool: 'read_file', pattern: '*.env', action: 'deny', file: mine, from: 'yours', tightenOnly: false },
      { tool: 'bash', pattern: 'git status', action: 'allow', file: mine, from: 'yours', tightenOnly: false },
      { tool: 'bash', pattern: 'rm *', action: 'deny', file: s.permissionsFiles[1], from: 'workspace', tightenOnly: true },
    ])
  })

  it('a file that cannot be used is an error, never rows', async () => {
    h = await createHarness({ permissions: '{ "bash": ' })
    const s = await h.host.api.calls['settings.get']({ workspaceRoot: h.workdir })
    expect(s.permissionErrors).toHaveLength(1)
    expect(s.staticRules).toEqual([])
  })
})

describe('rules.list: every grant, named by its conversation', () => {
  it('a session grant is listed for its workspace and its conversation (with the title), then revoked', async () => {
    h = await createHarness({
      permissions: '{ "*": "ask", "bash": "ask" }',
      script: {
        agents: { build: [{ step: 1, tools: [{ name: 'bash', input: { command: 'npm test' } }] }, { step: 2, text: 'done' }], title: [{ text: 'Testing the app', repeat: true }] },
      },
    })
    const { sessionId } = await h.run('go', { wait: false })
    await waitFor(() => (pending(sessionId).length === 1 ? true : undefined))
    await h.host.api.calls['approvals.answer']({ approvalId: pending(sessionId)[0].id, decision: 'allow_always', patterns: ['npm test*'], scope: 'session' })
    await h.host.runner.idle()
    await waitFor(() => (h!.host.store.sessions.getSession(sessionId)?.title === 'Testing the app' ? true : undefined))

    const listed = (await h.host.api.calls['rules.list']({ workspaceRoot: h.workdir })).rules
    expect(listed).toEqual([
      expect.objectContaining({ scope: 'session', scopeKey: sessionId, tool: 'bash', pattern: 'npm test*', conversation: { id: sessionId, title: 'Testing the app', workspaceRoot: h.workdir } }),
    ])
    expect((await h.host.api.calls['rules.list']({ sessionId })).rules.map((r) => r.id)).toEqual([listed[0].id])
    expect((await h.host.api.calls['rules.list']({ workspaceRoot: '/elsewhere' })).rules).toEqual([])
    expect((await h.host.api.calls['rules.list']({})).rules).toHaveLength(1)

    expect(await h.host.api.calls['rules.revoke']({ ruleId: listed[0].id })).toEqual({ revoked: true })
    expect((await h.host.api.calls['rules.list']({ sessionId })).rules).toEqual([])
  })

  it('a run grant is listed while its run lasts (scope run, its conversation), can be revoked, and ends with the run', async () => {
    h = await createHarness({
      permissions: '{ "*": "ask", "bash": "ask" }',
      script: {
        agents: {
          build: [
            { step: 1, tools: [{ name: 'bash', input: { command: 'npm test' } }] },
            { step: 2, tools: [{ name: 'bash', input: { command: 'npm run lint' } }] },
            { step: 3, tools: [{ name: 'bash', input: { command: 'npm test' } }] },
            { step: 4, text: 'done' },
          ],
          title: [{ text: 'Lint and test', repeat: true }],
        },
      },
    })
    const { sessionId } = await h.run('go', { wait: false })
    await waitFor(() => (pending(sessionId).length === 1 ? true : undefined))
    await h.host.api.calls['approvals.answer']({ approvalId: pending(sessionId)[0].id, decision: 'allow_always', patterns: ['npm test*'], scope: 'run' })
    // Step 2 asks again (another command): the run, and its grant, are still there.
    await waitFor(() => (pending(sessionId).length === 1 ? true : undefined))
    const listed = (await h.host.api.calls['rules.list']({ sessionId })).rules
    expect(listed).toEqual([expect.objectContaining({ scope: 'run', scopeKey: sessionId, tool: 'bash', pattern: 'npm test*', action: 'allow', conversation: expect.objectContaining({ id: sessionId }) })])
    expect(listed[0].id).toMatch(/^run:/)
    expect((await h.host.api.calls['rules.list']({ workspaceRoot: h.workdir })).rules.map((r) => r.id)).toEqual([listed[0].id])
    // The stored rules know nothing of it: it lives with the run.
    expect(h.host.store.approvals.listRules()).toEqual([])

    expect(await h.host.api.calls['rules.revoke']({ ruleId: listed[0].id })).toEqual({ revoked: true })
    expect((await h.host.api.calls['rules.list']({ sessionId })).rules).toEqual([])
    expect(await h.host.api.calls['rules.revoke']({ ruleId: listed[0].id })).toEqual({ revoked: false })
    // Revoked means asked again: step 3's `npm test` waits for an answer.
    await h.host.api.calls['approvals.answer']({ approvalId: pending(sessionId)[0].id, decision: 'allow_once' })
    await waitFor(() => (pending(sessionId).some((a) => JSON.stringify(a.arguments).includes('npm test')) ? true : undefined))
    await h.host.api.calls['approvals.answer']({ approvalId: pending(sessionId)[0].id, decision: 'allow_always', patterns: ['npm test*'], scope: 'run' })
    await h.host.runner.idle()
    await h.host.runs.settleAll()
    // The run is over: so is its grant.
    expect((await h.host.api.calls['rules.list']({})).rules).toEqual([])
  })
})
