import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { detectSandbox, SANDBOX_PROBE_FILE } from './detect'

/**
 * The bubblewrap probe is remembered in the data dir until the machine restarts or bwrap changes; only a success is.
 * A stand-in `bwrap` on PATH logs each time it runs. detectSandbox also memoizes per process by PATH, so each call
 * here gets a PATH of its own (an extra empty folder after the stand-in's).
 */
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})
function tmp(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  dirs.push(d)
  return d
}

function standIn(exitCode: number) {
  const bin = tmp('agentry-fake-bwrap-')
  const log = path.join(bin, 'runs.log')
  fs.writeFileSync(path.join(bin, 'bwrap'), `#!/bin/sh\necho run >> ${log}\necho "no user namespaces" >&2\nexit ${exitCode}\n`, { mode: 0o755 })
  const runs = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0)
  const detect = (memoFile: string) => detectSandbox({ PATH: `${bin}:${tmp('agentry-path-')}` }, { memoFile })
  return { bin, runs, detect }
}

describe.runIf(process.platform === 'linux' && fs.existsSync('/proc/sys/kernel/random/boot_id'))('the bubblewrap probe memo', () => {
  it('a success is probed once and then remembered; a changed bwrap is probed again', async () => {
    const data = tmp('agentry-data-')
    const memo = path.join(data, SANDBOX_PROBE_FILE)
    const fake = standIn(0)
    expect(await fake.detect(memo)).toEqual({ kind: 'bwrap', path: path.join(fake.bin, 'bwrap') })
    expect(fake.runs()).toBe(1)
    expect(fs.readFileSync(memo, 'utf8')).toContain(fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim())
    expect(await fake.detect(memo)).toEqual({ kind: 'bwrap', path: path.join(fake.bin, 'bwrap') })
    expect(fake.runs()).toBe(1)
    // bwrap replaced (an upgrade): the memo no longer applies.
    const later = new Date(Date.now() + 5_000)
    fs.utimesSync(path.join(fake.bin, 'bwrap'), later, later)
    await fake.detect(memo)
    expect(fake.runs()).toBe(2)
  })

  it('a failure is not remembered: the next command probes again and says why', async () => {
    const data = tmp('agentry-data-')
    const memo = path.join(data, SANDBOX_PROBE_FILE)
    const fake = standIn(1)
    expect(await fake.detect(memo)).toEqual({ kind: 'none', reason: 'bubblewrap cannot create a sandbox here: no user namespaces' })
    expect(fs.existsSync(memo)).toBe(false)
    await fake.detect(memo)
    expect(fake.runs()).toBe(2)
  })
})
