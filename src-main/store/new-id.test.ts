import { describe, expect, it } from 'vitest'
import { newId } from './new-id'

describe('newId', () => {
  it('has the prefix, a 12-hex-char ms timestamp and 14 base62 chars', () => {
    const before = Date.now()
    const id = newId('ses')
    expect(id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/)
    const ms = parseInt(id.slice(4, 16), 16)
    expect(ms).toBeGreaterThanOrEqual(before)
    expect(ms).toBeLessThanOrEqual(Date.now())
  })

  it('sorts in creation order, also for many ids created in the same millisecond', () => {
    // Ids are made on every chunk: 10,000 take a few ms; the bound only catches a pathological slowdown.
    const started = performance.now()
    const ids = Array.from({ length: 10_000 }, () => newId('prt'))
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
  })
})
