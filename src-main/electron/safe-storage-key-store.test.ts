import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFileKeyStore } from '../models'
import { createSafeStorageKeyStore, SAFE_KEYS_FILE, type SafeStorageLike } from './safe-storage-key-store'

/** Electron's safeStorage is not available under vitest; this one really encrypts (AES-GCM with its own key). */
function realCipher(available = true): SafeStorageLike & { available: boolean } {
  const key = crypto.randomBytes(32)
  return {
    available,
    isEncryptionAvailable() {
      return this.available
    },
    encryptString(text) {
      const iv = crypto.randomBytes(12)
      const c = crypto.createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([c.update(text, 'utf8'), c.final()])
      return Buffer.concat([iv, c.getAuthTag(), body])
    },
    decryptString(buf) {
      const d = crypto.createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12))
      d.setAuthTag(buf.subarray(12, 28))
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8')
    },
  }
}
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-keys-'))

describe('keychain-backed key store', () => {
  it('stores keys encrypted on disk and reads them back', () => {
    const dir = tmp()
    const store = createSafeStorageKeyStore(dir, realCipher())
    store.set('anthropic', '  sk-ant-secret-123  ')
    expect(store.get('anthropic')).toBe('sk-ant-secret-123')
    expect(store.has('anthropic')).toBe(true)
    const text = fs.readFileSync(path.join(dir, SAFE_KEYS_FILE), 'utf8')
    expect(text).not.toContain('sk-ant-secret-123')
    expect(JSON.parse(text)).toMatchObject({ version: 1, keys: { anthropic: expect.any(String) } })
    expect(fs.statSync(path.join(dir, SAFE_KEYS_FILE)).mode & 0o777).toBe(0o600)
    store.remove('anthropic')
    expect(store.has('anthropic')).toBe(false)
    expect(store.get('anthropic')).toBeUndefined()
  })

  it('refuses to save without a keychain, saying where else the key can go', () => {
    const store = createSafeStorageKeyStore(tmp(), realCipher(false))
    expect(() => store.set('openai', 'sk-1')).toThrow(/No system keychain .*OPENAI_API_KEY.*config\.yaml/)
  })

  it('falls back to the CLI key file for reading, and removes from both', () => {
    const dir = tmp()
    const plain = createFileKeyStore(dir)
    plain.set('openai', 'sk-from-cli')
    const store = createSafeStorageKeyStore(dir, realCipher(), plain)
    expect(store.get('openai')).toBe('sk-from-cli')
    store.set('openai', 'sk-from-app')
    expect(store.get('openai')).toBe('sk-from-app')
    store.remove('openai')
    expect(store.has('openai')).toBe(false)
    expect(plain.has('openai')).toBe(false)
  })

  it('explains a key that cannot be decrypted, and a damaged file, naming the file', () => {
    const dir = tmp()
    createSafeStorageKeyStore(dir, realCipher()).set('anthropic', 'sk-1')
    const otherKeychain = createSafeStorageKeyStore(dir, realCipher())
    expect(() => otherKeychain.get('anthropic')).toThrow(/keys\.safe\.json could not be decrypted/)
    fs.writeFileSync(path.join(dir, SAFE_KEYS_FILE), '{"version":1,"keys":{"a":1}}')
    expect(() => otherKeychain.get('a')).toThrow(/keys\.safe\.json: expected/)
    expect(() => otherKeychain.set('bad name', 'k')).toThrow(/Invalid provider name/)
  })
})
