import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, SequencedEvent, SubscriptionMessage } from '../../src-shared'
import { openStore, type Store } from '../store'
import { EventHub } from './hub'

let store: Store | undefined
afterEach(() => store?.close())

function setup(file = ':memory:'): EventHub {
  store = openStore(file)
  return new EventHub(store.eventLog)
}

const delta = (i: number): AgentEvent => ({ type: 'content_delta', sessionId: 's', at: i, messageId: 'm', partId: 'p', partType: 'text', delta: `d${i}` })
const tick = () => new Promise((r) => setImmediate(r))

function collect(hub: EventHub, afterSeq: number, stream = 's') {
  const got: SubscriptionMessage[] = []
  const dispose = hub.subscribe({ sessionId: stream, afterSeq }, (m) => got.push(m))
  return { got, dispose, seqs: () => got.filter((m): m is { kind: 'event'; event: SequencedEvent } => m.kind === 'event').map((m) => m.event.seq) }
}

describe('event hub: seq, replay and catch-up', () => {
  it('assigns a monotonic seq per root stream', async () => {
    const hub = setup()
    const a = [hub.publish('s', delta(1)), hub.publish('t', delta(1)), hub.publish('s', delta(2))]
    expect(a.map((e) => [e.stream, e.seq])).toEqual([['s', 1], ['t', 1], ['s', 2]])
  })

  it('delivers only after the batch is durable, snapshot first', async () => {
    const hub = setup()
    const sub = collect(hub, 0)
    hub.publish('s', delta(1))
    expect(sub.seqs()).toEqual([])
    await tick()
    expect(sub.got[0].kind).toBe('snapshot')
    expect(sub.seqs()).toEqual([1])
    expect(store!.eventLog.eventsAfter('s', 0).map((e) => e.seq)).toEqual([1])
  })

  it('a client that reconnects from any cut point gets exactly the missing events, no gap, no duplicate', async () => {
    const hub = setup()
    let rng = 42
    const random = () => ((rng = (rng * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    const total = 600
    const seen: number[] = []
    let sub = collect(hub, 0)
    let lastSeen = 0
    for (let i = 1; i <= total; i++) {
      hub.publish('s', delta(i))
      if (random() < 0.3) await tick()
      if (random() < 0.05) {
        // disconnect (keep what was received), then reconnect with the last seq seen — sometimes mid-batch
        seen.push(...sub.seqs().filter((s) => s > lastSeen))
        lastSeen = seen.at(-1) ?? lastSeen
        sub.dispose()
        if (random() < 0.5) await tick()
        sub = collect(hub, lastSeen)
      }
    }
    await tick()
    seen.push(...sub.seqs().filter((s) => s > lastSeen))
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => i + 1))
  })

  it('replays from the database after a restart, then answers resync when the cursor is too old', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-hub-')), 'a.db')
    let hub = setup(file)
    for (let i = 1; i <= 50; i++) hub.publish('s', delta(i))
    await tick()
    hub.dispose()
    store!.close()
    hub = setup(file)
    const sub = collect(hub, 40)
    expect(sub.got[0]).toMatchObject({ kind: 'snapshot', lastSeq: 50 })
    expect(sub.seqs()).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50])
    expect(hub.publish('s', delta(51)).seq).toBe(51)
    store!.eventLog.pruneEvents('s', 5)
    const old = collect(hub, 3)
    expect(old.got.map((m) => m.kind)).toEqual(['snapshot', 'resync'])
  })

  it('a subscriber that throws does not stop delivery to the others', async () => {
    const hub = setup()
    hub.subscribe({ sessionId: 's', afterSeq: 0 }, (m) => {
      if (m.kind === 'event') throw new Error('broken viewer')
    })
    const ok = collect(hub, 0)
    const original = console.error
    console.error = () => {}
    try {
      hub.publish('s', delta(1))
      await tick()
    } finally {
      console.error = original
    }
    expect(ok.seqs()).toEqual([1])
  })
})
