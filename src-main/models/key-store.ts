import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

/** Where API keys entered in Settings → Providers live. Keys are never logged or put in errors. */
export interface KeyStore {
  get(provider: string): string | undefined
  set(provider: string, key: string): void
  remove(provider: string): void
  has(provider: string): boolean
}

const KeysFile = z.record(z.string(), z.string())

/**
 * `{dataDir}/keys.json`, mode 0600. The file is re-read on every access so the daemon, the
 * desktop app and the CLI sharing one data dir see each other's changes without a restart.
 */
export function createFileKeyStore(dataDir: string): KeyStore {
  const file = path.join(dataDir, 'keys.json')

  const read = (): Record<string, string> => {
    let text: string
    try {
      text = fs.readFileSync(file, 'utf8')
    } catch (e) {
      // No file yet simply means no keys were saved.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw e
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new Error(`${file}: not valid JSON. Fix or delete the file, then re-enter keys in Settings → Providers.`)
    }
    const parsed = KeysFile.safeParse(json)
    if (!parsed.success) {
      throw new Error(
        `${file}: expected an object of provider name → key string. Fix or delete the file, then re-enter keys in Settings → Providers.`,
      )
    }
    return parsed.data
  }

  const write = (keys: Record<string, string>): void => {
    fs.mkdirSync(dataDir, { recursive: true })
    // Write-then-rename so a crash never leaves a half-written file; the temp file is created
    // 0600 so the key is never readable by others, not even briefly.
    const tmp = `${file}.${process.pid}.tmp`
    fs.writeFileSync(tmp, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 })
    fs.renameSync(tmp, file)
    fs.chmodSync(file, 0o600)
  }

  const checkName = (provider: string): void => {
    if (!/^[a-zA-Z0-9_-]+$/.test(provider)) {
      throw new Error(`key store: invalid provider name "${provider}" (use letters, digits, _ and -).`)
    }
  }

  return {
    get(provider) {
      const key = read()[provider]
      return key === undefined || key === '' ? undefined : key
    },
    set(provider, key) {
      checkName(provider)
      if (key.trim() === '') throw new Error(`key store: the key for "${provider}" is empty. Paste the full key.`)
      write({ ...read(), [provider]: key.trim() })
    },
    remove(provider) {
      const keys = read()
      if (!(provider in keys)) return
      delete keys[provider]
      write(keys)
    },
    has(provider) {
      return this.get(provider) !== undefined
    },
  }
}
