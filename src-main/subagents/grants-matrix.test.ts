import { afterEach, describe, expect, it } from 'vitest'
import type { AlwaysScope, ApprovalRecord, MessageWithParts, TaskCard } from '../../src-shared'
import { loadShellGrammar } from '../permissions'
import { createHarness, toolParts, type Harness } from '../testing/harness'

/**
 * "Always allow" grants flow down, never up (issue 26), generated: the scope of the grant (this run, this session) ×
 * the depth of the agent that asked (0 = the root, 1, 2) × the rules of the child it then starts (allow, ask, deny for
 * bash). The person's own rule makes `echo granted…` ask. The asker's call is answered "always" for `echo granted*`;
 * then its child runs `echo granted-kid` (allowed without asking unless its own rules deny it: a grant never lifts a
 * deny), and the asker's parent runs `echo granted-up` (asks again: a grant never reaches up). At the root, a second
 * conversation asks again too, and the conversation's next turn asks again only after a grant for the run.
 */
type ChildRule = 'allow' | 'ask' | 'deny'
const SCOPES: Exclude<AlwaysScope, 'workspace'>[] = ['run', 'session']
const RULES: ChildRule[] = ['allow', 'ask', 'deny']
const rows = SCOPES.flatMap((scope) => [0, 1, 2].flatMap((asker) => RULES.map((childRule) => ({ scope, asker, childRule }))))

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const bash = (command: string) => ({ name: 'bash', input: { command } })
const task = (agent: string, prompt: string) => ({ name: 'task', input: { subagent_type: agent, description: prompt, prompt } })

/** Level i (0 = root) starts level i+1 until the asker, which asks, then starts the kid; the asker's parent then runs bash. */
function scriptOf(asker: number) {
  const lines: object[] = [
    { match: 'KID-GO', step: 1, tools: [bash('echo granted-kid')], repeat: true },
    { match: 'KID-GO', text: 'kid done', repeat: true },
    { match: 'OTHER-GO', step: 1, tools: [bash('echo granted-other')], repeat: true },
    { match: 'OTHER-GO', text: 'other done', repeat: true },
  ]
  for (let i = 0; i <= asker; i++) {
    const match = i === 0 ? 'GO-ROOT' : `LEVEL-${i}`
    if (i < asker) {
      lines.push({ match, step: 1, tools: [task(`l${i + 1}`, `LEVEL-${i + 1} go`)], repeat: true })
      // The asker's parent, once the asker is back: the same command, which the grant must not reach.
      if (i === asker - 1) lines.push({ match, step: 2, tools: [bash('echo granted-up')], repeat: true })
      lines.push({ match, text: 'level done', repeat: true })
    } else {
      lines.push({ match, step: 1, tools: [bash('echo granted-asker')], repeat: true })
      lines.push({ match, step: 2, tools: [task('kid', 'KID-GO now')], repeat: true })
      lines.push({ match, text: 'asker done', repeat: true })
    }
  }
  const agents = Object.fromEntries(['build', 'l1', 'l2', 'kid'].map((a) => [a, lines]))
  return { agents: { ...agents, title: [{ text: 't', repeat: true }] } }
}

function allCalls(messages: MessageWithParts[], h: Harness): { command: string; state: string | null; output: string }[] {
  const out: { command: string; state: string | null; output: string }[] = []
  for (const p of toolParts(messages)) {
    if (p.type === 'tool-bash') out.push({ command: String((p.data.input as { command?: string })?.command), state: p.toolState, output: String(p.data.output ?? p.data.error ?? '') })
    const card = p.data.subagent as TaskCard | undefined
    if (card) out.push(...allCalls(card.inspectable ? h.host.store.transcript.listMessages(card.taskId) : (card.transcript ?? []), h))
  }
  return out
}

describe('grants matrix: scope × asker depth × child rules', () => {
  it.each(rows.map((r) => [`always for this ${r.scope}, asked at depth ${r.asker}, child's bash ${r.childRule}`, r] as const))('%s', async (_name, r) => {
    await loadShellGrammar()
    const open = { mode: 'subagent', permission: { '*': 'allow' } }
    h = await createHarness({
      agents: { l1: open, l2: open, kid: { mode: 'subagent', permission: { '*': 'allow', bash: r.childRule } } },
      permissions: '{ "bash": { "*": "allow", "echo granted*": "ask" } }',
      script: scriptOf(r.asker),
    })
    const asked: ApprovalRecord[] = []
    // The person: the asker's call is allowed always; any later question is recorded and allowed once.
    const answerer = setInterval(() => {
      for (const a of h?.host.store.approvals.listApprovals({ status: 'pending' }) ?? []) {
        if (asked.some((x) => x.id === a.id)) continue
        asked.push(a)
        const first = asked.length === 1
        void h!.host.api.calls['approvals.answer']({ approvalId: a.id, ...(first ? { decision: 'allow_always', scope: r.scope, patterns: ['echo granted*'] } : { decision: 'allow_once' }) })
      }
    }, 10)
    try {
      const run = await h.run('GO-ROOT please')
      const commands = () => asked.map((a) => String((a.arguments.input as { command?: string })?.command))
      expect(commands()[0]).toBe('echo granted-asker')
      expect(asked[0].agentPath.length).toBe(r.asker + 1)
      const calls = allCalls(run.messages, h)
      const kid = calls.find((c) => c.command === 'echo granted-kid')!
      // Down: the kid was never asked; its own deny still holds.
      expect(commands()).not.toContain('echo granted-kid')
      if (r.childRule === 'deny') expect(kid.state).toBe('output-error')
      else expect(kid.state).toBe('output-available')
      // Up: the asker's parent is asked again.
      if (r.asker > 0) expect(commands()).toContain('echo granted-up')
      // Across: another conversation asks again.
      await h.run('OTHER-GO please')
      expect(commands()).toContain('echo granted-other')
      // Later: the same conversation's next turn asks again after a grant for the run only (at the root).
      if (r.asker === 0) {
        const before = asked.length
        await h.run('GO-ROOT again', { sessionId: run.sessionId })
        const again = asked.slice(before).map((a) => String((a.arguments.input as { command?: string })?.command))
        expect(again.includes('echo granted-asker')).toBe(r.scope === 'run')
      }
    } finally {
      clearInterval(answerer)
    }
  }, 40_000)
})
