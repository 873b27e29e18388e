import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PartRecord } from '../../src-shared'
import { openStore } from './store'
import type { Store } from './store'
import { StoreError } from './store-error'

let dir: string
let file: string
let store: Store
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-store-'))
  file = path.join(dir, 'agentry.db')
  store = openStore(file)
})
afterEach(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

function textPart(id: string, messageId: string, sessionId: string, index: number, text: string): PartRecord {
  return { id, messageId, sessionId, index, type: 'text', data: { text }, toolCallId: null, toolState: null }
}

function setup() {
  const session = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
  const user = store.transcript.createMessage({ sessionId: session.id, role: 'user' })
  const assistant = store.transcript.createMessage({ sessionId: session.id, role: 'assistant', metadata: { model: 'm' } })
  return { session, user, assistant }
}

const tick = () => new Promise((r) => setImmediate(r))

describe('messages', () => {
  it('lists messages in creation order with their parts ordered by index', () => {
    const { session, user, assistant } = setup()
    store.transcript.upsertPart(textPart('prt_b', assistant.id, session.id, 1, 'second'))
    store.transcript.upsertPart(textPart('prt_a', assistant.id, session.id, 0, 'first'))
    store.transcript.upsertPart(textPart('prt_u', user.id, session.id, 0, 'question'))
    const list = store.transcript.listMessages(session.id)
    expect(list.map((m) => m.id)).toEqual([user.id, assistant.id])
    expect(list[0].parts.map((p) => p.data.text)).toEqual(['question'])
    expect(list[1].parts.map((p) => p.data.text)).toEqual(['first', 'second'])
    expect(list[1].metadata).toEqual({ model: 'm' })
  })

  it('merges metadata shallowly and hides messages with hiddenAt unless asked', () => {
    const { session, user, assistant } = setup()
    const updated = store.transcript.updateMessageMetadata(assistant.id, { hiddenAt: 123 })
    expect(updated.metadata).toEqual({ model: 'm', hiddenAt: 123 })
    expect(store.transcript.listMessages(session.id).map((m) => m.id)).toEqual([user.id])
    expect(store.transcript.listMessages(session.id, { includeHidden: true }).map((m) => m.id)).toEqual([user.id, assistant.id])
    expect(() => store.transcript.updateMessageMetadata('msg_nope', {})).toThrow(/no message with id "msg_nope"/)
  })

  it('refuses a message for an unknown session', () => {
    expect(() => store.transcript.createMessage({ sessionId: 'ses_ghost', role: 'user' })).toThrow(/sessionId "ses_ghost"/)
  })
})

describe('buffered part upserts', () => {
  it('are visible to reads before any flush, coalesced to the latest version', () => {
    const { session, assistant } = setup()
    let text = ''
    for (let i = 0; i < 50; i++) {
      text += 'ab'
      store.transcript.upsertPart(textPart('prt_grow', assistant.id, session.id, 0, text))
    }
    expect(store.transcript.getPart('prt_grow')?.data.text).toBe(text)
    const parts = store.transcript.listMessages(session.id)[1].parts
    expect(parts).toHaveLength(1)
    expect(parts[0].data.text).toBe(text)
  })

  it('are written by the next tick and survive close + reopen', async () => {
    const { session, assistant } = setup()
    store.transcript.upsertPart(textPart('prt_1', assistant.id, session.id, 0, 'hello'))
    await tick()
    // A second connection sees the row only once it is committed.
    const other = openStore(file)
    expect(other.transcript.getPart('prt_1')?.data.text).toBe('hello')
    other.close()

    store.transcript.upsertPart(textPart('prt_1', assistant.id, session.id, 0, 'hello world'))
    store.close()
    store = openStore(file)
    expect(store.transcript.getPart('prt_1')?.data.text).toBe('hello world')
  })

  it('flushes synchronously once maxBuffered rows wait', () => {
    store.close()
    store = openStore(file, { maxBuffered: 10 })
    const { session, assistant } = setup()
    let flushes = 0
    store.eventLog.onFlush(() => flushes++)
    for (let i = 0; i < 25; i++) store.transcript.upsertPart(textPart(`prt_${i}`, assistant.id, session.id, i, 'x'))
    expect(flushes).toBe(2)
  })

  it('calls onFlush after the rows are committed, and stops after dispose', async () => {
    const { session, assistant } = setup()
    const seenByOtherConnection: Array<string | undefined> = []
    const dispose = store.eventLog.onFlush(() => {
      const other = openStore(file)
      seenByOtherConnection.push(other.transcript.getPart('prt_1')?.data.text as string | undefined)
      other.close()
    })
    store.transcript.upsertPart(textPart('prt_1', assistant.id, session.id, 0, 'committed'))
    await tick()
    expect(seenByOtherConnection).toEqual(['committed'])
    dispose()
    store.transcript.upsertPart(textPart('prt_1', assistant.id, session.id, 0, 'again'))
    store.flush()
    expect(seenByOtherConnection).toEqual(['committed'])
  })

  it('drops a part whose message is gone with a log line naming it, and still writes the good rows (no throw)', () => {
    const lines: string[] = []
    store.close()
    store = openStore(file, { log: (l) => lines.push(l) })
    const { session, assistant } = setup()
    store.transcript.upsertPart(textPart('prt_ok', assistant.id, session.id, 0, 'fine'))
    store.transcript.upsertPart(textPart('prt_bad', 'msg_missing', session.id, 0, 'orphan'))
    expect(() => store.flush()).not.toThrow()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/dropped write.*prt_bad .*message "msg_missing" does not exist/)
    expect(lines[0]).not.toContain('orphan')
    expect(store.transcript.getPart('prt_ok')?.data.text).toBe('fine')
    expect(store.transcript.getPart('prt_bad')).toBeUndefined()
  })

  it('a part written for a session deleted meanwhile is dropped on the timer flush, never thrown', async () => {
    const lines: string[] = []
    const errors: unknown[] = []
    store.close()
    store = openStore(file, { log: (l) => lines.push(l) })
    store.onError((e) => errors.push(e))
    const { session, assistant } = setup()
    store.flush()
    // The delete's own flush runs first; the write after it is for a message that is gone.
    store.sessions.deleteSession(session.id)
    store.transcript.upsertPart(textPart('prt_late', assistant.id, session.id, 0, 'late'))
    await tick()
    expect(errors).toEqual([])
    expect(lines.join('\n')).toContain('prt_late')
    // A run still streaming into it: one line per session, not one per chunk.
    for (let i = 0; i < 5; i++) {
      store.transcript.upsertPart(textPart(`prt_late${i}`, assistant.id, session.id, 0, 'late'))
      store.flush()
    }
    expect(lines).toHaveLength(1)
  })

  it('names the bad row and keeps the good ones when a part cannot be written for another reason', () => {
    const { session, assistant } = setup()
    store.transcript.upsertPart(textPart('prt_ok', assistant.id, session.id, 0, 'fine'))
    store.transcript.upsertPart({ ...textPart('prt_bad', assistant.id, session.id, 1, ''), data: { n: 1n } })
    let err: unknown
    try {
      store.flush()
    } catch (e) {
      err = e
    }
    expect(StoreError.isInstance(err) && err.code).toBe('write_failed')
    expect(String(err)).toMatch(/prt_bad \(TypeError: Do not know how to serialize a BigInt\)/)
    expect(store.transcript.getPart('prt_ok')?.data.text).toBe('fine')
  })

  it('reports a failed timer flush to onError listeners', async () => {
    const errors: unknown[] = []
    store.onError((e) => errors.push(e))
    const { session, assistant } = setup()
    store.transcript.upsertPart({ ...textPart('prt_bad', assistant.id, session.id, 0, ''), data: { n: 1n } })
    await tick()
    expect(errors).toHaveLength(1)
    expect(String(errors[0])).toContain('prt_bad')
  })

  it('lists tool parts left open (for the restart sweep)', () => {
    const { session, assistant } = setup()
    const tool = (id: string, index: number, toolState: PartRecord['toolState']): PartRecord => ({
      id,
      messageId: assistant.id,
      sessionId: session.id,
      index,
      type: 'tool-bash',
      data: { input: { command: 'ls' } },
      toolCallId: `call_${id}`,
      toolState,
    })
    store.transcript.upsertPart(tool('prt_a', 0, 'input-streaming'))
    store.transcript.upsertPart(tool('prt_b', 1, 'input-available'))
    store.transcript.upsertPart(tool('prt_c', 2, 'approval-requested'))
    store.transcript.upsertPart(tool('prt_d', 3, 'output-available'))
    store.transcript.upsertPart(tool('prt_e', 4, 'output-error'))
    expect(store.transcript.listOpenToolParts().map((p) => p.id)).toEqual(['prt_a', 'prt_b', 'prt_c'])
    store.transcript.upsertPart(tool('prt_a', 0, 'output-error'))
    expect(store.transcript.listOpenToolParts().map((p) => p.id)).toEqual(['prt_b', 'prt_c'])
  })
})

describe('transaction', () => {
  it('commits buffered writes made inside it together with direct writes', () => {
    const { session, assistant } = setup()
    let flushes = 0
    store.eventLog.onFlush(() => flushes++)
    store.transaction(() => {
      store.sessions.updateSession(session.id, { title: 't' })
      store.transcript.upsertPart(textPart('prt_t', assistant.id, session.id, 0, 'inside'))
    })
    expect(flushes).toBe(1)
    store.close()
    store = openStore(file)
    expect(store.transcript.getPart('prt_t')?.data.text).toBe('inside')
    expect(store.sessions.getSession(session.id)?.title).toBe('t')
  })

  it('rolls back everything, buffered writes included, when fn throws', () => {
    const { session, assistant } = setup()
    expect(() =>
      store.transaction(() => {
        store.sessions.updateSession(session.id, { title: 'never' })
        store.transcript.upsertPart(textPart('prt_r', assistant.id, session.id, 0, 'never'))
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(store.transcript.getPart('prt_r')).toBeUndefined()
    expect(store.sessions.getSession(session.id)?.title).toBe('')
  })
})

describe('beforeFlush', () => {
  it('writes rows added just before a flush in the same transaction, before any listener hears of the flush', async () => {
    const { session, assistant } = setup()
    const seenAtFlush: (string | undefined)[] = []
    store.eventLog.onFlush(() => {
      const other = openStore(file)
      seenAtFlush.push(other.transcript.getPart('prt_late')?.data.text as string | undefined)
      other.close()
    })
    store.eventLog.appendEvent({ seq: 1, stream: session.id, event: { type: 'status_change', sessionId: session.id, at: 1, status: 'busy' } })
    // a nested copy registers late; a copy that changes another copy (nesting) runs in the same flush too
    store.transcript.beforeFlush(() => {
      store.transcript.upsertPart(textPart('prt_late', assistant.id, session.id, 0, 'outer'))
      store.transcript.beforeFlush(() => store.transcript.upsertPart(textPart('prt_late', assistant.id, session.id, 0, 'outer+inner')))
    })
    await tick()
    expect(seenAtFlush).toEqual(['outer+inner'])
  })

  it('schedules a flush by itself', async () => {
    const { session, assistant } = setup()
    store.transcript.beforeFlush(() => store.transcript.upsertPart(textPart('prt_alone', assistant.id, session.id, 0, 'x')))
    await tick()
    const other = openStore(file)
    expect(other.transcript.getPart('prt_alone')?.data.text).toBe('x')
    other.close()
  })
})
