import { beforeEach, describe, expect, it } from 'vitest'
import { foldRunEvent, type ApprovalRecord, type LeafEvent, type RunMap, type RunNode, type SessionRecord, type TaskCard } from '../../src-shared'
import { newTaskCard } from '../../src-shared/task-card'
import { runMapRows, runMapSummary } from './run-map-rows'
import { beginRunMapLoad, foldRunBatch, runMapLoadFailed, seedRunMap, useRunMap, waitingByNode } from './run-map-store'

const node = (id: string, parentId: string | null, extra: Partial<RunNode> = {}): RunNode => ({
  id, parentId, depth: 0, agentType: parentId ? 'worker' : 'build', label: `label ${id}`, status: 'running', background: false, fork: false,
  inspectable: parentId === null, startedAt: 1, endedAt: null, steps: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, currentTool: null, ...extra,
})

const card = (taskId: string, extra: Partial<TaskCard> = {}): Omit<TaskCard, 'transcript'> => ({
  ...newTaskCard({ taskId, agentType: 'worker', description: `do ${taskId}`, background: false, inspectable: false, depth: 1, status: 'running' }),
  startedAt: 10,
  ...extra,
})
const taskUpdate = (parent: string, task: Omit<TaskCard, 'transcript'>): LeafEvent => ({ type: 'task_update', sessionId: parent, at: 1, messageId: 'm', partId: `p-${task.taskId}`, toolCallId: `c-${task.taskId}`, task })
const toolStart = (sessionId: string, toolName: string): LeafEvent => ({ type: 'tool_call_start', sessionId, at: 1, messageId: 'm', partId: 'p', toolCallId: 'c', toolName, input: {} })
const delta = (sessionId: string): LeafEvent => ({ type: 'content_delta', sessionId, at: 1, messageId: 'm', partId: 'p', partType: 'text', delta: 'x' })
const approval = (id: string, sessionId: string, rootSessionId: string) => ({ id, sessionId, rootSessionId, status: 'pending' }) as ApprovalRecord

const reset = () => useRunMap.setState({ rootId: null, nodes: {}, loading: false, ready: false, error: null, collapsed: {}, shown: null })

describe('run map store: seed and fold', () => {
  beforeEach(reset)

  it('seeds from the snapshot, then folds a frame of events into one update', () => {
    beginRunMapLoad('root')
    expect(useRunMap.getState()).toMatchObject({ rootId: 'root', loading: true, ready: false })
    seedRunMap('root', [node('root', null), node('a', 'root')])
    expect(Object.keys(useRunMap.getState().nodes)).toEqual(['root', 'a'])
    let updates = 0
    const stop = useRunMap.subscribe(() => updates++)
    foldRunBatch('root', [delta('a'), taskUpdate('root', card('b')), toolStart('b', 'read_file'), taskUpdate('b', card('b1', { depth: 2 })), delta('b')])
    stop()
    expect(updates).toBe(1)
    const { nodes } = useRunMap.getState()
    expect(nodes.b).toMatchObject({ parentId: 'root', label: 'do b', currentTool: 'read_file', status: 'running' })
    expect(nodes.b1.parentId).toBe('b')
  })

  it('folding a batch gives what the shared fold gives one event at a time', () => {
    const seed = [node('root', null), node('a', 'root')]
    const events = [
      taskUpdate('root', card('b')),
      toolStart('b', 'read_file'),
      taskUpdate('b', card('b1', { depth: 2 })),
      toolStart('b1', 'grep'),
      { type: 'tool_call_end', sessionId: 'b', at: 1, messageId: 'm', partId: 'p', toolCallId: 'c', toolName: 'read_file', ok: true, output: '', durationMs: 1 } as LeafEvent,
      taskUpdate('root', card('b', { status: 'completed', endedAt: 9 })),
      { type: 'status_change', sessionId: 'root', at: 1, status: 'idle' } as LeafEvent,
      delta('a'),
    ]
    let oneByOne: RunMap = Object.fromEntries(seed.map((n) => [n.id, n]))
    for (const e of events) oneByOne = foldRunEvent(oneByOne, e)
    beginRunMapLoad('root')
    seedRunMap('root', seed)
    foldRunBatch('root', events)
    expect(useRunMap.getState().nodes).toEqual(oneByOne)
  })

  it('a frame with nothing for the map (text deltas) changes nothing and renders nothing', () => {
    beginRunMapLoad('root')
    seedRunMap('root', [node('root', null)])
    const before = useRunMap.getState().nodes
    let updates = 0
    const stop = useRunMap.subscribe(() => updates++)
    foldRunBatch('root', [delta('root'), delta('root')])
    stop()
    expect(updates).toBe(0)
    expect(useRunMap.getState().nodes).toBe(before)
  })

  it('events folded while the snapshot was on its way are folded again over it (the snapshot may predate them)', () => {
    beginRunMapLoad('root')
    foldRunBatch('root', [taskUpdate('root', card('a', { status: 'completed', endedAt: 50, steps: 3 }))])
    // The snapshot was taken before `a` ended.
    seedRunMap('root', [node('root', null), node('a', 'root', { status: 'running', steps: 1 })])
    expect(useRunMap.getState().nodes.a).toMatchObject({ status: 'completed', endedAt: 50, steps: 3 })
    // Once seeded, nothing is replayed again.
    seedRunMap('root', [node('root', null), node('a', 'root', { status: 'running' })])
    expect(useRunMap.getState().nodes.a.status).toBe('running')
  })

  it("ignores another root's events and a stale snapshot; a new root starts empty, the same root keeps its nodes while reloading", () => {
    beginRunMapLoad('root')
    seedRunMap('root', [node('root', null)])
    foldRunBatch('other', [taskUpdate('other', card('x'))])
    seedRunMap('other', [node('other', null)])
    expect(Object.keys(useRunMap.getState().nodes)).toEqual(['root'])
    beginRunMapLoad('root')
    expect(Object.keys(useRunMap.getState().nodes)).toEqual(['root'])
    beginRunMapLoad('second')
    expect(useRunMap.getState()).toMatchObject({ rootId: 'second', nodes: {}, ready: false })
    runMapLoadFailed('second', { context: 'Loading the run map', message: 'boom', hint: '' })
    expect(useRunMap.getState()).toMatchObject({ loading: false, error: { message: 'boom' } })
  })

  it("follows the root's title and own spend from session_updated", () => {
    beginRunMapLoad('root')
    seedRunMap('root', [node('root', null, { label: 'Untitled conversation' })])
    const session = { id: 'root', title: 'Fan-out demo', usage: { prompt: 100, completion: 20 }, costUsd: 0.5 } as SessionRecord
    foldRunBatch('root', [{ type: 'session_updated', sessionId: 'root', at: 1, session }])
    expect(useRunMap.getState().nodes.root).toMatchObject({ label: 'Fan-out demo', tokensIn: 100, tokensOut: 20, costUsd: 0.5 })
  })
})

describe('run map: waiting on the person', () => {
  it("counts each node's own pending approvals, for the open root only", () => {
    const pending = Object.fromEntries(
      [approval('1', 'a', 'root'), approval('2', 'a', 'root'), approval('3', 'root', 'root'), approval('4', 'x', 'elsewhere')].map((a) => [a.id, a]),
    )
    expect(waitingByNode(pending, 'root')).toEqual({ a: 2, root: 1 })
    expect(waitingByNode(pending, null)).toEqual({})
  })
})

describe('run map rows', () => {
  const map = Object.fromEntries(
    [
      node('root', null),
      node('b', 'root', { startedAt: 20 }),
      node('a', 'root', { startedAt: 10 }),
      node('a2', 'a', { startedAt: 12 }),
      node('a1', 'a', { startedAt: 11 }),
      node('a1x', 'a1', { startedAt: 13 }),
      // its parent is not in the map (yet): listed at the top level rather than lost
      node('orphan', 'missing', { startedAt: 5 }),
    ].map((n) => [n.id, n]),
  )

  it('lists the tree in order, siblings as the map first heard of them, with levels and places among siblings', () => {
    const rows = runMapRows(map, {})
    expect(rows.map((r) => `${r.node.id}@${r.level} ${r.pos}/${r.siblings}${r.hasChildren ? '+' : ''}`)).toEqual([
      'root@0 1/2+',
      'b@1 1/2',
      'a@1 2/2+',
      'a2@2 1/2',
      'a1@2 2/2+',
      'a1x@3 1/1',
      'orphan@0 2/2',
    ])
  })

  it('a queued child that starts keeps its place (no rows jump while a fan-out starts)', () => {
    const m = { root: node('root', null), q: node('q', 'root', { status: 'queued', startedAt: null }), r: node('r', 'root', { startedAt: 5 }) }
    const before = runMapRows(m, {}).map((r) => r.node.id)
    const after = runMapRows({ ...m, q: { ...m.q, status: 'running', startedAt: 9 } }, {}).map((r) => r.node.id)
    expect(after).toEqual(before)
    expect(before).toEqual(['root', 'q', 'r'])
  })

  it("hides a collapsed node's descendants, and only those", () => {
    const rows = runMapRows(map, { a: true, b: true })
    expect(rows.map((r) => r.node.id)).toEqual(['root', 'b', 'a', 'orphan'])
    expect(rows.find((r) => r.node.id === 'a')?.collapsed).toBe(true)
    // a leaf cannot be collapsed
    expect(rows.find((r) => r.node.id === 'b')?.collapsed).toBe(false)
  })

  it('sums up agents, running, waiting and cost', () => {
    const m = {
      root: node('root', null, { costUsd: 0.1 }),
      a: node('a', 'root', { costUsd: 0.2 }),
      b: node('b', 'root', { status: 'queued', costUsd: null, tokensIn: 0 }),
      c: node('c', 'root', { status: 'completed', costUsd: null, tokensIn: 5 }),
    }
    expect(runMapSummary(m, { a: 1, c: 0 })).toEqual({ agents: 3, running: 2, queued: 1, waiting: 1, costUsd: 0.30000000000000004, unpriced: true })
  })
})
