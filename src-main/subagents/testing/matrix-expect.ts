import { expect } from 'vitest'
import type { BackgroundNotice, MessageWithParts, SequencedEvent, SessionRecord, SubagentMeta, TaskCard } from '../../../src-shared'
import type { Host } from '../../host'
import { awaitsAnswer, backgroundNoticeLine, buildPrompt } from '../../loop'
import { readChain, storedCards, streamOf, TERMINAL, viewerCards, type StoredLevel } from './matrix-inspect'
import { doneText, missingFile, modelErrorMessage, NOTED, resumedText, toolErrorText, wokeText } from './matrix-script'
import { agentAt, depthOf, TIMEOUT_SECONDS, type MatrixCase, type Outcome } from './matrix-table'

/** A group of cases that ran on one host (after a restart: the new host on the same data dir). */
export interface MatrixRun {
  host: Host
  /** every event of the cases' root streams, as a viewer receives them */
  events: SequencedEvent[]
  /** case id → its root session */
  roots: Map<string, string>
  /** the host's data dir (where task worktrees are) */
  dataDir?: string
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const STATS = 'runtime \\d+(\\.\\d|m\\d+)s · tokens \\d+ in / \\d+ out( · cost \\$\\d+\\.\\d{4})?'
/** The stats line of a child: an inspectable one also names its session (sessions_history reads it). */
const statsOf = (c: MatrixCase, taskId: string) => `${STATS}${c.chain.at(-1) === 'inspectable' ? esc(` · session ${taskId}`) : ''}`

/** The exact text the parent's model gets about the last child, and how its card ends. */
function expected(c: MatrixCase, agent: string, taskId: string): { ok: boolean; text: RegExp; status: TaskCard['status']; error: string | RegExp | null } {
  const head = `<task_result agent="${agent}" task_id="${taskId}">\n`
  const result = (text: string) =>
    c.incomplete === undefined
      ? new RegExp(`^${esc(head + text)}\\n</task_result>\\n${statsOf(c, taskId)}${c.resultSuffix ?? ''}$`)
      : new RegExp(
          `^${esc(`<task_result agent="${agent}" task_id="${taskId}" status="incomplete">\n[Incomplete: ${c.incomplete}.`)}[^\\]]* ${esc(`To continue it, call task with task_id "${taskId}" and what to do next.]\n${text}`)}\\n</task_result>\\n${statsOf(c, taskId)}${c.resultSuffix ?? ''}$`,
        )
  const seconds = (c.extra?.timeout_seconds as number | undefined) ?? TIMEOUT_SECONDS.timeout
  // Its own clock ran out before it wrote anything: an incomplete result that says so and how to continue it.
  const timedOut = new RegExp(
    `^${esc(`<task_result agent="${agent}" task_id="${taskId}" status="incomplete">\n[Incomplete: it ran out of time (${seconds} s of its own work). It had made no tool calls. To continue it, call task with task_id "${taskId}" and what to do next.]`)}\\n</task_result>\\n${statsOf(c, taskId)}${c.resultSuffix ?? ''}$`,
  )
  const error = (reason: string) => new RegExp(`^${esc(`<task_error agent="${agent}" task_id="${taskId}">${reason}</task_error>`)}$`)
  const n = depthOf(c)
  const table: Record<Outcome, ReturnType<typeof expected>> = {
    success: { ok: true, text: result(c.leafText ?? doneText(c, n)), status: 'completed', error: null },
    'tool-error': { ok: true, text: result(toolErrorText(c)), status: 'completed', error: null },
    'model-error': {
      ok: false,
      text: new RegExp(`^${esc(`<task_error agent="${agent}" task_id="${taskId}">`)}[^<]*${esc(modelErrorMessage(c))}[^<]*</task_error>$`),
      status: 'failed',
      error: new RegExp(esc(modelErrorMessage(c))),
    },
    stop: { ok: false, text: error('aborted: stopped by the user'), status: 'aborted', error: 'aborted by parent' },
    timeout: { ok: true, text: timedOut, status: 'aborted', error: `timed out after ${seconds}s` },
    'approval-wait': { ok: true, text: result(doneText(c, n)), status: 'completed', error: null },
    restart: {
      ok: false,
      text: new RegExp(`^${esc(`<task_error agent="${agent}" task_id="${taskId}">aborted: interrupted by host restart`)}${c.resultSuffix ?? ''}</task_error>$`),
      status: 'aborted',
      error: 'interrupted by host restart',
    },
    resume: { ok: true, text: result(resumedText(c, n)), status: 'completed', error: null },
  }
  return table[c.outcome]
}

/** How the levels between the root and the last child end. */
function parentStatus(c: MatrixCase): TaskCard['status'] {
  if (c.mode === 'background') return 'completed'
  return c.outcome === 'stop' || c.outcome === 'restart' ? 'aborted' : 'completed'
}

const texts = (messages: MessageWithParts[]) => messages.filter((m) => m.role === 'assistant' && !m.metadata.synthetic).flatMap((m) => m.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text)))

const NOTICE_OUTCOME: Record<Outcome, BackgroundNotice['outcome']> = {
  success: 'completed',
  'tool-error': 'completed',
  resume: 'completed',
  'approval-wait': 'completed',
  'model-error': 'failed',
  stop: 'stopped',
  timeout: 'incomplete',
  restart: 'stopped',
}

const JOB_STATUS: Record<Outcome, string> = { success: 'completed', 'tool-error': 'completed', resume: 'completed', 'approval-wait': 'completed', 'model-error': 'failed', stop: 'aborted', timeout: 'aborted', restart: 'interrupted' }

/** Everything a case promises: what the parent's model receives, what is stored, what the events and the tasks panel say. */
export async function expectCase(run: MatrixRun, c: MatrixCase): Promise<void> {
  const { store } = run.host
  const rootId = run.roots.get(c.id)!
  const n = depthOf(c)
  const chain = readChain(store, rootId, c, c.outcome === 'resume' ? 'last' : 'first')
  const parent = chain[n - 1]
  const child = chain[n] as Required<StoredLevel>
  const want = expected(c, agentAt(c, n), child.card.taskId)

  // 1. What the parent's model receives (the tool result, or the synthetic message), exactly as the loop sends it.
  const modelSees = JSON.stringify(buildPrompt('', parent.messages))
  if (c.mode === 'blocking') {
    expect(child.part.toolState).toBe(want.ok ? 'output-available' : 'output-error')
    const got = String(want.ok ? child.part.data.output : child.part.data.error)
    expect(got).toMatch(want.text)
    expect(modelSees).toContain(JSON.stringify(got).slice(1, -1))
  } else {
    expect(child.part.toolState).toBe('output-available')
    expect(String(child.part.data.output)).toMatch(new RegExp(`^Started in the background: task_id ${child.card.taskId} \\(${agentAt(c, n)}, `))
    const synthetic = parent.messages.filter((m) => m.metadata.synthetic)
    expect(synthetic).toHaveLength(c.outcome === 'resume' ? 2 : 1)
    const got = String(synthetic.at(-1)!.parts[0].data.text)
    expect(got).toMatch(want.text)
    // The notice says which task it is and how it ended, above the result.
    const notice = synthetic.at(-1)!.metadata.task as BackgroundNotice
    expect(notice).toMatchObject({ taskId: child.card.taskId, agentType: agentAt(c, n), outcome: c.incomplete ? 'incomplete' : NOTICE_OUTCOME[c.outcome] })
    expect(modelSees).toContain(JSON.stringify(`${backgroundNoticeLine(notice)}\n${got}`).slice(1, -1))
    const after = parent.messages.slice(parent.messages.indexOf(synthetic.at(-1)!) + 1)
    const storedParent = n === 1 || chain[n - 1].card?.inspectable === true
    if (c.outcome === 'stop' || c.outcome === 'restart') {
      // The person's Stop (or a restart) wakes nobody: nothing answered the result.
      expect(texts(after)).toEqual([])
    } else if (storedParent) {
      // A stored parent is woken to react to its child's result — read in the run that was going, or in a turn of its
      // own — and nothing is left unanswered at the end (nor answered twice: a request never ends with its own answer).
      expect(texts(parent.messages).filter((t) => t === wokeText(c, n - 1) || t === NOTED).length).toBeGreaterThan(0)
      expect(awaitsAnswer(buildPrompt('', parent.messages)), 'the parent left a result unanswered').toBe(false)
    }
  }

  // 2. What is stored: cards, rows, nested transcripts.
  expect(child.card).toMatchObject({ taskId: child.card.taskId, agentType: agentAt(c, n), depth: n, background: c.mode === 'background', inspectable: c.chain[n - 1] === 'inspectable', status: want.status })
  if (want.error === null) expect(child.card.error).toBeNull()
  else expect(child.card.error).toMatch(typeof want.error === 'string' ? new RegExp(`^${esc(want.error)}$`) : want.error)
  for (let k = 1; k < n; k++) expect([k, chain[k].card!.status]).toEqual([k, parentStatus(c)])
  for (let k = 1; k <= n; k++) expectRow(run, c, chain, k)
  expectChildTranscript(c, child)

  // The tasks panel (background children of the conversation) says the same.
  if (c.mode === 'background') {
    const { tasks } = await run.host.api.calls['tasks.list']({ rootSessionId: rootId })
    expect(tasks.find((t) => t.taskId === child.card.taskId)).toMatchObject({ agentType: agentAt(c, n), status: JOB_STATUS[c.outcome], parentSessionId: parent.sessionId })
  }

  // 3. What the events say: every card a viewer of the root's stream shows ends terminal, as stored.
  const views = viewerCards(streamOf(run.events, rootId))
  for (const card of storedCards(store, rootId)) {
    expect(TERMINAL.has(card.status), `${card.taskId} ${card.status}`).toBe(true)
    const view = views.get(card.taskId)
    expect(view && { status: view.status, error: view.error, inspectable: view.inspectable, background: view.background }, `${card.agentType} ${card.taskId}`).toEqual({
      status: card.status,
      error: card.error,
      inspectable: card.inspectable,
      background: card.background,
    })
  }
}

/** An inspectable level has its row under the nearest stored ancestor (its recorded parent is its caller); an opaque one has none. */
function expectRow(run: MatrixRun, c: MatrixCase, chain: StoredLevel[], k: number): void {
  const { store } = run.host
  const level = chain[k]
  const row = store.sessions.getSession(level.sessionId)
  if (c.chain[k - 1] !== 'inspectable') {
    expect(row).toBeUndefined()
    return
  }
  let anchor = k - 1
  while (anchor > 0 && c.chain[anchor - 1] === 'opaque') anchor--
  const meta = row!.metadata.subagent as SubagentMeta
  expect({ parentId: row!.parentId, status: settledStatus(row!) }).toEqual({ parentId: chain[anchor].sessionId, status: true })
  expect(meta).toMatchObject({ agentType: agentAt(c, k), parentSessionId: chain[k - 1].sessionId, depth: k, inspectable: true, agentPath: Array.from({ length: k + 1 }, (_, i) => agentAt(c, i)) })
}

const settledStatus = (s: SessionRecord) => ['idle', 'aborted', 'error'].includes(s.status)

/** The last child's own transcript, per outcome. */
function expectChildTranscript(c: MatrixCase, child: Required<StoredLevel>): void {
  const roles = child.messages.map((m) => m.role)
  const n = depthOf(c)
  switch (c.outcome) {
    case 'success':
      expect(texts(child.messages)).toEqual([c.leafText ?? doneText(c, n)])
      break
    case 'tool-error': {
      const read = child.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool-read_file')!
      expect(read.toolState).toBe('output-error')
      expect(String(read.data.error)).toContain(missingFile(c))
      expect(texts(child.messages)).toEqual([toolErrorText(c)])
      break
    }
    case 'approval-wait': {
      const write = child.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool-write_file')!
      expect(write.toolState).toBe('output-available')
      expect(texts(child.messages)).toEqual([doneText(c, n)])
      break
    }
    case 'resume':
      // One session, two runs one after the other, never side by side.
      expect(roles).toEqual(['user', 'assistant', 'user', 'assistant'])
      expect(texts(child.messages)).toEqual([doneText(c, n), resumedText(c, n)])
      break
    default:
      // Cut short: its prompt is there, no answer was made up for it.
      expect(roles[0]).toBe('user')
      expect(texts(child.messages)).not.toContain(doneText(c, n))
  }
}
