import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFileKeyStore } from './index'
import { tempDir } from './testing/test-support'

describe('file key store', () => {
  it('saves keys to keys.json with mode 0600 and shares them across instances', () => {
    const dir = tempDir()
    const a = createFileKeyStore(dir)
    expect(a.has('openai')).toBe(false)
    a.set('openai', ' sk-123 ')
    const file = path.join(dir, 'keys.json')
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    const b = createFileKeyStore(dir)
    expect(b.get('openai')).toBe('sk-123')
    b.remove('openai')
    expect(a.has('openai')).toBe(false)
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({})
  })

  it('rejects empty keys and bad provider names', () => {
    const store = createFileKeyStore(tempDir())
    expect(() => store.set('openai', '  ')).toThrow('The key for "openai" is empty')
    expect(() => store.set('../x', 'k')).toThrow('Invalid provider name "../x"')
  })

  it('a corrupt file is reported by path without echoing its contents', () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, 'keys.json'), '{"openai": "sk-secret"')
    const store = createFileKeyStore(dir)
    const error = (() => { try { store.get('openai') } catch (e) { return e as Error } })()
    expect(error?.message).toContain(`${path.join(dir, 'keys.json')}: not valid JSON`)
    expect(error?.message).not.toContain('sk-secret')
  })
})
