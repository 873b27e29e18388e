import type { CallResult } from '../../../src-shared'
import type { Call } from './bridge-fuzz'

/**
 * The hostile sequences issue 10 names, written against the bridge alone (so the same table runs in process and
 * against `agentry serve` over WebSocket). Each throws when an answer is not what a careful host gives; the caller
 * then checks the host is healthy. The host must run FUZZ_SCRIPT / FUZZ_AGENTS / FUZZ_PERMISSIONS.
 */
export interface Scenario {
  name: string
  run(call: Call, workdir: string): Promise<void>
}

type Session = { id: string; parentId: string | null; status: string }

async function data<T>(p: Promise<CallResult<unknown>>): Promise<T> {
  const r = await p
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`)
  return r.data as T
}

function expectCode(r: CallResult<unknown>, ...codes: string[]): void {
  const got = r.ok ? 'ok' : r.error.code
  if (!codes.includes(got)) throw new Error(`expected ${codes.join(' or ')}, got ${got}${r.ok ? '' : `: ${r.error.message}`}`)
}

/** Polls `get` over the bridge until it returns something (a loaded machine gets room). */
async function until<T>(get: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await get()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const newSession = async (call: Call, workdir: string) => (await data<{ session: { id: string } }>(call('sessions.create', { workspaceRoot: workdir }))).session.id
const prompt = (call: Call, sessionId: string, text: string) => data<{ queueId: string }>(call('messages.prompt', { sessionId, requestId: `r-${Math.random()}`, text }))
const children = async (call: Call, parentId: string) => (await data<{ sessions: Session[] }>(call('sessions.list', { parentId, includeArchived: true }))).sessions
const child = (call: Call, parentId: string, busy = false) =>
  until(async () => (await children(call, parentId)).find((c) => !busy || c.status === 'busy'), `a ${busy ? 'busy ' : ''}child of ${parentId}`)
const pendingApproval = (call: Call, root: string) =>
  until(async () => (await data<{ approvals: { id: string }[] }>(call('approvals.list', { rootSessionId: root }))).approvals[0], `an approval in ${root}`)

export const HOSTILE_SCENARIOS: Scenario[] = [
  {
    name: 'delete while running',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'fanout')
      await child(call, s)
      expectCode(await call('sessions.delete', { sessionId: s }), 'ok')
    },
  },
  {
    name: 'abort twice (and abort an idle and a deleted session)',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'slow')
      const both = await Promise.all([call('messages.abort', { sessionId: s }), call('messages.abort', { sessionId: s })])
      for (const r of both) expectCode(r, 'ok')
      expectCode(await call('messages.abort', { sessionId: s }), 'ok')
      expectCode(await call('sessions.delete', { sessionId: s }), 'ok')
      expectCode(await call('messages.abort', { sessionId: s }), 'not_found')
    },
  },
  {
    name: 'answer an approval twice (at once, and again later)',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'ask')
      const a = await pendingApproval(call, s)
      const both = await Promise.all([call('approvals.answer', { approvalId: a.id, decision: 'allow_once' }), call('approvals.answer', { approvalId: a.id, decision: 'deny' })])
      if (both.filter((r) => r.ok).length !== 1) throw new Error(`exactly one answer must win: ${JSON.stringify(both)}`)
      for (const r of both) expectCode(r, 'ok', 'conflict')
      expectCode(await call('approvals.answer', { approvalId: a.id, decision: 'allow_always', scope: 'session' }), 'conflict')
    },
  },
  {
    name: 'prompt, summarize and rename a deleted session',
    async run(call, w) {
      const s = await newSession(call, w)
      expectCode(await call('sessions.delete', { sessionId: s }), 'ok')
      expectCode(await call('messages.prompt', { sessionId: s, requestId: 'x', text: 'hello' }), 'not_found')
      expectCode(await call('sessions.summarize', { sessionId: s }), 'not_found')
      expectCode(await call('sessions.rename', { sessionId: s, title: 'x' }), 'not_found')
    },
  },
  {
    name: 'archive a running child',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'fanout')
      const c = await child(call, s, true)
      const archived = await data<{ session: { status: string; archivedAt: number | null } }>(call('sessions.archive', { sessionId: c.id, archived: true }))
      if (archived.session.archivedAt === null || archived.session.status === 'busy') throw new Error(`archived child: ${JSON.stringify(archived.session)}`)
    },
  },
  {
    name: 'delete a parent whose background child runs',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'nested')
      const lead = await child(call, s)
      await child(call, lead.id, true)
      expectCode(await call('sessions.delete', { sessionId: lead.id }), 'ok')
    },
  },
  {
    name: 'delete a session waiting on an approval, then answer it',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'ask')
      const a = await pendingApproval(call, s)
      expectCode(await call('sessions.delete', { sessionId: s }), 'ok')
      expectCode(await call('approvals.answer', { approvalId: a.id, decision: 'allow_once' }), 'not_found')
    },
  },
  {
    name: 'delete and archive the same running session at once',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'fanout')
      await child(call, s)
      const all = await Promise.all([call('sessions.archive', { sessionId: s, archived: true }), call('sessions.delete', { sessionId: s }), call('sessions.delete', { sessionId: s })])
      for (const r of all) expectCode(r, 'ok', 'not_found')
    },
  },
  {
    name: 'summarize a session while it is deleted',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'slow')
      await until(async () => ((await data<{ session: Session }>(call('sessions.get', { sessionId: s }))).session.status === 'busy' ? undefined : true), 'the run to end')
      const summary = call('sessions.summarize', { sessionId: s })
      expectCode(await call('sessions.delete', { sessionId: s }), 'ok')
      expectCode(await summary, 'ok', 'not_found', 'conflict')
    },
  },
  {
    name: 'cancel a queued prompt and abort a task while their tree is deleted',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'nested')
      const q = await prompt(call, s, 'slow')
      const lead = await child(call, s)
      const [del, cancel, abort] = await Promise.all([call('sessions.delete', { sessionId: s }), call('queue.cancel', { queueId: q.queueId }), call('tasks.abort', { taskId: lead.id })])
      expectCode(del, 'ok')
      expectCode(cancel, 'ok', 'not_found')
      expectCode(abort, 'ok')
    },
  },
  {
    name: 'prompt a running inspectable child directly, then delete its parent',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'fanout')
      const c = await child(call, s, true)
      expectCode(await call('messages.prompt', { sessionId: c.id, requestId: `c-${Math.random()}`, text: 'ask' }), 'ok', 'conflict')
      expectCode(await call('sessions.delete', { sessionId: s }), 'ok')
    },
  },
  {
    name: 'stop a conversation once while a child has background work: nothing starts again',
    async run(call, w) {
      const s = await newSession(call, w)
      await prompt(call, s, 'nested')
      const lead = await child(call, s)
      await child(call, lead.id, true)
      expectCode(await call('messages.abort', { sessionId: s }), 'ok')
      // One Stop, no more: the whole tree comes to rest (a stopped child's result must not wake its parent again).
      const BUSY = new Set(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])
      let last = ''
      await until(async () => {
        const all = (await data<{ sessions: Session[] }>(call('sessions.list', { includeChildren: true, includeArchived: true, limit: 20_000 }))).sessions
        const tasks = (await data<{ tasks: { taskId: string; status: string }[] }>(call('tasks.list', { rootSessionId: s }))).tasks
        // Only this conversation's tree: other scenarios and the fuzz traffic may well be running meanwhile.
        const parent = new Map(all.map((x) => [x.id, x.parentId]))
        const inTree = (id: string | null): boolean => id !== null && (id === s || inTree(parent.get(id) ?? null))
        const busy = all.filter((x) => BUSY.has(x.status) && inTree(x.id))
        const running = tasks.filter((t) => t.status === 'running')
        last = `busy: ${busy.map((x) => `${x.id} (parent ${x.parentId}, ${x.status})`).join(', ')}; running tasks: ${running.map((t) => t.taskId).join(', ')}`
        return busy.length || running.length ? undefined : true
      }, 'the stopped conversation to come to rest').catch((err: Error) => {
        throw new Error(`${err.message} (${last}; root ${s}, lead ${lead.id})`)
      })
    },
  },
]
