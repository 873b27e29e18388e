import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent, SequencedEvent } from '../../src-shared'
import { openStore } from './store'
import type { Store } from './store'

let dir: string
let store: Store
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-events-'))
  store = openStore(path.join(dir, 'agentry.db'))
})
afterEach(() => {
  store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

function delta(seq: number, stream = 'ses_root'): SequencedEvent {
  const event: AgentEvent = {
    type: 'content_delta',
    sessionId: stream,
    at: 1000 + seq,
    messageId: 'msg_1',
    partId: 'prt_1',
    partType: 'text',
    delta: `d${seq}`,
  }
  return { seq, stream, event }
}

describe('event log', () => {
  it('is empty for an unknown stream', () => {
    expect(store.eventLog.lastSeq('ses_none')).toBe(0)
    expect(store.eventLog.oldestSeq('ses_none')).toBeUndefined()
    expect(store.eventLog.eventsAfter('ses_none', 0)).toEqual([])
  })

  it('replays events after a seq, ascending, including ones still buffered', () => {
    for (let s = 1; s <= 5; s++) store.eventLog.appendEvent(delta(s))
    store.eventLog.appendEvent(delta(1, 'ses_other'))
    expect(store.eventLog.lastSeq('ses_root')).toBe(5)
    const replay = store.eventLog.eventsAfter('ses_root', 2)
    expect(replay.map((e) => e.seq)).toEqual([3, 4, 5])
    expect(replay[0]).toEqual(delta(3))
    expect(store.eventLog.eventsAfter('ses_root', 0, 2).map((e) => e.seq)).toEqual([1, 2])
    store.eventLog.appendEvent(delta(6))
    expect(store.eventLog.lastSeq('ses_root')).toBe(6)
    expect(store.eventLog.eventsAfter('ses_root', 5).map((e) => e.seq)).toEqual([6])
    expect(store.eventLog.lastSeq('ses_other')).toBe(1)
  })

  it('writes large batches of events from several streams intact and in order', () => {
    const expected: SequencedEvent[] = []
    for (let s = 1; s <= 1_037; s++) {
      const e = delta(s, s % 3 === 0 ? 'ses_b' : 'ses_a')
      store.eventLog.appendEvent(e)
      expected.push(e)
    }
    store.flush()
    const a = store.eventLog.eventsAfter('ses_a', 0)
    const b = store.eventLog.eventsAfter('ses_b', 0)
    expect(a).toEqual(expected.filter((e) => e.stream === 'ses_a'))
    expect(b).toEqual(expected.filter((e) => e.stream === 'ses_b'))
    expect(store.eventLog.lastSeq('ses_b')).toBe(1_035)
  })

  it('keeps the events across close and reopen', () => {
    for (let s = 1; s <= 3; s++) store.eventLog.appendEvent(delta(s))
    store.close()
    store = openStore(path.join(dir, 'agentry.db'))
    expect(store.eventLog.eventsAfter('ses_root', 0)).toEqual([delta(1), delta(2), delta(3)])
  })

  it('prunes to the newest events and reports the oldest kept', () => {
    for (let s = 1; s <= 10; s++) store.eventLog.appendEvent(delta(s))
    store.eventLog.appendEvent(delta(1, 'ses_other'))
    expect(store.eventLog.oldestSeq('ses_root')).toBe(1)
    store.eventLog.pruneEvents('ses_root', 3)
    expect(store.eventLog.oldestSeq('ses_root')).toBe(8)
    expect(store.eventLog.eventsAfter('ses_root', 0).map((e) => e.seq)).toEqual([8, 9, 10])
    expect(store.eventLog.lastSeq('ses_root')).toBe(10)
    expect(store.eventLog.oldestSeq('ses_other')).toBe(1)
  })
})
