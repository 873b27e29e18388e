import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { describeFault, maskSecrets, openHostLog } from './host-log'

const here = path.dirname(fileURLToPath(import.meta.url))
const dirs: string[] = []
const temp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-log-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) {
    fs.chmodSync(d, 0o700)
    fs.rmSync(d, { recursive: true, force: true })
  }
})

describe('the host log', () => {
  it('records a fault with an id, its name, a masked one-line message and stack frames; the file is 0600', () => {
    const dir = temp()
    const echoed: string[] = []
    const log = openHostLog(dir, { echo: (l) => echoed.push(l) })
    const err = new Error('provider said: invalid api_key=sk-live-abcdefghijk for Bearer abc.def\nsecond line with the prompt text')
    const id = log.fault('bridge call sessions.delete', err)
    expect(id).toMatch(/^E-[0-9a-f]{8}$/)
    const text = fs.readFileSync(log.file, 'utf8')
    expect(text).toContain(`${id} fault in bridge call sessions.delete: Error: provider said: invalid api_key=***`)
    expect(text).not.toMatch(/abcdefghijk|abc\.def|prompt text/)
    expect(text).toMatch(/^ {4}at .*host-log\.test\.ts/m)
    expect(fs.statSync(log.file).mode & 0o777).toBe(0o600)
    expect(echoed[0]).toContain(id)
    expect(log.faults).toBe(1)
  })

  it('keeps one old file once the log passes 5 MB', () => {
    const dir = temp()
    const log = openHostLog(dir, { echo: () => {} })
    fs.mkdirSync(path.dirname(log.file), { recursive: true })
    fs.writeFileSync(log.file, 'x'.repeat(5 * 1024 * 1024 + 1))
    log.note('after rotation')
    expect(fs.readFileSync(log.file, 'utf8')).toMatch(/after rotation\n$/)
    expect(fs.statSync(`${log.file}.1`).size).toBeGreaterThan(5 * 1024 * 1024)
  })

  it('a log it cannot write costs one stderr line, not a fault per fault', () => {
    const dir = temp()
    // A file where the logs folder should be: unwritable even for root (tests here may run as root).
    fs.writeFileSync(path.join(dir, 'logs'), '')
    const echoed: string[] = []
    const log = openHostLog(dir, { echo: (l) => echoed.push(l) })
    log.fault('x', new Error('a'))
    log.fault('y', new Error('b'))
    expect(echoed.filter((l) => l.includes('cannot write'))).toHaveLength(1)
    expect(echoed.filter((l) => l.includes('internal error'))).toHaveLength(2)
  })

  it('masks keys and tokens, and describes non-errors without their value', () => {
    expect(maskSecrets('sk-ant-api03-xyzxyzxyzxyz token=abc123 "apiKey": "k-1"')).toBe('sk-*** token=*** "apiKey": "***"')
    expect(describeFault({ secret: 'x' }).head).toBe('non-error value of type object')
  })
})

describe('a long-running host process (containProcessFaults)', () => {
  it('logs an unhandled rejection and an exception thrown in a timer, and keeps running (real process)', () => {
    const dir = temp()
    const script = path.join(dir, 'faulty.mts')
    fs.writeFileSync(
      script,
      `import { openHostLog } from ${JSON.stringify(path.join(here, 'host-log.ts'))}
import { containProcessFaults } from ${JSON.stringify(path.join(here, 'process-faults.ts'))}
const log = openHostLog(process.argv[2], { echo: () => {} })
containProcessFaults(log)
setTimeout(() => { throw new Error('thrown in a timer') }, 1)
void Promise.reject(new Error('nobody awaits this'))
setTimeout(() => console.log('still serving after', log.faults, 'faults'), 200)
`,
    )
    const out = execFileSync(process.execPath, [script, dir], { encoding: 'utf8' })
    expect(out).toContain('still serving after 2 faults')
    const text = fs.readFileSync(path.join(dir, 'logs', 'host.log'), 'utf8')
    expect(text).toMatch(/fault in a promise nobody awaited: Error: nobody awaits this/)
    expect(text).toMatch(/fault in a callback \(uncaught exception\): Error: thrown in a timer/)
  })
})
