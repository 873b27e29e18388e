import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TaskCard } from '../../src-shared'
import { createHarness, textOf, toolParts, type Harness } from '../testing/harness'

/**
 * sessions_list / sessions_history / sessions_send / sessions_wait, on a real host with the script model. Phase 1:
 * the root starts two inspectable children, A and B (A starts its own child A1). Phase 2: callers use the session
 * tools on sessions of the tree — every (caller, tool, target) below is one row of the table.
 */
const SESSION_TOOLS = ['task', 'read_file', 'sessions_list', 'sessions_history', 'sessions_send', 'sessions_wait']

type Target = 'A' | 'B' | 'A1' | 'root'
type Caller = 'root' | 'A' | 'B'
/** Who is below whom: the root made A and B, A made A1. */
const BELOW: Record<Caller, Target[]> = { root: ['A', 'B', 'A1'], A: ['A1'], B: [] }
/**
 * Every caller × tool × target: allowed exactly when the target is below the caller (never itself, its parent or a
 * sibling's tree). Left out: the root sending to A or B, whom the same turn resumes by task_id (a send would start
 * the run that resume then refuses); the root's send to B is the last test's.
 */
const ROWS: { caller: Caller; tool: string; target: Target; allowed: boolean }[] = (['root', 'A', 'B'] as const).flatMap((caller) =>
  ['sessions_history', 'sessions_wait', 'sessions_send'].flatMap((tool) =>
    (['root', 'A', 'B', 'A1'] as const)
      .filter((target) => !(caller === 'root' && tool === 'sessions_send' && (target === 'A' || target === 'B')))
      .map((target) => ({ caller, tool, target, allowed: BELOW[caller].includes(target) })),
  ),
)

const task = (type: string, description: string, prompt: string, extra: Record<string, unknown> = {}) => ({ name: 'task', input: { subagent_type: type, description, prompt, ...extra } })

describe('session tools', () => {
  let h: Harness
  const ids: Record<Target, string> = { root: '', A: '', B: '', A1: '' }
  const results = new Map<number, { ok: boolean; text: string }>()
  let defaultOff: string

  beforeAll(async () => {
    h = await createHarness({
      agents: { helper: { mode: 'subagent', inspectable: true } },
      permissions: '{ "*": "allow" }',
      // Session tools are off for subagents unless the policy names them.
      config: { subagents: { tools: { allow: SESSION_TOOLS } } },
      script: {
        agents: {
          build: [
            { match: 'phase one', step: 1, tools: [task('helper', 'A', 'be alpha'), task('helper', 'B', 'be beta')] },
            { match: 'phase one', step: 2, text: 'children made' },
          ],
          helper: [
            { match: 'be alpha', step: 1, tools: [task('helper', 'A1', 'be gamma')] },
            { match: 'be alpha', step: 2, text: 'A done' },
            { match: 'be beta', text: 'B done' },
            { match: 'be gamma', text: 'A1 done' },
          ],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    const first = await h.run('phase one')
    ids.root = first.sessionId
    const cards = toolParts(first.messages).map((p) => p.data.subagent as TaskCard)
    ids.A = cards.find((c) => c.description === 'A')!.taskId
    ids.B = cards.find((c) => c.description === 'B')!.taskId
    ids.A1 = h.host.store.sessions.listSessions({ parentId: ids.A })[0].id
    // Phase 2: each row is one call by its caller; A and B are resumed by task_id to make theirs.
    const call = (i: number) => ({ name: ROWS[i].tool, input: { session_id: ids[ROWS[i].target], ...(ROWS[i].tool === 'sessions_send' ? { message: 'hello' } : {}), ...(ROWS[i].tool === 'sessions_wait' ? { timeout_seconds: 1 } : {}) } })
    const by = (c: Caller) => ROWS.map((_, i) => i).filter((i) => ROWS[i].caller === c)
    h.setScript({
      agents: {
        build: [
          { match: 'phase two', step: 1, tools: [...by('root').map(call), task('helper', 'A again', 'rows of A', { task_id: ids.A }), task('helper', 'B again', 'rows of B', { task_id: ids.B })] },
          { match: 'phase two', step: 2, text: 'rows done' },
        ],
        helper: [
          { match: 'rows of A', step: 1, tools: by('A').map(call) },
          { match: 'rows of B', step: 1, tools: by('B').map(call) },
          { match: 'rows of', step: 2, text: 'ok', repeat: true },
          // A1's turns started by the allowed sends.
          { match: 'hello', text: 'hi back', repeat: true },
        ],
        title: [{ text: 't', repeat: true }],
      },
    })
    await h.run('phase two', { sessionId: ids.root })
    const partsOf = (c: Caller) => toolParts(h.host.store.transcript.listMessages(ids[c])).filter((p) => p.type.startsWith('tool-sessions_'))
    for (const c of ['root', 'A', 'B'] as const) {
      const parts = partsOf(c)
      by(c).forEach((row, k) => results.set(row, { ok: parts[k].toolState === 'output-available', text: String(parts[k].data.output ?? parts[k].data.error) }))
    }
  }, 60_000)
  afterAll(async () => h?.close())

  it.each(ROWS.map((r, i) => [`${r.caller} → ${r.tool}(${r.target})`, i, r] as const))('%s', (_name, i, row) => {
    const got = results.get(i)!
    expect(got.ok).toBe(row.allowed)
    if (!row.allowed) expect(got.text).toMatch(/^session ses_\w+ is not one of your subagents' sessions: you can reach only sessions below your own/)
    else if (row.tool === 'sessions_send') expect(got.text).toMatch(new RegExp(`^(Sent to|Queued for) ${ids[row.target]}`))
    else expect(got.text).toContain(`${ids[row.target]} (helper`)
  })

  it('sessions_list shows the caller\'s descendants only; history pages; send runs a turn the child sees; wait returns its answer', async () => {
    h.setScript({
      agents: {
        build: [
          { match: 'phase three', step: 1, tools: [{ name: 'sessions_list', input: {} }, { name: 'sessions_history', input: { session_id: ids.A, limit: 1 } }] },
          { match: 'phase three', step: 2, tools: [{ name: 'sessions_send', input: { session_id: ids.B, message: 'follow up, B' } }] },
          { match: 'phase three', step: 3, tools: [{ name: 'sessions_wait', input: { session_id: ids.B, timeout_seconds: 20 } }] },
          { match: 'phase three', step: 4, text: 'all seen' },
        ],
        helper: [{ match: 'follow up, B', text: 'B answers the follow-up' }],
        title: [{ text: 't', repeat: true }],
      },
    })
    const r = await h.run('phase three', { sessionId: ids.root })
    const [list, history, send, wait] = toolParts(r.messages).filter((p) => p.type.startsWith('tool-sessions_')).slice(-4).map((p) => String(p.data.output))
    expect(list.split('\n').map((l) => l.split('  ')[0]).sort()).toEqual([ids.A, ids.B, ids.A1].sort())
    expect(history).toMatch(new RegExp(`^${ids.A} \\(helper, idle\\), messages 1–1 of \\d+:\\n\\[user\\] be alpha\\n… \\d+ more \\(offset 1\\)$`))
    expect(send).toMatch(/^(Sent to|Queued for) ses_/)
    expect(wait).toMatch(new RegExp(`^${ids.B} \\(helper\\): idle\\nLatest messages:[\\s\\S]*\\[assistant\\] B answers the follow-up$`))
    expect(textOf(h.host.store.transcript.listMessages(ids.B), 'user')).toContain('follow up, B')
  })

  it('are off for subagents by default (no policy): a child is told they do not exist', async () => {
    const h2 = await createHarness({
      agents: { helper: { mode: 'subagent', inspectable: true } },
      script: {
        agents: {
          build: [{ step: 1, tools: [task('helper', 'C', 'be C')] }, { step: 2, text: 'ok' }],
          helper: [{ step: 1, tools: [{ name: 'sessions_list', input: {} }] }, { step: 2, text: 'C done' }],
          title: [{ text: 't', repeat: true }],
        },
      },
    })
    try {
      const r = await h2.run('go')
      const child = (toolParts(r.messages)[0].data.subagent as TaskCard).taskId
      defaultOff = String(toolParts(h2.host.store.transcript.listMessages(child))[0].data.error)
      expect(defaultOff).toMatch(/^Unknown tool "sessions_list"\. Available tools: /)
      expect(defaultOff).not.toMatch(/sessions_/.source + '.*sessions_')
    } finally {
      await h2.close()
    }
  })
})
