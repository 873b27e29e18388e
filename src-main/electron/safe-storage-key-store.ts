import path from 'node:path'
import { checkKeyInput, keyFile, type KeyStore } from '../models'

/** The part of Electron's `safeStorage` used here (injected so the store can be tested without Electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  getSelectedStorageBackend?(): string
}

export const SAFE_KEYS_FILE = 'keys.safe.json'

/**
 * Provider keys entered in the desktop app, encrypted with the OS keychain (`safeStorage`) into
 * `{dataDir}/keys.safe.json`. `fallback` (the plain key file the CLI and daemon use) is read when this store has no
 * key, so a key saved from the CLI works in the app too; removing a key removes it from both.
 */
export function createSafeStorageKeyStore(dataDir: string, safeStorage: SafeStorageLike, fallback?: KeyStore): KeyStore {
  const location = path.join(dataDir, SAFE_KEYS_FILE)
  const fixIt = 'Delete the file and enter the key again in Settings → Providers.'
  // Written 0600 although the contents are encrypted anyway.
  const file = keyFile(location, { versioned: true, fixIt })

  const decrypt = (provider: string, stored: string): string => {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error(`The key for "${provider}" is stored encrypted, but the system keychain is not available now. Unlock the keychain (or log in to the desktop session) and try again.`)
    }
    try {
      return safeStorage.decryptString(Buffer.from(stored, 'base64'))
    } catch (err) {
      throw new Error(`The key for "${provider}" in ${location} could not be decrypted (${err instanceof Error ? err.message : String(err)}); it was probably saved under another user or keychain. ${fixIt}`)
    }
  }

  const own = (provider: string): string | undefined => {
    const stored = file.read()[provider]
    return stored === undefined ? undefined : decrypt(provider, stored)
  }

  return {
    get(provider) {
      return own(provider) ?? fallback?.get(provider)
    },
    set(provider, key) {
      const trimmed = checkKeyInput(provider, key)
      if (!safeStorage.isEncryptionAvailable()) {
        throw new Error(
          `No system keychain is available, so the key for "${provider}" was not saved. Set it in the environment (e.g. ANTHROPIC_API_KEY / OPENAI_API_KEY) or as apiKey in config.yaml instead.`,
        )
      }
      const encrypted = safeStorage.encryptString(trimmed).toString('base64')
      file.write({ ...file.read(), [provider]: encrypted })
    },
    remove(provider) {
      const keys = file.read()
      if (provider in keys) {
        delete keys[provider]
        file.write(keys)
      }
      fallback?.remove(provider)
    },
    has(provider) {
      return provider in file.read() || (fallback?.has(provider) ?? false)
    },
  }
}
