import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { decideRequests, fromCompact, loadShellGrammar } from '../permissions'
import { DEFAULT_SANDBOX_POLICY, detectSandbox, type SandboxPolicy } from '../sandbox'
import { BUILTIN_TOOLS } from './builtin-tools'
import { runTool } from './run-tool'
import { makeContext, type TestContext } from './testing/test-context'
import { processesWith, waitUntil } from './testing/processes'

beforeAll(() => loadShellGrammar())

const contexts: TestContext[] = []
function setup(policy?: SandboxPolicy) {
  const ctx = makeContext()
  if (policy) ctx.sandbox = policy
  contexts.push(ctx)
  return ctx
}
afterEach(() => contexts.splice(0).forEach((c) => c.cleanup()))
const bash = BUILTIN_TOOLS.find((t) => t.name === 'bash')!

/** A sleep length no other process uses, so the test can find its own processes by command line. */
let serial = 0
const uniqueSleep = (base: number) => `${base}.${process.pid % 1000}${++serial}`

/** Process tests run both inside the sandbox (bubblewrap) and unconfined (the watchdog). */
const MODES: [string, SandboxPolicy][] = [
  ['sandboxed', DEFAULT_SANDBOX_POLICY],
  ['unconfined', { ...DEFAULT_SANDBOX_POLICY, enabled: false }],
]

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
    expect(r.output).toBe('Invalid arguments for bash: timeoutMs: must be at most 600000 (got 700000). Send {command, timeoutMs?, description?}.')
  })

  it('records how the command was confined, and says once per session when it was not', async () => {
    const support = await detectSandbox()
    const sandboxed = await runTool(bash, { command: 'true' }, setup())
    expect(sandboxed.metadata?.sandbox).toEqual(support.kind === 'none' ? { mode: 'unavailable', network: true, reason: support.reason } : { mode: support.kind, network: false })
    const ctx = setup({ ...DEFAULT_SANDBOX_POLICY, enabled: false })
    ctx.rootSessionId = `ses_unconfined_${process.pid}`
    const first = await runTool(bash, { command: 'true' }, ctx)
    const second = await runTool(bash, { command: 'true' }, ctx)
    expect(first.metadata?.sandbox).toEqual({ mode: 'off', network: true, reason: 'the sandbox is turned off in Settings' })
    expect(first.output).toContain('Note: the bash sandbox is turned off in Settings')
    expect(second.output).toBe('(no output)\nExit code: 0')
  })
})

describe('bash permission asks: the line, and each file it writes as write_file', () => {
  const asksFor = (command: string, ctx = setup()) => [bash.permission({ command }, ctx) ?? []].flat()
  it.each<[string, { subjects: string[]; outsideWorkspace?: true }[]]>([
    ['echo x > out.txt', [{ subjects: ['out.txt'] }]],
    ['echo x >> logs/a.log 2>&1', [{ subjects: ['logs/a.log'] }]],
    ['cd sub && echo x > f', [{ subjects: ['f'] }, { subjects: ['sub/f'] }]],
    ['echo x | tee a b', [{ subjects: ['a'] }, { subjects: ['b'] }]],
    ['echo x > /dev/null 2>/dev/stderr; ls >&2 | wc -c', []],
  ])('%j', (command, writes) => {
    const ctx = setup()
    expect(asksFor(command, ctx)).toEqual([
      // A line that writes nothing and only reads the workspace is marked read-only (issue 28).
      { kind: 'command', subjects: [command], ...(writes.length === 0 ? { readOnly: { reads: [] } } : {}) },
      ...writes.map((w) => ({ kind: 'path', tool: 'write_file', access: 'write', ...w })),
    ])
  })

  it('a target outside the workspace — by .., absolute path or a symlink — is an outside write', () => {
    const ctx = setup()
    fs.symlinkSync('/etc', `${ctx.workdir}/etc-link`)
    const outside = (command: string) => asksFor(command, ctx).slice(1)
    expect(outside('echo pwned > ../outside.txt')).toEqual([{ kind: 'path', tool: 'write_file', access: 'write', subjects: [`${path.dirname(ctx.workdir)}/outside.txt`], outsideWorkspace: true }])
    expect(outside('echo x > /etc/motd')).toEqual([{ kind: 'path', tool: 'write_file', access: 'write', subjects: ['/etc/motd'], outsideWorkspace: true }])
    expect(outside('echo x > etc-link/motd')).toEqual([{ kind: 'path', tool: 'write_file', access: 'write', subjects: ['/etc/motd'], outsideWorkspace: true }])
  })
})

it('a symlink bash creates mid-run to outside the workspace is still outside for read_file', async () => {
  const ctx = setup()
  const chain = [{ agent: fromCompact({ '*': 'allow' }), static: fromCompact({ bash: 'allow', read_file: { '*': 'allow' } }), runtime: [] }]
  ctx.authorize = async (asks) => {
    const d = decideRequests(chain, (Array.isArray(asks) ? asks : [asks]).map((a) => ({ tool: a.tool ?? 'bash', kind: a.kind, subjects: a.subjects, outsideWorkspace: a.outsideWorkspace, access: a.access })))
    return d.action === 'allow' ? { ok: true } : { ok: false, message: d.reason }
  }
  const made = await runTool(bash, { command: 'ln -s /etc/hostname host-link && echo linked' }, ctx)
  expect(made.output).toBe('linked\nExit code: 0')
  const read = await runTool(BUILTIN_TOOLS.find((t) => t.name === 'read_file')!, { path: 'host-link' }, ctx)
  expect(read.ok).toBe(false)
  expect(read.output).toBe('"/etc/hostname" is outside the workspace and no rule allows that path → deny')
})

describe.each(MODES)('bash processes (%s)', (mode, policy) => {
  it('kills the whole process group on timeout and says so', async () => {
    const ctx = setup(policy)
    const s = uniqueSleep(30)
    const started = Date.now()
    const r = await runTool(bash, { command: `sleep ${s} & sleep ${s}; wait`, timeoutMs: 300 }, ctx)
    // Well before the 30 s sleeps end, with room for a loaded machine (the timeout itself is the causal check).
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(r.output).toContain('Command timed out after 300 ms; its process group was killed (SIGTERM, then SIGKILL after 2 s).')
    expect(r.metadata).toMatchObject({ timedOut: true })
    expect(await waitUntil(() => processesWith(`sleep ${s}`).length === 0, 10_000)).toBe(true)
  })

  it('aborting mid-sleep returns within about 2 s and leaves no process behind, children included', async () => {
    const ctx = setup(policy)
    const s = uniqueSleep(30)
    const started = Date.now()
    const run = runTool(bash, { command: `sleep ${s} & sleep ${s}` }, ctx)
    expect(await waitUntil(() => processesWith(`sleep ${s}`).length === 2, 5_000)).toBe(true)
    ctx.controller.abort()
    const r = await run
    expect(Date.now() - started).toBeLessThan(15_000) // not the 30 s of the sleeps
    expect(r.ok).toBe(false)
    expect(r.output).toMatch(/^Aborted: bash was cancelled by the user\./)
    expect(await waitUntil(() => processesWith(`sleep ${s}`).length === 0, 10_000)).toBe(true)
  })

  // Unconfined, the group gets SIGTERM (ignored) then SIGKILL; sandboxed, bubblewrap itself takes the SIGTERM and
  // its pid namespace (the whole command) goes with it at once.
  it('ends a command that ignores SIGTERM (SIGKILL after 2 s when unconfined)', async () => {
    const ctx = setup(policy)
    const s = uniqueSleep(30)
    const started = Date.now()
    const r = await runTool(bash, { command: `trap '' TERM; sleep ${s} & wait; sleep ${s}`, timeoutMs: 200 }, ctx)
    const took = Date.now() - started
    // Causality: unconfined, the 2 s grace after SIGTERM was waited out (a loaded machine only adds to it); either
    // way the group ended long before its 30 s sleeps.
    if (mode === 'unconfined') expect(took).toBeGreaterThanOrEqual(2_000)
    expect(took).toBeLessThan(20_000)
    expect(r.output).toContain('Command timed out')
    expect(await waitUntil(() => processesWith(`sleep ${s}`).length === 0, 10_000)).toBe(true)
  })

  it('returns when the command ends, and its background processes end with it', async () => {
    const ctx = setup(policy)
    const s = uniqueSleep(30)
    const started = Date.now()
    const r = await runTool(bash, { command: `sleep ${s} & echo started` }, ctx)
    expect(Date.now() - started).toBeLessThan(15_000) // the call returned; the 30 s background sleep did not hold it
    expect(r.output).toBe('started\nExit code: 0')
    expect(await waitUntil(() => processesWith(`sleep ${s}`).length === 0, 10_000)).toBe(true)
  })
})
