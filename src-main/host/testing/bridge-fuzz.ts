import type { BridgeCallName, CallResult } from '../../../src-shared'
import { BridgeCalls } from '../../../src-shared'

/**
 * Valid-but-hostile bridge traffic for the robustness tests and the soak bench: every call of the contract, with
 * inputs drawn from what the host handed out so far (live, deleted and never-existing ids alike), some awaited at
 * once and some left in flight while the next calls go out — delete while running, abort twice, answer twice, prompt
 * a deleted session, archive a running child. Works over any transport: it only needs `call`.
 */
export type Call = (name: BridgeCallName, input: unknown) => Promise<CallResult<unknown>>

/** The script every fuzzed host runs: the prompt's words pick what the run does. */
export const FUZZ_SCRIPT = {
  agents: {
    build: [
      { match: 'fanout', step: 1, repeat: true, tools: [task('worker', 'inspect'), task('helper', 'opaque'), task('worker', 'later', true)] },
      { match: 'ask', step: 1, repeat: true, tools: [{ name: 'bash', input: { command: 'sleep 0.2; echo asked' } }] },
      { match: 'question', step: 1, repeat: true, tools: [{ name: 'question', input: { question: 'Which one?', options: ['a', 'b'] } }] },
      { match: 'nested', step: 1, repeat: true, tools: [task('lead', 'lead')] },
      { match: 'slow', step: 1, repeat: true, text: words(40), chunkDelayMs: 15 },
      { text: 'done', repeat: true },
    ],
    worker: [
      { match: 'ask', step: 1, repeat: true, tools: [{ name: 'bash', input: { command: 'sleep 0.2' } }] },
      { text: words(30), chunkDelayMs: 15, repeat: true },
    ],
    helper: [{ text: words(20), chunkDelayMs: 15, repeat: true }],
    lead: [{ step: 1, repeat: true, tools: [task('worker', 'grandchild', true), task('worker', 'ask grandchild')] }, { text: 'lead done', repeat: true }],
    '*': [{ text: 'a short title', repeat: true }],
  },
}

export const FUZZ_AGENTS = {
  worker: { mode: 'all', inspectable: true },
  helper: { mode: 'subagent' },
  lead: { mode: 'subagent', inspectable: true },
}

/** `bash` asks (so approvals appear); the rest of the defaults stand. */
export const FUZZ_PERMISSIONS = '{ "bash": "ask" }'

function task(subagent_type: string, prompt: string, background = false) {
  return { name: 'task', input: { subagent_type, description: prompt, prompt, background } }
}

function words(n: number): string {
  return Array.from({ length: n }, (_, i) => `w${i}`).join(' ')
}

/** Small deterministic PRNG (mulberry32), so a failing seed can be replayed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** What the host handed out so far; deleted ids stay in (using them is part of the point). */
export interface FuzzState {
  workdir: string
  sessions: string[]
  /** deleted by a call of the fuzz (still used now and then: that is the point) */
  deleted: Set<string>
  queue: string[]
  approvals: string[]
  tasks: string[]
  rules: string[]
  /** user messages seen in sessions.get answers (for messages.edit) */
  messages: string[]
  agentsMade: number
}

export interface FuzzOutcome {
  name: BridgeCallName
  result: CallResult<unknown>
}

const PROMPTS = ['fanout', 'ask', 'question', 'nested', 'slow', 'hello']
/** How often each call is drawn: the ones that start, stop and remove work most, every call at least sometimes. */
const WEIGHTS: Partial<Record<BridgeCallName, number>> = {
  'messages.prompt': 8,
  'sessions.create': 3,
  'approvals.answer': 4,
  'sessions.delete': 2,
  'sessions.archive': 2,
  'messages.abort': 2,
  'tasks.abort': 2,
  'sessions.steer': 2,
}
const NAMES = (Object.keys(BridgeCalls) as BridgeCallName[]).flatMap((n) => Array.from({ length: WEIGHTS[n] ?? 1 }, () => n))

export function newFuzzState(workdir: string): FuzzState {
  return { workdir, sessions: [], deleted: new Set(), queue: [], approvals: [], tasks: [], rules: [], messages: [], agentsMade: 0 }
}

/** One call with an input built from the state (or, one time in ten, an id nobody ever had). */
export function nextCall(s: FuzzState, r: () => number, only?: readonly BridgeCallName[]): { name: BridgeCallName; input: unknown } {
  const pick = <T>(xs: readonly T[]): T | undefined => (xs.length ? xs[Math.floor(r() * xs.length)] : undefined)
  const some = (xs: string[], prefix: string): string => (r() < 0.1 ? `${prefix}_never${Math.floor(r() * 1e6)}` : (pick(xs) ?? `${prefix}_none`))
  const live = s.sessions.filter((id) => !s.deleted.has(id))
  // Mostly a session that exists; sometimes a deleted one or one that never did.
  const session = () => (r() < 0.8 && live.length ? pick(live)! : some(s.sessions, 'ses'))
  const name = pick(only ?? NAMES)!
  const inputs: Record<BridgeCallName, () => unknown> = {
    'workspaces.list': () => ({}),
    'workspaces.open': () => ({ root: s.workdir }),
    'workspaces.complete': () => ({ partial: `${s.workdir}/` }),
    'containers.status': () => ({}),
    'files.find': () => (r() < 0.5 ? { workspaceRoot: s.workdir, query: pick(['', 'read', 'md', 'zz'])! } : { sessionId: session(), query: 'a', limit: 5 }),
    'agents.list': () => ({ workspaceRoot: s.workdir }),
    'skills.list': () => ({ workspaceRoot: s.workdir }),
    'commands.list': () => ({ workspaceRoot: s.workdir }),
    'agents.create': () => ({ workspaceRoot: s.workdir, scope: 'workspace', name: `fuzz${s.agentsMade++ % 3}`, description: 'made by the fuzz', mode: 'subagent', prompt: 'You help.' }),
    // Its own workspace's sessions: a fuzz running beside the hostile scenarios (another workspace) leaves theirs alone.
    'sessions.list': () => ({ workspaceRoot: s.workdir, includeChildren: r() < 0.5, includeArchived: r() < 0.5 }),
    'sessions.get': () => ({ sessionId: session() }),
    'sessions.create': () => ({ workspaceRoot: s.workdir, ...(r() < 0.2 ? { agent: 'worker' } : {}) }),
    'sessions.rename': () => ({ sessionId: session(), title: `renamed ${Math.floor(r() * 100)}` }),
    'sessions.archive': () => ({ sessionId: session(), archived: r() < 0.7 }),
    'sessions.summarize': () => ({ sessionId: session() }),
    'sessions.delete': () => ({ sessionId: session() }),
    'messages.prompt': () => ({ sessionId: session(), requestId: `rq${Math.floor(r() * 40)}`, text: pick(PROMPTS)! }),
    'messages.abort': () => ({ sessionId: session() }),
    'queue.list': () => ({ sessionId: session() }),
    'queue.cancel': () => ({ queueId: some(s.queue, 'que') }),
    'approvals.list': () => (r() < 0.5 ? {} : { rootSessionId: session() }),
    'approvals.answer': () => {
      const decision = pick(['allow_once', 'allow_always', 'deny'] as const)!
      return { approvalId: some(s.approvals, 'apr'), decision, ...(decision === 'deny' ? { feedback: 'no' } : {}), ...(decision === 'allow_always' ? { scope: 'session' } : {}) }
    },
    'tasks.list': () => ({ rootSessionId: session() }),
    'tasks.abort': () => ({ taskId: some(s.tasks, 'ses') }),
    'runs.map': () => ({ rootSessionId: session() }),
    'sessions.steer': () => ({ sessionId: r() < 0.5 ? session() : some(s.tasks, 'ses'), text: 'a word from the fuzz' }),
    // No task of the fuzz runs in a worktree: asked about one anyway (and about ids nobody had), the call answers.
    'tasks.worktree': () => ({ sessionId: session(), taskId: some(s.tasks, 'ses'), action: pick(['diff', 'remove'] as const)! }),
    // Undo and revert on whatever the fuzz's turns changed (write-free prompts: nothing, or a conflict), from any state.
    'changes.list': () => ({ sessionId: session() }),
    'changes.undo': () => ({ sessionId: session(), dryRun: r() < 0.5, ...(r() < 0.3 ? { toMessageId: some(s.messages, 'msg') } : {}) }),
    'changes.redo': () => ({ sessionId: session(), dryRun: r() < 0.5 }),
    'changes.revert': () => ({ sessionId: session(), dryRun: r() < 0.5, ...(r() < 0.5 ? { paths: ['a.txt'] } : {}) }),
    'changes.applyWorktree': () => ({ sessionId: session(), taskId: some(s.tasks, 'ses'), dryRun: r() < 0.5 }),
    // Only paths that cannot open anything: the fuzz must not start the desktop's opener.
    'changes.open': () => ({ sessionId: session(), path: pick(['../outside.txt', 'no-such-file.txt', '/etc/passwd', '.'])! }),
    'checkpoints.space': () => ({ prune: r() < 0.2 }),
    'settings.get': () => ({ workspaceRoot: s.workdir }),
    'settings.update': () => pick([{ subagents: { maxConcurrent: 1 + Math.floor(r() * 4) } }, { subagents: { timeoutSeconds: 300 } }, {}])!,
    // Reads, or a refused save: the fuzz does not change the person's budgets.
    'settings.budgets': () => (r() < 0.5 ? {} : { set: { 'budgets.dailyCostUsd': 'lots' } }),
    'providers.setKey': () => ({ provider: 'script', key: 'not-a-real-key' }),
    'providers.removeKey': () => ({ provider: pick(['script', 'nope'])! }),
    'providers.test': () => ({ provider: pick(['script', 'nope'])! }),
    'rules.list': () => ({}),
    'rules.revoke': () => ({ ruleId: some(s.rules, 'rul') }),
    'trust.get': () => ({ workspaceRoot: s.workdir }),
    'hooks.list': () => ({ workspaceRoot: s.workdir }),
    'trust.set': () => ({ workspaceRoot: s.workdir, trusted: r() < 0.5 }),
    'sessions.setModel': () => ({ sessionId: session(), model: pick(['script/other', 'nope/x'])! }),
    'sessions.search': () => ({ workspaceRoot: s.workdir, query: pick(['w1', 'done', 'title'])! }),
    // Retry and edit on live sessions too (a run they start must end with the host like any other).
    'messages.retry': () => ({ sessionId: session(), requestId: `rt${Math.floor(r() * 40)}` }),
    'messages.edit': () => ({ sessionId: session(), requestId: `ed${Math.floor(r() * 40)}`, messageId: some(s.messages, 'msg'), text: pick(PROMPTS)! }),
    'messages.version': () => ({ sessionId: session(), messageId: some(s.messages, 'msg'), index: 1 + Math.floor(r() * 3) }),
    // The person's config.yaml is not rewritten by the fuzz: an incomplete draft is refused, an unknown provider not found.
    'providers.save': () => ({ draft: {}, adding: true }),
    'providers.remove': () => ({ provider: 'nope' }),
    'models.list': () => ({ provider: pick(['script', 'nope'])!, workspaceRoot: s.workdir }),
    'models.info': () => ({ model: pick(['script/test', 'nope/x'])!, workspaceRoot: s.workdir }),
    // No MCP servers are configured in the fuzz's workspace: the calls answer, for a name nobody configured too.
    'mcp.list': () => ({ workspaceRoot: s.workdir }),
    'mcp.control': () => ({ workspaceRoot: s.workdir, name: pick(['nope', 'fuzz'])!, action: pick(['start', 'stop', 'restart'] as const)! }),
  }
  return { name, input: inputs[name]() }
}

/** Learns ids from an answer (sessions, queue entries, approvals, tasks, rules). */
export function learn(s: FuzzState, name: BridgeCallName, result: CallResult<unknown>, input?: unknown): void {
  if (!result.ok) return
  if (name === 'sessions.delete') s.deleted.add((input as { sessionId: string }).sessionId)
  const add = (xs: string[], id: unknown) => typeof id === 'string' && !xs.includes(id) && xs.push(id)
  const d = result.data as Record<string, unknown>
  if (name === 'sessions.create') add(s.sessions, (d.session as { id: string }).id)
  if (name === 'sessions.list') for (const x of d.sessions as { id: string }[]) add(s.sessions, x.id)
  if (name === 'sessions.get') for (const x of d.children as { id: string }[]) add(s.sessions, x.id)
  if (name === 'sessions.get') for (const m of d.messages as { id: string; role: string }[]) if (m.role === 'user') add(s.messages, m.id)
  if (name === 'messages.prompt') add(s.queue, d.queueId)
  if (name === 'approvals.list') for (const a of d.approvals as { id: string }[]) add(s.approvals, a.id)
  if (name === 'tasks.list') for (const t of d.tasks as { taskId: string }[]) add(s.tasks, t.taskId)
  if (name === 'rules.list') for (const x of d.rules as { id: string }[]) add(s.rules, x.id)
}

/**
 * Runs `steps` calls; about a third are left in flight while the next ones go out. Every call must answer within
 * `callTimeoutMs`. Returns every outcome (the caller asserts none is `internal`).
 */
export async function fuzz(call: Call, s: FuzzState, o: { seed: number; steps: number; callTimeoutMs?: number; only?: readonly BridgeCallName[] }): Promise<FuzzOutcome[]> {
  const r = rng(o.seed)
  const outcomes: FuzzOutcome[] = []
  const inFlight: Promise<void>[] = []
  const one = async (name: BridgeCallName, input: unknown): Promise<void> => {
    const result = await withTimeout(call(name, input), o.callTimeoutMs ?? 60_000, `${name} ${JSON.stringify(input)}`)
    learn(s, name, result, input)
    outcomes.push({ name, result })
  }
  for (let i = 0; i < o.steps; i++) {
    // Keep the ids fresh: the hostile part is using them at the wrong moment, not failing to find any.
    if (i % 5 === 0) await one('sessions.list', { workspaceRoot: s.workdir, includeChildren: true, includeArchived: true })
    if (i % 5 === 2) await one('approvals.list', {})
    if (i % 7 === 3 && s.sessions.length) await one('tasks.list', { rootSessionId: s.sessions[Math.floor(r() * s.sessions.length)] })
    const { name, input } = nextCall(s, r, o.only)
    const p = one(name, input)
    if (r() < 0.35) inFlight.push(p)
    else await p
    if (r() < 0.3) await new Promise((res) => setTimeout(res, Math.floor(r() * 40)))
  }
  await Promise.all(inFlight)
  return outcomes
}

/**
 * Ends everything the fuzz started, through the bridge alone: denies every pending approval, aborts every session,
 * then waits until no session is busy and no task runs. Returns what is still busy after `ms` (empty = settled).
 */
export async function quiesce(call: Call, ms = 60_000): Promise<string[]> {
  const end = Date.now() + ms
  const BUSY = new Set(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])
  for (;;) {
    const approvals = await call('approvals.list', {})
    if (approvals.ok) for (const a of (approvals.data as { approvals: { id: string }[] }).approvals) await call('approvals.answer', { approvalId: a.id, decision: 'deny' })
    const list = await call('sessions.list', { includeChildren: true, includeArchived: true, limit: 20_000 })
    if (!list.ok) return [`sessions.list failed: ${list.error.message}`]
    const sessions = (list.data as { sessions: { id: string; parentId: string | null; status: string }[] }).sessions
    const busy: string[] = sessions.filter((x) => BUSY.has(x.status)).map((x) => `session ${x.id} ${x.status}`)
    for (const root of sessions.filter((x) => !x.parentId)) {
      const tasks = await call('tasks.list', { rootSessionId: root.id })
      if (tasks.ok) for (const t of (tasks.data as { tasks: { taskId: string; status: string }[] }).tasks) if (t.status === 'running') busy.push(`task ${t.taskId} running`)
    }
    if (busy.length === 0) return []
    if (Date.now() > end) return busy
    // Stop whole conversations (a root's Stop reaches its background children at any depth), then what is left.
    const byId = new Map(sessions.map((x) => [x.id, x]))
    const rootOf = (x: { id: string; parentId: string | null }): string => {
      let cur = x
      while (cur.parentId && byId.has(cur.parentId)) cur = byId.get(cur.parentId)!
      return cur.id
    }
    const stop = new Set(sessions.filter((x) => BUSY.has(x.status)).flatMap((x) => [rootOf(x), x.id]))
    for (const id of stop) await call('messages.abort', { sessionId: id })
    await new Promise((res) => setTimeout(res, 100))
  }
}

/** For a failed quiesce: what each session still shown busy holds (its agent, parent and the shape of its parts). */
export async function explainBusy(call: Call, left: string[]): Promise<string> {
  const out: string[] = []
  for (const line of left.filter((l) => l.startsWith('session ')).slice(0, 5)) {
    const id = line.split(' ')[1]
    const got = await call('sessions.get', { sessionId: id })
    if (!got.ok) continue
    const d = got.data as { session: { agent: string; parentId: string | null }; messages: { role: string; parts: { type: string; toolState: string | null }[] }[] }
    out.push(`${id} (${d.session.agent}, parent ${d.session.parentId ?? '-'}): ${d.messages.map((m) => `${m.role}[${m.parts.map((p) => `${p.type}:${p.toolState ?? ''}`).join(',')}]`).join(' ')}`)
  }
  return out.join('\n')
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms to ${what}`)), ms)))
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}
