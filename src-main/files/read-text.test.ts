import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { errnoText, isMissing, readText, readTextIfPresent } from '.'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-files-'))
  dirs.push(d)
  return d
}

describe('reading a file where missing is an answer', () => {
  it('tells text, missing (no file, or a path through a file) and unreadable (a folder) apart', () => {
    const d = tmp()
    fs.writeFileSync(path.join(d, 'a.txt'), 'hello')
    expect(readText(path.join(d, 'a.txt'))).toEqual({ kind: 'text', text: 'hello' })
    expect(readText(path.join(d, 'none.txt'))).toEqual({ kind: 'missing' })
    expect(readText(path.join(d, 'a.txt', 'below'))).toEqual({ kind: 'missing' })
    expect(readText(d)).toEqual({ kind: 'unreadable', reason: 'EISDIR' })
    // An empty file is text, never "missing".
    fs.writeFileSync(path.join(d, 'empty'), '')
    expect(readText(path.join(d, 'empty'))).toEqual({ kind: 'text', text: '' })
  })

  it('readTextIfPresent: undefined only when missing; other failures are thrown', () => {
    const d = tmp()
    expect(readTextIfPresent(path.join(d, 'none'))).toBeUndefined()
    expect(() => readTextIfPresent(d)).toThrow(/EISDIR/)
  })

  it('names an error by its code, else its message', () => {
    const enoent = Object.assign(new Error('x'), { code: 'ENOENT' })
    expect(isMissing(enoent)).toBe(true)
    expect(isMissing(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe(false)
    expect(isMissing('ENOENT')).toBe(false)
    expect(errnoText(enoent)).toBe('ENOENT')
    expect(errnoText(new Error('plain'))).toBe('plain')
  })
})
