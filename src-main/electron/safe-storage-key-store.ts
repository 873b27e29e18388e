import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import type { KeyStore } from '../models'

/** The part of Electron's `safeStorage` used here (injected so the store can be tested without Electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  getSelectedStorageBackend?(): string
}

const SafeKeysFile = z.object({ version: z.literal(1), keys: z.record(z.string(), z.string()) }).strict()
export const SAFE_KEYS_FILE = 'keys.safe.json'

/**
 * Provider keys entered in the desktop app, encrypted with the OS keychain (`safeStorage`) into
 * `{dataDir}/keys.safe.json`. `fallback` (the plain key file the CLI and daemon use) is read when this store has no
 * key, so a key saved from the CLI works in the app too; removing a key removes it from both.
 */
export function createSafeStorageKeyStore(dataDir: string, safeStorage: SafeStorageLike, fallback?: KeyStore): KeyStore {
  const file = path.join(dataDir, SAFE_KEYS_FILE)
  const fixIt = 'Delete the file and enter the key again in Settings → Providers.'

  const read = (): Record<string, string> => {
    let text: string
    try {
      text = fs.readFileSync(file, 'utf8')
    } catch (err) {
      // No file yet means no keys saved in the app.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw err
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new Error(`${file}: not valid JSON. ${fixIt}`)
    }
    const parsed = SafeKeysFile.safeParse(json)
    if (!parsed.success) throw new Error(`${file}: expected { "version": 1, "keys": { provider: encrypted key } }. ${fixIt}`)
    return parsed.data.keys
  }

  const write = (keys: Record<string, string>): void => {
    fs.mkdirSync(dataDir, { recursive: true })
    // Write-then-rename so a crash never leaves half a file; 0600 although the contents are encrypted anyway.
    const tmp = `${file}.${process.pid}.tmp`
    fs.writeFileSync(tmp, JSON.stringify({ version: 1, keys }, null, 2) + '\n', { mode: 0o600 })
    fs.renameSync(tmp, file)
  }

  const decrypt = (provider: string, stored: string): string => {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error(`The key for "${provider}" is stored encrypted, but the system keychain is not available now. Unlock the keychain (or log in to the desktop session) and try again.`)
    }
    try {
      return safeStorage.decryptString(Buffer.from(stored, 'base64'))
    } catch (err) {
      throw new Error(`The key for "${provider}" in ${file} could not be decrypted (${err instanceof Error ? err.message : String(err)}); it was probably saved under another user or keychain. ${fixIt}`)
    }
  }

  const own = (provider: string): string | undefined => {
    const stored = read()[provider]
    return stored === undefined ? undefined : decrypt(provider, stored)
  }

  return {
    get(provider) {
      return own(provider) ?? fallback?.get(provider)
    },
    set(provider, key) {
      if (!/^[a-zA-Z0-9_-]+$/.test(provider)) throw new Error(`Invalid provider name "${provider}" (use letters, digits, _ and -).`)
      const trimmed = key.trim()
      if (trimmed === '') throw new Error(`The key for "${provider}" is empty. Paste the full key.`)
      if (!safeStorage.isEncryptionAvailable()) {
        throw new Error(
          `No system keychain is available, so the key for "${provider}" was not saved. Set it in the environment (e.g. ANTHROPIC_API_KEY / OPENAI_API_KEY) or as apiKey in config.yaml instead.`,
        )
      }
      const encrypted = safeStorage.encryptString(trimmed).toString('base64')
      write({ ...read(), [provider]: encrypted })
    },
    remove(provider) {
      const keys = read()
      if (provider in keys) {
        delete keys[provider]
        write(keys)
      }
      fallback?.remove(provider)
    },
    has(provider) {
      return provider in read() || (fallback?.has(provider) ?? false)
    },
  }
}
