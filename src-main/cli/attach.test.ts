import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SequencedEvent, SessionSummary } from '../../src-shared'
import { localSocketPath } from '../local-socket'
import { agentry, buildCli, spawnAgentry, tempDir, writeFiles, type AgentryProcess } from './testing/cli-process'

/**
 * `agentry` commands while a host holds the data dir: they attach to it over its local socket (same OS user only)
 * and use the same bridge calls as the UI, instead of being refused. Real processes, a real daemon.
 */
beforeAll(() => buildCli(), 60_000)

const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '')
const jsonLines = (s: string): unknown[] => lines(s).map((l) => JSON.parse(l) as unknown)
/** The `{seq, stream, event}` lines of `run --json` (the first line says how bash is sandboxed). */
const eventLines = (s: string): SequencedEvent[] => jsonLines(s).filter((e): e is SequencedEvent => typeof e === 'object' && e !== null && 'seq' in e)

/** A home and workdir whose script answers `build` at once and `slow` only after a long wait (to be interrupted). */
function scene() {
  const home = tempDir('attach-home')
  const work = tempDir('attach-work')
  writeFiles(home, {
    'script.yaml': {
      agents: {
        build: [{ text: 'hello from the host', repeat: true }],
        slow: [{ text: 'too late', delayMs: 60_000, repeat: true }],
        '*': [{ text: 'Title', repeat: true }],
      },
    },
  })
  writeFiles(work, { '.agents/agents/slow.md': '---\ndescription: answers slowly\nmode: primary\n---\nTake your time.\n' })
  const env = { AGENTRY_SCRIPT: path.join(home, 'script.yaml') }
  return {
    home,
    work,
    env,
    run: (args: string[]) => agentry(args, { home, cwd: work, env }),
    spawn: (args: string[]) => spawnAgentry(args, { home, cwd: work, env }),
    remove: () => {
      fs.rmSync(home, { recursive: true, force: true })
      fs.rmSync(work, { recursive: true, force: true })
    },
  }
}

async function interrupt(p: AgentryProcess): Promise<number | null> {
  p.child.kill('SIGINT')
  return p.exited
}

describe('with `agentry serve` running', () => {
  const s = scene()
  let daemon: AgentryProcess
  beforeAll(async () => {
    daemon = s.spawn(['serve', '--port', '0'])
    await daemon.waitFor(/running at http/)
  }, 30_000)
  afterAll(async () => {
    if (daemon.child.exitCode === null) await interrupt(daemon)
    s.remove()
  })

  it('five concurrent `agentry run` attach: each streams its own session’s events and prints its answer', async () => {
    const runs = await Promise.all([1, 2, 3, 4, 5].map((i) => s.run(['run', '--json', '--model', 'script/x', `task number ${i}`])))
    const streams = new Set<string>()
    for (const r of runs) {
      // On a host of its own this run would have been refused: the daemon holds the data dir (exit 2).
      expect(r.code, r.stderr).toBe(0)
      const events = eventLines(r.stdout)
      const stream = events[0].stream
      streams.add(stream)
      expect(events.every((e) => e.stream === stream)).toBe(true)
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1))
      const done = events.filter((e) => e.event.type === 'turn_complete' && e.event.sessionId === stream)
      expect(done).toHaveLength(1)
      expect(done[0].event).toMatchObject({ finishReason: 'stop', text: 'hello from the host' })
    }
    expect(streams.size).toBe(5)
    // The daemon still holds the lock and serves: the sessions are its own.
    expect(fs.readFileSync(path.join(s.home, 'agentry.lock'), 'utf8').trim()).toBe(String(daemon.child.pid))
    const listed = jsonLines((await s.run(['sessions', '--json'])).stdout) as SessionSummary[]
    for (const id of streams) expect(listed.find((x) => x.id === id)).toMatchObject({ status: 'idle' })
    expect(daemon.child.exitCode).toBe(null)
  }, 60_000)

  it('Ctrl-C aborts the attached run on the host; the daemon keeps serving', async () => {
    const run = s.spawn(['run', '--json', '--agent', 'slow', '--model', 'script/x', 'take your time'])
    await run.waitFor(/"type":"status_change".*"status":"busy"/)
    const started = Date.now()
    expect(await interrupt(run)).toBe(130)
    expect(Date.now() - started).toBeLessThan(30_000) // long before the 60 s reply
    expect(run.output().stderr).toMatch(/run stopped; session ses_/)
    const sessionId = eventLines(run.output().stdout)[0].stream
    const listed = jsonLines((await s.run(['sessions', '--json'])).stdout) as SessionSummary[]
    // Interrupted, not failed: the session is left idle (with a notice saying so).
    expect(listed.find((x) => x.id === sessionId)).toMatchObject({ status: 'idle' })
    const after = await s.run(['run', '--model', 'script/x', 'still there?'])
    expect(after.code, after.stderr).toBe(0)
    expect(after.stdout).toBe('hello from the host\n')
  }, 60_000)

  it('listens on a 0600 socket in a 0700 folder of the data dir', () => {
    const file = localSocketPath(s.home)
    expect(path.dirname(file)).toBe(path.join(s.home, 'run'))
    expect(fs.statSync(file).isSocket()).toBe(true)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700)
  })
})

describe('with no host running', () => {
  it('commands started all at once share hosts: each attaches or runs its own, none is refused or cut off', async () => {
    const s = scene()
    try {
      const runs = [1, 2, 3, 4].map((i) => s.run(['run', '--model', 'script/x', `at once ${i}`]))
      const lists = Array.from({ length: 8 }, () => s.run(['sessions', '--json']))
      for (const r of await Promise.all([...runs, ...lists])) expect(r.code, r.stderr).toBe(0)
      for (const r of await Promise.all(runs)) expect(r.stdout).toBe('hello from the host\n')
      expect(jsonLines((await s.run(['sessions', '--json'])).stdout)).toHaveLength(4)
      // Every host that started has stopped: nothing holds the data dir.
      expect(fs.existsSync(path.join(s.home, 'agentry.lock'))).toBe(false)
    } finally {
      s.remove()
    }
  }, 120_000)

  it('a command started while another `agentry run` hosts the data dir attaches to that host', async () => {
    const s = scene()
    try {
      const first = s.spawn(['run', '--json', '--agent', 'slow', '--model', 'script/x', 'hold the host'])
      await first.waitFor(/"status":"busy"/)
      const second = await s.run(['run', '--model', 'script/x', 'quick one'])
      expect(second.code, second.stderr).toBe(0)
      expect(second.stdout).toBe('hello from the host\n')
      const listed = jsonLines((await s.run(['sessions', '--json'])).stdout) as SessionSummary[]
      expect(listed.map((x) => x.status).sort()).toEqual(['busy', 'idle'])
      expect(await interrupt(first)).toBe(130)
      // The first command's host stopped with it: nothing holds the data dir any more.
      expect(fs.existsSync(path.join(s.home, 'agentry.lock'))).toBe(false)
      expect(fs.existsSync(localSocketPath(s.home))).toBe(false)
    } finally {
      s.remove()
    }
  }, 60_000)
})
