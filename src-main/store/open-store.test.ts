import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { SCHEMA_VERSION } from './migrations'
import { openStore } from './store'
import { StoreError } from './store-error'

const dirs: string[] = []
function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-store-'))
  dirs.push(dir)
  return path.join(dir, 'agentry.db')
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function expectStoreError(fn: () => unknown): StoreError {
  try {
    fn()
  } catch (err) {
    expect(StoreError.isInstance(err)).toBe(true)
    return err as StoreError
  }
  throw new Error('expected a StoreError')
}

describe('openStore', () => {
  it('creates every table from an empty file, with WAL and foreign keys on', () => {
    const file = tempFile()
    const store = openStore(file)
    store.close()
    const db = new Database(file)
    // The full-text index's own shadow tables (message_search_*) are SQLite's business.
    const tables = db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'message_search_[cdi]*' ORDER BY name")
      .pluck()
      .all()
    expect(tables).toEqual([
      'approvals',
      'background_jobs',
      'chat_messages',
      'chat_parts',
      'chat_sessions',
      'daily_spend',
      'event_log',
      'message_search',
      'message_search_pending',
      'message_search_rows',
      'permission_rules',
      'prompt_queue',
      'turn_checkpoints',
    ])
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    db.close()
  })

  it('reopens an existing database without re-running migrations or losing rows', () => {
    const file = tempFile()
    const first = openStore(file)
    const s = first.sessions.createSession({ agent: 'build', workspaceRoot: '/w', title: 'kept' })
    first.close()
    const second = openStore(file)
    expect(second.sessions.getSession(s.id)?.title).toBe('kept')
    second.close()
    const third = openStore(file)
    expect(third.sessions.listSessions()).toHaveLength(1)
    third.close()
  })

  it('creates the data folder when it does not exist yet', () => {
    const file = path.join(path.dirname(tempFile()), 'nested', 'home', 'agentry.db')
    openStore(file).close()
    expect(fs.existsSync(file)).toBe(true)
  })

  it('refuses a database written by a newer Agentry, naming the file and both versions', () => {
    const file = tempFile()
    openStore(file).close()
    const db = new Database(file)
    db.pragma('user_version = 7')
    db.close()
    const err = expectStoreError(() => openStore(file))
    expect(err.code).toBe('newer_schema')
    expect(err.name).toBe('StoreError')
    expect(err.message).toBe(
      `agentry.db at ${file} was written by a newer Agentry (schema v7; this build knows v${SCHEMA_VERSION}). ` +
        'Upgrade Agentry, or point AGENTRY_HOME at another folder.',
    )
  })

  it('reports a non-SQLite file as corrupt, naming the file', () => {
    const file = tempFile()
    fs.writeFileSync(file, 'this is not a database, just some text that is long enough '.repeat(100))
    const err = expectStoreError(() => openStore(file))
    expect(err.code).toBe('corrupt')
    expect(err.message).toContain(file)
    expect(err.message).toContain('AGENTRY_HOME')
  })

  it('works in memory for tests', () => {
    const store = openStore(':memory:')
    const s = store.sessions.createSession({ agent: 'build', workspaceRoot: '/w' })
    expect(store.sessions.getSession(s.id)?.agent).toBe('build')
    store.close()
  })

  it('rejects calls after close with a clear error', () => {
    const store = openStore(':memory:')
    store.close()
    store.close() // idempotent
    const err = expectStoreError(() => store.eventLog.appendEvent({ stream: 's', seq: 1, event: { type: 'error', sessionId: 's', at: 0, code: 'x', message: 'y' } }))
    expect(err.code).toBe('closed')
  })
})

describe('openStore read-only (inspecting a data dir whose host is gone)', () => {
  it('reads what a host wrote and writes nothing', () => {
    const file = tempFile()
    const w = openStore(file)
    w.sessions.createSession({ workspaceRoot: '/w', agent: 'build', title: 'kept' })
    w.close()
    const before = fs.readFileSync(file)
    const r = openStore(file, { readOnly: true })
    expect(r.sessions.listSessions({}).map((s) => s.title)).toEqual(['kept'])
    r.close()
    expect(fs.readFileSync(file).equals(before)).toBe(true)
  })

  it('a file a starting host has only just created (schema v0) reads as an empty database, not an error', () => {
    const file = tempFile()
    new Database(file).close()
    const r = openStore(file, { readOnly: true })
    expect(r.sessions.listSessions({})).toEqual([])
    r.close()
  })
})
