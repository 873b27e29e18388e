import fs from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BUILTIN_TOOLS } from './builtin-tools'
import { runTool } from './run-tool'
import { makeContext, type TestContext } from './test-context'
import { loadShellGrammar } from '../permissions'

beforeAll(() => loadShellGrammar())

const contexts: TestContext[] = []
function setup() {
  const ctx = makeContext()
  contexts.push(ctx)
  return ctx
}
afterEach(() => contexts.splice(0).forEach((c) => c.cleanup()))
const bash = BUILTIN_TOOLS.find((t) => t.name === 'bash')!

/** Alive and not a zombie waiting to be reaped (PID 1 in a container may never reap it). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    // ESRCH (gone) is the expected case; anything else we also read as "not ours to see".
    return false
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    // /proc entry vanished between the two checks: the process is gone.
    return false
  }
}

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}

/** Collects the pids a command prints as "pid:N" through live progress output. */
function progressPids(ctx: TestContext): number[] {
  const pids: number[] = []
  let buffer = ''
  ctx.emitProgress = (text) => {
    buffer += text
    for (const m of buffer.matchAll(/pid:(\d+)\n/g)) if (!pids.includes(Number(m[1]))) pids.push(Number(m[1]))
  }
  return pids
}

describe('bash', () => {
  it('runs in the workdir, interleaves stdout and stderr, and reports the exit code', async () => {
    const ctx = setup()
    const r = await runTool(bash, { command: 'pwd; echo out; echo err >&2; sleep 0.05; echo out2; exit 3' }, ctx)
    expect(r.ok).toBe(true)
    expect(r.output).toBe(`${ctx.workdir}\nout\nerr\nout2\nExit code: 3`)
    expect(r.metadata).toMatchObject({ exitCode: 3, timedOut: false })
    expect(ctx.asks[0].ask).toEqual({ kind: 'command', subjects: ['pwd; echo out; echo err >&2; sleep 0.05; echo out2; exit 3'] })
  })

  it('says when there is no output and gives no stdin', async () => {
    const ctx = setup()
    expect((await runTool(bash, { command: 'true' }, ctx)).output).toBe('(no output)\nExit code: 0')
    expect((await runTool(bash, { command: 'cat; echo done' }, ctx)).output).toBe('done\nExit code: 0')
  })

  it('kills the whole process group on timeout and says so', async () => {
    const ctx = setup()
    const pids = progressPids(ctx)
    const started = Date.now()
    const r = await runTool(bash, { command: 'sleep 30 & echo pid:$!; echo pid:$$; wait', timeoutMs: 300 }, ctx)
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(r.output).toContain('Command timed out after 300 ms; its process group was killed (SIGTERM, then SIGKILL after 2 s).')
    expect(r.metadata).toMatchObject({ timedOut: true })
    expect(pids).toHaveLength(2)
    expect(await waitUntil(() => pids.every((p) => !isAlive(p)), 1_000)).toBe(true)
  })

  it('aborting mid-sleep returns within about 2 s and leaves no process behind, children included', async () => {
    const ctx = setup()
    const pids = progressPids(ctx)
    const started = Date.now()
    const run = runTool(bash, { command: 'sleep 30 & echo pid:$!; echo pid:$$; sleep 30' }, ctx)
    expect(await waitUntil(() => pids.length === 2, 5_000)).toBe(true)
    ctx.controller.abort()
    const r = await run
    expect(Date.now() - started).toBeLessThan(2_500)
    expect(r.ok).toBe(false)
    expect(r.output).toMatch(/^Aborted: bash was cancelled by the user\./)
    expect(await waitUntil(() => pids.every((p) => !isAlive(p)), 1_000)).toBe(true)
  })

  it('uses SIGKILL after 2 s for a command that ignores SIGTERM', async () => {
    const ctx = setup()
    const pids = progressPids(ctx)
    const started = Date.now()
    const r = await runTool(bash, { command: "trap '' TERM; echo pid:$$; sleep 30 & wait; sleep 30", timeoutMs: 200 }, ctx)
    const took = Date.now() - started
    expect(took).toBeGreaterThanOrEqual(2_000)
    expect(took).toBeLessThan(4_000)
    expect(r.output).toContain('Command timed out')
    expect(await waitUntil(() => pids.every((p) => !isAlive(p)), 1_000)).toBe(true)
  })

  it('does not hang on a background process that keeps the output open', async () => {
    const ctx = setup()
    const pids = progressPids(ctx)
    const started = Date.now()
    const r = await runTool(bash, { command: 'sleep 5 & echo pid:$!; echo started' }, ctx)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(r.output).toContain('started')
    expect(r.output).toContain('Exit code: 0')
    pids.forEach((p) => process.kill(p, 'SIGKILL'))
  })

  it('truncates huge output and saves the rest for read_file', async () => {
    const ctx = setup()
    const r = await runTool(bash, { command: 'seq 1 20000' }, ctx)
    expect(r.output).toContain('… [truncated: ')
    const full = fs.readFileSync(r.metadata?.fullOutputPath as string, 'utf8')
    expect(full.startsWith('1\n2\n')).toBe(true)
    expect(full).toContain('20000\nExit code: 0')
  })

  it('rejects timeouts above the 10-minute maximum with a clear message', async () => {
    const r = await runTool(bash, { command: 'true', timeoutMs: 700_000 }, setup())
    expect(r.output).toBe('Invalid arguments for bash: timeoutMs: Too big: expected number to be <=600000. Send {command, timeoutMs?, description?}.')
  })
})
