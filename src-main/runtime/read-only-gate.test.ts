import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadShellGrammar } from '../permissions'
import { createHarness, toolParts, type Harness, waitFor } from '../testing/harness'

/**
 * Issue 28 through the real host: a read-only line runs without asking under the default rules, and the transcript
 * says why; `sandbox.readOnlyAutoAllow: false` in the person's config.yaml asks for it as before; other lines ask.
 */
let h: Harness | undefined
beforeAll(() => loadShellGrammar())
afterEach(async () => {
  await h?.close()
  h = undefined
})

const script = (command: string) => ({
  agents: { build: [{ step: 1, tools: [{ name: 'bash', input: { command } }] }, { step: 2, text: 'done' }], title: [{ text: 't', repeat: true }] },
})

describe('read-only bash lines at the gate', () => {
  it('run without asking, marked "read-only" on the tool part', async () => {
    h = await createHarness({ script: script('ls -la && git status --short 2>/dev/null | head -5'), files: { 'a.txt': 'x' } })
    const { sessionId } = await h.run('look')
    expect(h.host.store.approvals.listApprovals({ rootSessionId: sessionId })).toEqual([])
    const [part] = toolParts(h.host.store.transcript.listMessages(sessionId))
    expect(part.toolState).toBe('output-available')
    expect(part.data.autoAllowed).toBe('read-only')
    expect(String(part.data.output)).toContain('a.txt')
  })

  it('ask when the person turned it off in config.yaml', async () => {
    h = await createHarness({ script: script('ls -la'), config: { sandbox: { readOnlyAutoAllow: false } } })
    const { sessionId } = await h.run('look', { wait: false })
    const approval = await waitFor(() => h!.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })[0])
    expect(approval.arguments).toMatchObject({ input: { command: 'ls -la' } })
  })

  it.each(['cat ../outside.txt', 'ls | xargs rm', 'echo hi > out.txt', 'sed -i s/a/b/ a.txt', 'echo hello'])('%j asks as before', async (command) => {
    h = await createHarness({ script: script(command), files: { 'a.txt': 'a' } })
    const { sessionId } = await h.run('go', { wait: false })
    const approval = await waitFor(() => h!.host.store.approvals.listApprovals({ rootSessionId: sessionId, status: 'pending' })[0])
    expect(approval.toolName).toBe('bash')
  })
})
