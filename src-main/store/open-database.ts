import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { MIGRATIONS, SCHEMA_VERSION } from './migrations'
import { StoreError } from './store-error'
import { explainNativeModuleError, nativeBindingOptions } from './native-binding'

type Db = Database.Database

// SQLite result codes that mean "this file is not a usable database".
const CORRUPT_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT'])

function sqliteCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined
  const code = (err as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}

function describe(file: string): string {
  return file === ':memory:' ? 'in-memory database' : `${path.basename(file)} at ${path.resolve(file)}`
}

function toOpenError(file: string, err: unknown): StoreError {
  if (StoreError.isInstance(err)) return err
  const reason = err instanceof Error ? err.message : String(err)
  const code = sqliteCode(err)
  if (code && (CORRUPT_CODES.has(code) || code.startsWith('SQLITE_CORRUPT'))) {
    return new StoreError(
      'corrupt',
      `${describe(file)} is not a readable Agentry database (${reason}). ` +
        'Move the file aside to start fresh, or point AGENTRY_HOME at another folder.',
      { cause: err },
    )
  }
  const abi = explainNativeModuleError(err, { electron: process.versions.electron, modules: process.versions.modules })
  if (abi) return new StoreError('open_failed', abi, { cause: err })
  return new StoreError('open_failed', `Could not open ${describe(file)}: ${reason}`, { cause: err })
}

function migrate(db: Db, file: string): void {
  const current = Number(db.pragma('user_version', { simple: true }))
  if (current > SCHEMA_VERSION) {
    throw new StoreError(
      'newer_schema',
      `${describe(file)} was written by a newer Agentry (schema v${current}; this build knows v${SCHEMA_VERSION}). ` +
        'Upgrade Agentry, or point AGENTRY_HOME at another folder.',
    )
  }
  if (current === SCHEMA_VERSION) return
  db.transaction(() => {
    for (let v = current; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v])
    // PRAGMA takes no bound parameters; the value is an integer we computed.
    db.pragma(`user_version = ${SCHEMA_VERSION}`)
  }).immediate()
}

/**
 * Opens (creating if needed) the SQLite file, applies pragmas and pending migrations. `readOnly`: an existing file
 * only, nothing written (no migration: an older schema is refused with what to do).
 */
export function openDatabase(file: string, o: { readOnly?: boolean } = {}): Db {
  if (o.readOnly) return openReadOnly(file)
  if (file !== ':memory:') {
    try {
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
    } catch (err) {
      throw toOpenError(file, err)
    }
  }
  let db: Db | undefined
  try {
    db = new Database(file, nativeBindingOptions())
    // journal_mode is the first statement that reads the header, so a non-SQLite file fails here.
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    db.pragma('foreign_keys = ON')
    // The default 2 MiB page cache thrashes once chat_parts holds ~1M rows. 16 MiB (allocated as pages are read)
    // measured the same as 64 MiB on the 1M-part store and search benches, and bounds a long-running daemon's memory
    // 48 MiB lower: the cache grows with the database until it is full (most of the soak's RSS growth).
    db.pragma('cache_size = -16384')
    migrate(db, file)
    return db
  } catch (err) {
    db?.close()
    throw toOpenError(file, err)
  }
}

function openReadOnly(file: string): Db {
  let db: Db | undefined
  try {
    db = new Database(file, { ...nativeBindingOptions(), readonly: true, fileMustExist: true })
    db.pragma('busy_timeout = 5000')
    const current = Number(db.pragma('user_version', { simple: true }))
    // Version 0: a file a starting host has only just created (nothing is written before the first migration).
    // What it holds is what an empty database holds.
    if (current === 0) {
      db.close()
      db = undefined
      return openDatabase(':memory:')
    }
    if (current > SCHEMA_VERSION) migrate(db, file) // throws the newer-schema error
    if (current < SCHEMA_VERSION) {
      throw new StoreError('open_failed', `${describe(file)} was written by an older Agentry (schema v${current}); run any agentry command that starts a host (e.g. agentry run) once to upgrade it.`)
    }
    return db
  } catch (err) {
    db?.close()
    throw toOpenError(file, err)
  }
}
