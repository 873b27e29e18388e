import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { readTextIfPresent } from '../files'

/** Where API keys entered in Settings → Providers live. Keys are never logged or put in errors. */
export interface KeyStore {
  get(provider: string): string | undefined
  set(provider: string, key: string): void
  remove(provider: string): void
  has(provider: string): boolean
}

const KEYS_FILE = 'keys.json'
const FIX_IT = 'Fix or delete the file, then re-enter keys in Settings → Providers.'
const ProviderKeys = z.record(z.string(), z.string())
const VersionedKeys = z.object({ version: z.literal(1), keys: ProviderKeys }).strict()

/**
 * A JSON file of provider name → key (or encrypted key): the one reader and writer behind every key store. It is
 * re-read on every access, so the daemon, the desktop app and the CLI sharing one data dir see each other's changes
 * without a restart, and written 0600 with write-then-rename, so a crash never leaves half a file and the key is
 * never readable by others, not even briefly. `versioned`: the `{ "version": 1, "keys": {…} }` layout.
 */
export function keyFile(file: string, o: { versioned?: boolean; fixIt?: string } = {}): { read(): Record<string, string>; write(keys: Record<string, string>): void } {
  const fixIt = o.fixIt ?? FIX_IT
  const expected = o.versioned ? '{ "version": 1, "keys": { provider: encrypted key } }' : 'an object of provider name → key string'
  return {
    read() {
      const text = readTextIfPresent(file)
      // No file yet simply means no keys were saved.
      if (text === undefined) return {}
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        throw new Error(`${file}: not valid JSON. ${fixIt}`)
      }
      const parsed = o.versioned ? VersionedKeys.safeParse(json) : ProviderKeys.safeParse(json)
      // Only the expected shape is named: the file's contents (keys) never go into an error.
      if (!parsed.success) throw new Error(`${file}: expected ${expected}. ${fixIt}`)
      return 'version' in parsed.data ? (parsed.data.keys as Record<string, string>) : (parsed.data as Record<string, string>)
    },
    write(keys) {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      const tmp = `${file}.${process.pid}.tmp`
      fs.writeFileSync(tmp, JSON.stringify(o.versioned ? { version: 1, keys } : keys, null, 2) + '\n', { mode: 0o600 })
      fs.renameSync(tmp, file)
      fs.chmodSync(file, 0o600)
    },
  }
}

/** Checks a provider name and key before any store saves them; returns the trimmed key. */
export function checkKeyInput(provider: string, key: string): string {
  if (!/^[a-zA-Z0-9_-]+$/.test(provider)) throw new Error(`Invalid provider name "${provider}" (use letters, digits, _ and -).`)
  const trimmed = key.trim()
  if (trimmed === '') throw new Error(`The key for "${provider}" is empty. Paste the full key.`)
  return trimmed
}

/** `{dataDir}/keys.json`, mode 0600: keys saved from the CLI, the daemon or (without a keychain) the app. */
export function createFileKeyStore(dataDir: string): KeyStore {
  const file = keyFile(path.join(dataDir, KEYS_FILE))
  return {
    get(provider) {
      const key = file.read()[provider]
      return key === undefined || key === '' ? undefined : key
    },
    set(provider, key) {
      file.write({ ...file.read(), [provider]: checkKeyInput(provider, key) })
    },
    remove(provider) {
      const keys = file.read()
      if (!(provider in keys)) return
      delete keys[provider]
      file.write(keys)
    },
    has(provider) {
      return this.get(provider) !== undefined
    },
  }
}
