import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SequencedEvent } from '../../src-shared'
import { agentry, buildCli, spawnAgentry, tempDir, writeFiles, type AgentryProcess } from './testing/cli-process'

/**
 * `agentry run` stopped from outside, through the real command and real signals: Ctrl-C and SIGTERM leave the session
 * idle with the turn recorded as interrupted before the command exits (on its own host and attached to `agentry
 * serve`); `kill -9` leaves it to the next host, and until then `agentry sessions` / `show` call it interrupted.
 */
beforeAll(() => buildCli(), 60_000)

const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '')
const events = (s: string): SequencedEvent[] =>
  lines(s)
    .map((l) => JSON.parse(l) as unknown)
    .filter((e): e is SequencedEvent => typeof e === 'object' && e !== null && 'seq' in e)

function scene() {
  const home = tempDir('intr-home')
  const work = tempDir('intr-work')
  writeFiles(home, {
    'script.yaml': { agents: { build: [{ text: 'too late', delayMs: 120_000, repeat: true }], '*': [{ text: 'Title', repeat: true }] } },
  })
  const env = { AGENTRY_SCRIPT: path.join(home, 'script.yaml') }
  return {
    home,
    run: (args: string[]) => agentry(args, { home, cwd: work, env }),
    spawn: (args: string[]) => spawnAgentry(args, { home, cwd: work, env }),
    remove: () => {
      fs.rmSync(home, { recursive: true, force: true })
      fs.rmSync(work, { recursive: true, force: true })
    },
  }
}

const scenes: ReturnType<typeof scene>[] = []
afterAll(() => scenes.forEach((s) => s.remove()))

/** A run that is busy (its model is waiting), and the id of its session. */
async function busyRun(s: ReturnType<typeof scene>): Promise<{ p: AgentryProcess; sessionId: string }> {
  const p = s.spawn(['run', '--json', '--model', 'script/x', 'work slowly'])
  await p.waitFor(/"status":"busy"/, 30_000)
  const busy = events(p.output().stdout).find((e) => e.event.type === 'status_change')!
  return { p, sessionId: busy.event.sessionId }
}

describe.each([
  { signal: 'SIGINT' as const, code: 130, host: 'its own host' },
  { signal: 'SIGTERM' as const, code: 143, host: 'its own host' },
  { signal: 'SIGINT' as const, code: 130, host: 'agentry serve' },
  { signal: 'SIGTERM' as const, code: 143, host: 'agentry serve' },
])('$signal of agentry run on $host', ({ signal, code, host }) => {
  it('stops the run, leaves the session idle with the turn interrupted, then exits 128+signal', async () => {
    const s = scene()
    scenes.push(s)
    const daemon = host === 'agentry serve' ? s.spawn(['serve', '--port', '0']) : undefined
    try {
      if (daemon) await daemon.waitFor(/running at http/, 30_000)
      const { p, sessionId } = await busyRun(s)
      p.child.kill(signal)
      expect(await p.exited).toBe(code)
      const out = p.output()
      expect(out.stderr).toMatch(/stopping the run/)
      expect(out.stderr).not.toMatch(/\n\s+at |Error:/)
      // Before it exited, the command saw its session go idle because it was interrupted.
      const idle = events(out.stdout).find((e) => e.event.type === 'status_change' && e.event.status === 'idle')
      expect(idle?.event).toMatchObject({ sessionId, reason: expect.stringMatching(/^interrupted/) })
      const shown = await s.run(['show', sessionId, '--json'])
      expect(shown.code).toBe(0)
      const tree = JSON.parse(shown.stdout) as { session: { status: string }; messages: { role: string; metadata: Record<string, unknown> }[] }
      expect(tree.session.status).toBe('idle')
      expect(tree.messages.at(-1)).toMatchObject({ role: 'assistant', metadata: { notice: 'interrupted' } })
      const listed = await s.run(['sessions'])
      expect(listed.stdout).toMatch(new RegExp(`${sessionId}\\s+build\\s+idle`))
    } finally {
      if (daemon && daemon.child.exitCode === null) {
        daemon.child.kill('SIGINT')
        await daemon.exited
      }
    }
  }, 90_000)
})

describe('kill -9 of agentry run (its host dies with it)', () => {
  it('sessions and show call the session interrupted, read-only, until the next host marks it idle', async () => {
    const s = scene()
    scenes.push(s)
    const { p, sessionId } = await busyRun(s)
    p.child.kill('SIGKILL')
    await p.exited

    const listed = await s.run(['sessions'])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(new RegExp(`${sessionId}\\s+build\\s+interrupted`))
    expect(listed.stderr).toMatch(/no Agentry host is running/)
    const json = await s.run(['sessions', '--json'])
    expect(JSON.parse(lines(json.stdout)[0]!)).toMatchObject({ id: sessionId, status: 'interrupted' })
    const shown = await s.run(['show', sessionId, '--json'])
    expect(shown.code).toBe(0)
    expect((JSON.parse(shown.stdout) as { session: { status: string } }).session.status).toBe('interrupted')

    // Looking changed nothing: the stored row is still busy until a host starts and reconciles it.
    const again = await s.run(['sessions', '--json'])
    expect(JSON.parse(lines(again.stdout)[0]!)).toMatchObject({ status: 'interrupted' })
    const daemon = s.spawn(['serve', '--port', '0'])
    try {
      await daemon.waitFor(/running at http/, 30_000)
      const live = await s.run(['sessions', '--json'])
      expect(JSON.parse(lines(live.stdout)[0]!)).toMatchObject({ id: sessionId, status: 'idle' })
      expect(live.stderr).not.toMatch(/no Agentry host is running/)
    } finally {
      daemon.child.kill('SIGINT')
      await daemon.exited
    }
  }, 90_000)
})
