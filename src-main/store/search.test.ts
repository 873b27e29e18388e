import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PartRecord } from '../../src-shared'
import { MIGRATIONS } from './migrations'
import { newId } from './new-id'
import { MARK_END, MARK_START, toFtsQuery } from './search'
import { openStore, type Store } from './store'

let store: Store
beforeEach(() => {
  store = openStore(':memory:')
})
afterEach(() => store.close())

function say(sessionId: string, role: 'user' | 'assistant', text: string, partId = newId('prt')): { messageId: string; part: PartRecord } {
  const m = store.transcript.createMessage({ sessionId, role })
  const part: PartRecord = { id: partId, messageId: m.id, sessionId, index: 0, type: 'text', data: { text }, toolCallId: null, toolState: null }
  store.transcript.upsertPart(part)
  return { messageId: m.id, part }
}

const marked = (snippet: string) => snippet.replaceAll(MARK_START, '[').replaceAll(MARK_END, ']')

describe('message search (FTS5)', () => {
  it('finds a word from an answer, newest session first, with the word marked in a snippet', () => {
    const a = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w', title: 'Older' })
    const b = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w', title: 'Newer' })
    say(a.id, 'user', 'where is the parser?')
    const hitA = say(a.id, 'assistant', 'The tokenizer lives in src/lexer.ts, next to the parser.')
    const hitB = say(b.id, 'assistant', 'I rewrote the tokenizer for speed.')
    say(b.id, 'assistant', 'Nothing relevant here.')

    const hits = store.search.searchMessages({ query: 'tokenizer', workspaceRoot: '/w' })
    expect(hits.map((h) => [h.sessionId, h.messageId])).toEqual([
      [b.id, hitB.messageId],
      [a.id, hitA.messageId],
    ])
    expect(marked(hits[1].snippet)).toBe('The [tokenizer] lives in src/lexer.ts, next to the parser.')
  })

  it("each hit's snippet comes from its own part, never from another session's (issue 28)", () => {
    const older = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w', title: 'Scheduler notes' })
    const newer = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w', title: 'Please review the code and' })
    say(older.id, 'assistant', 'Only the older session says the scheduler takes the lock twice.')
    say(newer.id, 'user', 'Please review the code and tell me about the scheduler.')
    const own = say(newer.id, 'assistant', 'The newer session blames the scheduler for the missed deadline.')
    const hits = store.search.searchMessages({ query: 'scheduler', workspaceRoot: '/w' })
    expect(hits.map((h) => [h.sessionId, h.messageId, marked(h.snippet)])).toEqual([
      [newer.id, own.messageId, 'The newer session blames the [scheduler] for the missed deadline.'],
      [older.id, expect.any(String), 'Only the older session says the [scheduler] takes the lock twice.'],
    ])
    // A prefix while typing and two words take the same path.
    for (const query of ['sched', 'scheduler deadline']) {
      expect(marked(store.search.searchMessages({ query, workspaceRoot: '/w' })[0].snippet)).toContain('The newer session blames')
    }
  })

  it.each([
    ['prefix of the last word, while typing', 'tokeni', 1],
    ['every word must occur', 'tokenizer banana', 0],
    ['case and accents are ignored', 'TÖKENIZER', 1],
    ['punctuation and FTS operators are plain text', 'tokenizer" -lexer: *', 1],
    ['OR is a word, not an operator', 'tokenizer OR banana', 0],
    ['nothing but punctuation', '"-*', 0],
    ['a word from the middle of a path', 'lexer', 1],
    ['a short prefix (indexed)', 'tok', 1],
    ['a prefix longer than the indexed ones, no exact word', 'tokeniz', 1],
  ])('%s: %j', (_name, query, count) => {
    const s = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    say(s.id, 'assistant', 'The tokenizer lives in src/lexer.ts.')
    expect(store.search.searchMessages({ query, workspaceRoot: '/w' })).toHaveLength(count)
  })

  it('a long last word looks for the exact word first, and widens to the prefix only when that finds too few', () => {
    const [exact, longer] = ['exact', 'longer'].map((title) => store.sessions.createSession({ agent: 'build', workspaceRoot: '/w', title }))
    say(exact.id, 'assistant', 'The tokenizer is fast.')
    say(longer.id, 'assistant', 'Two tokenizers disagree.')
    expect(store.search.searchMessages({ query: 'tokenizer', workspaceRoot: '/w', limit: 1 }).map((h) => h.sessionId)).toEqual([exact.id])
    expect(store.search.searchMessages({ query: 'tokenizer', workspaceRoot: '/w', limit: 2 }).map((h) => h.sessionId)).toEqual([longer.id, exact.id])
  })

  it('follows a part as it grows while streaming, and indexes only once writing pauses or a search asks', () => {
    const s = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    const { part } = say(s.id, 'assistant', 'Hello')
    store.flush()
    for (const more of [' wor', 'ld, the answer is', ' forty-two']) {
      part.data = { text: String(part.data.text) + more }
      store.transcript.upsertPart({ ...part })
      store.flush()
    }
    // Nothing indexed during the writes: the search catches up first.
    const hits = store.search.searchMessages({ query: 'forty two', workspaceRoot: '/w' })
    expect(hits).toHaveLength(1)
    expect(store.search.searchMessages({ query: 'Hello', workspaceRoot: '/w' })).toHaveLength(1)
    expect(store.search.indexPending()).toBe(0)
    // The old text is gone from the index, not only the new one added.
    part.data = { text: 'Replaced entirely' }
    store.transcript.upsertPart({ ...part })
    expect(store.search.searchMessages({ query: 'forty', workspaceRoot: '/w' })).toHaveLength(0)
    expect(store.search.searchMessages({ query: 'replaced', workspaceRoot: '/w' })).toHaveLength(1)
  })

  it('leaves out hidden messages, other workspaces, archived sessions (unless asked) and non-text parts', () => {
    const s = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    const other = store.sessions.createSession({ agent: 'build', workspaceRoot: '/elsewhere' })
    const archived = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    const kept = say(s.id, 'user', 'zebra one')
    say(s.id, 'assistant', 'zebra two')
    say(other.id, 'assistant', 'zebra three')
    say(archived.id, 'assistant', 'zebra four')
    store.sessions.updateSession(archived.id, { archivedAt: Date.now() })
    const m = store.transcript.createMessage({ sessionId: s.id, role: 'assistant' })
    store.transcript.upsertPart({ id: newId('prt'), messageId: m.id, sessionId: s.id, index: 0, type: 'tool-bash', data: { input: { command: 'echo zebra' } }, toolCallId: 'c1', toolState: 'output-available' })

    const hidden = store.transcript.hideMessagesFrom(s.id, newId('msg'), 'nothing')
    expect(hidden).toEqual([])
    const second = store.transcript.listMessages(s.id)[1]
    expect(store.transcript.hideMessagesFrom(s.id, second.id, 'edited')).toEqual([second.id, m.id])
    expect(store.transcript.listMessages(s.id).map((x) => x.id)).toEqual([kept.messageId])
    expect(store.transcript.listMessages(s.id, { includeHidden: true })[1].metadata).toMatchObject({ hiddenReason: 'edited' })

    expect(store.search.searchMessages({ query: 'zebra', workspaceRoot: '/w' }).map((h) => h.messageId)).toEqual([kept.messageId])
    expect(store.search.searchMessages({ query: 'zebra', workspaceRoot: '/w', includeArchived: true })).toHaveLength(2)
    expect(store.search.searchMessages({ query: 'zebra' })).toHaveLength(2)
  })

  it('forgets the parts of a deleted session', () => {
    const s = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    say(s.id, 'assistant', 'quokka')
    expect(store.search.searchMessages({ query: 'quokka' })).toHaveLength(1)
    store.sessions.deleteSession(s.id)
    expect(store.search.searchMessages({ query: 'quokka' })).toHaveLength(0)
  })

  it('indexes by itself once writing has paused', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-search-'))
    const file = path.join(dir, 'a.db')
    const idle = openStore(file, { indexAfterMs: 10 })
    try {
      const s = idle.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
      const m = idle.transcript.createMessage({ sessionId: s.id, role: 'user' })
      idle.transcript.upsertPart({ id: newId('prt'), messageId: m.id, sessionId: s.id, index: 0, type: 'text', data: { text: 'platypus' }, toolCallId: null, toolState: null })
      idle.flush()
      const db = new Database(file, { readonly: true })
      const indexed = () => (db.prepare('SELECT count(*) AS n FROM message_search_rows').get() as { n: number }).n
      await expect.poll(indexed, { timeout: 5000 }).toBe(1)
      db.close()
    } finally {
      idle.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('makes the text of a database written before search existed searchable (migration v2)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-search-'))
    const file = path.join(dir, 'old.db')
    try {
      const db = new Database(file)
      db.exec(MIGRATIONS[0])
      db.pragma('user_version = 1')
      db.prepare(`INSERT INTO chat_sessions (id, agent, workspace_root, created_at, updated_at) VALUES ('ses_1', 'build', '/w', 1, 1)`).run()
      db.prepare(`INSERT INTO chat_messages (id, session_id, role, created_at, updated_at) VALUES ('msg_1', 'ses_1', 'assistant', 1, 1)`).run()
      db.prepare(`INSERT INTO chat_parts (id, message_id, session_id, "index", type, data_json) VALUES ('prt_1', 'msg_1', 'ses_1', 0, 'text', '{"text":"an old wombat"}')`).run()
      db.close()
      const upgraded = openStore(file)
      try {
        expect(upgraded.search.searchMessages({ query: 'wombat' })).toEqual([{ sessionId: 'ses_1', messageId: 'msg_1', snippet: `an old ${MARK_START}wombat${MARK_END}` }])
        expect(upgraded.sessions.getSession('ses_1')).toMatchObject({ subagentCostUsd: 0, unpricedTokens: 0 })
      } finally {
        upgraded.close()
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('toFtsQuery', () => {
  it.each([
    ['hello world', '"hello" "world"*'],
    ['  say "hi"  ', '"say" "hi"*'],
    ['a-b', '"a" "b"*'],
    ['NEAR(x y)', '"NEAR" "x" "y"*'],
    ['', null],
    ['***', null],
  ])('%j → %j', (input, expected) => expect(toFtsQuery(input)).toBe(expected))

  it('without the prefix, every word is exact', () => expect(toFtsQuery('hello world', { prefix: false })).toBe('"hello" "world"'))
})
