import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from './testing/test-context'
import { truncateOutput } from './truncate'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

describe('truncateOutput', () => {
  it('returns short text unchanged and saves nothing', () => {
    const dir = makeTempDir()
    dirs.push(dir)
    expect(truncateOutput('hello', { maxChars: 10, overflowDir: dir })).toEqual({ text: 'hello', truncated: false })
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('keeps the head, says how much was cut and saves the full text', () => {
    const dir = makeTempDir()
    dirs.push(dir)
    const overflowDir = path.join(dir, 'not-yet-created')
    const text = 'a'.repeat(100) + 'Z'.repeat(50)
    const r = truncateOutput(text, { maxChars: 100, overflowDir })
    expect(r.truncated).toBe(true)
    expect(r.text.startsWith('a'.repeat(100) + '\n')).toBe(true)
    // only the head: the note's path comes from mkdtemp, whose random suffix may itself contain a "Z"
    expect(r.text.split('\n')[0]).not.toContain('Z')
    expect(r.ref).toBe(`tool-output://${path.basename(r.fullPath!)}`)
    expect(r.text).toContain(`… [truncated: 50 more chars. The full output is saved as ${r.ref}: page through it with read_file, path "${r.ref}", using offset and limit]`)
    // The absolute path is not given to the model: it is readable only through the session's reference.
    expect(r.text).not.toContain(overflowDir)
    expect(path.dirname(r.fullPath!)).toBe(overflowDir)
    expect(fs.readFileSync(r.fullPath!, 'utf8')).toBe(text)
  })

  it('still returns the head, with the reason, when the full text cannot be saved', () => {
    const dir = makeTempDir()
    dirs.push(dir)
    const blocker = path.join(dir, 'file')
    fs.writeFileSync(blocker, '')
    const r = truncateOutput('x'.repeat(20), { maxChars: 5, overflowDir: path.join(blocker, 'sub') })
    expect(r).toMatchObject({ truncated: true })
    expect(r.fullPath).toBeUndefined()
    expect(r.text).toMatch(/^x{5}\n… \[truncated: 15 more chars; the full output could not be saved: .+\]$/)
  })
})
