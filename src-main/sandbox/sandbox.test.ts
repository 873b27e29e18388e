import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadShellGrammar, protectedRoots } from '../permissions'
import { BUILTIN_TOOLS, runTool } from '../tools'
import { makeContext, makeTempDir, type TestContext } from '../tools/testing/test-context'
import { detectSandbox, prepareCommand, seatbeltProfile, type SandboxPolicy } from './index'

/**
 * The OS sandbox, through the real bash tool and real bubblewrap: the permission gate of these contexts allows
 * everything (as `bash: allow` would), so only the sandbox stands between the command and the file system.
 */
const bash = BUILTIN_TOOLS.find((t) => t.name === 'bash')!
const contexts: TestContext[] = []
const dirs: string[] = []
let server: http.Server
let port = 0

beforeAll(async () => {
  await loadShellGrammar()
  server = http.createServer((_req, res) => res.end('reached'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
afterEach(() => {
  contexts.splice(0).forEach((c) => c.cleanup())
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }))
})

function setup(extra: Partial<SandboxPolicy> = {}) {
  const ctx = makeContext()
  const dataDir = makeTempDir('agentry-sandbox-data-')
  dirs.push(dataDir)
  ctx.sandbox = { enabled: true, network: false, readOnly: protectedRoots(ctx.workdir, dataDir).map((r) => r.path), hidden: [dataDir], writable: [], ...extra }
  contexts.push(ctx)
  return { ctx, dataDir }
}

const support = await detectSandbox()
// bubblewrap is required where the issue requires it (Linux, and .ci/run installs it); say so instead of passing.
const linux = process.platform === 'linux'

describe.runIf(linux)('the bash sandbox (bubblewrap)', () => {
  it('is available here', () => {
    expect(support).toMatchObject({ kind: 'bwrap' })
  })

  it('a write outside the workspace fails inside the sandbox, though the rules allowed the line', async () => {
    const { ctx } = setup()
    // Not under /tmp: inside the sandbox /tmp is the command's own temp folder, which would hide it instead.
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir(), 'agentry-outside-')))
    dirs.push(outside)
    const r = await runTool(bash, { command: `echo pwned > ${outside}/a.txt; cp /etc/hostname ${outside}/b.txt; touch ${outside}/c.txt; echo done` }, ctx)
    expect(r.output).toContain('Read-only file system')
    expect(r.output).toContain('done')
    expect(fs.readdirSync(outside)).toEqual([])
  })

  it('writes inside the workspace and the temp folder (/tmp, $TMPDIR) work', async () => {
    const { ctx } = setup()
    const r = await runTool(bash, { command: 'echo ok > in-ws.txt && echo t > "$TMPDIR/t" && echo t2 > /tmp/t2 && cat /tmp/t "$TMPDIR/t2" && echo "$TMPDIR"' }, ctx)
    expect(r.output).toBe('t\nt2\n/tmp\nExit code: 0')
    expect(fs.readFileSync(path.join(ctx.workdir, 'in-ws.txt'), 'utf8')).toBe('ok\n')
  })

  it('each command gets its own temp folder, removed by cleanup', async () => {
    const { ctx } = setup()
    const prepared = await prepareCommand('true', { workdir: ctx.workdir, policy: ctx.sandbox!, env: process.env })
    const tmp = prepared.args[prepared.args.indexOf('/tmp') - 1]
    expect(tmp).toMatch(/agentry-bash-[^/]+\/tmp$/)
    expect(fs.existsSync(tmp)).toBe(true)
    prepared.cleanup()
    expect(fs.existsSync(path.dirname(tmp))).toBe(false)
  })

  it('has no network by default, and network when the policy allows it', async () => {
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && tail -n1 <&3`
    const off = await runTool(bash, { command: probe }, setup().ctx)
    expect(off.output).not.toContain('reached')
    expect(off.metadata?.sandbox).toEqual({ mode: 'bwrap', network: false })
    const on = await runTool(bash, { command: probe }, setup({ network: true }).ctx)
    expect(on.output).toContain('reached')
    expect(on.metadata?.sandbox).toEqual({ mode: 'bwrap', network: true })
  })

  it('protected paths stay read-only; missing ones cannot be created, and leave nothing behind', async () => {
    const { ctx } = setup()
    fs.mkdirSync(path.join(ctx.workdir, '.agents'))
    fs.writeFileSync(path.join(ctx.workdir, '.agents', 'permissions.jsonc'), '{}')
    execFileSync('git', ['init', '-q', ctx.workdir])
    const before = fs.readFileSync(path.join(ctx.workdir, '.git', 'config'), 'utf8')
    const attempts = [
      `echo '{"bash":"allow"}' > .agents/permissions.jsonc`,
      'mkdir -p .agents/agents && echo x > .agents/agents/evil.md',
      'mkdir -p .claude/agents',
      `echo '{}' > .mcp.json`,
      'mkdir .opencode',
      'git config core.fsmonitor "rm -rf /"',
      'echo "rm x" > .git/hooks/pre-commit',
      'mv .agents gone',
      'rm -rf .agents',
    ]
    for (const command of attempts) {
      const r = await runTool(bash, { command: `${command} && echo WROTE` }, ctx)
      expect(r.output, command).not.toContain('WROTE')
    }
    expect(fs.readFileSync(path.join(ctx.workdir, '.agents', 'permissions.jsonc'), 'utf8')).toBe('{}')
    expect(fs.readFileSync(path.join(ctx.workdir, '.git', 'config'), 'utf8')).toBe(before)
    expect(fs.existsSync(path.join(ctx.workdir, '.git', 'hooks', 'pre-commit'))).toBe(false)
    for (const name of ['.claude', '.mcp.json', '.opencode']) expect(fs.existsSync(path.join(ctx.workdir, name)), name).toBe(false)
    // The rest of the workspace stays writable.
    expect((await runTool(bash, { command: 'echo ok > fine.txt && cat fine.txt' }, ctx)).output).toBe('ok\nExit code: 0')
  })

  it('hides the data dir (keys, database)', async () => {
    const { ctx, dataDir } = setup()
    fs.writeFileSync(path.join(dataDir, 'keys.json'), '{"anthropic":"sk-secret"}')
    const r = await runTool(bash, { command: `cat ${dataDir}/keys.json; ls -A ${dataDir} | wc -l` }, ctx)
    expect(r.output).not.toContain('sk-secret')
    expect(r.output).toContain('No such file or directory')
  })

  it('a workspace inside the data dir (a task worktree) is writable, and the rest of the data dir stays hidden', async () => {
    const { ctx, dataDir } = setup()
    fs.writeFileSync(path.join(dataDir, 'keys.json'), '{"anthropic":"sk-secret"}')
    const worktree = path.join(dataDir, 'worktrees', 'ses_x')
    fs.mkdirSync(worktree, { recursive: true })
    ctx.workdir = worktree
    const r = await runTool(bash, { command: `cat ${dataDir}/keys.json; echo made > new.txt && cat new.txt` }, ctx)
    expect(r.output).not.toContain('sk-secret')
    expect(r.output).toContain('No such file or directory')
    expect(fs.readFileSync(path.join(worktree, 'new.txt'), 'utf8')).toBe('made\n')
  })

  it('a skill folder in the data dir stays readable (its scripts run) and never writable; the rest of the data dir stays hidden', async () => {
    const skill = (dataDir: string) => path.join(dataDir, 'skills', 'pdf')
    const { ctx, dataDir } = setup()
    fs.mkdirSync(path.join(skill(dataDir), 'scripts'), { recursive: true })
    fs.writeFileSync(path.join(skill(dataDir), 'scripts', 'hello.sh'), 'echo hello from the skill\n')
    fs.writeFileSync(path.join(dataDir, 'keys.json'), '{"anthropic":"sk-secret"}')
    ctx.sandbox = { ...ctx.sandbox!, shown: [skill(dataDir)] }
    const r = await runTool(bash, { command: `bash ${skill(dataDir)}/scripts/hello.sh; cat ${dataDir}/keys.json; echo x > ${skill(dataDir)}/new.txt; echo y > ${dataDir}/dropped.txt; ls ${dataDir}` }, ctx)
    expect(r.output).toContain('hello from the skill')
    expect(r.output).not.toContain('sk-secret')
    expect(r.output).toMatch(/new\.txt: Read-only file system/)
    expect(r.output).toMatch(/dropped\.txt: Read-only file system/)
    expect(fs.existsSync(path.join(skill(dataDir), 'new.txt'))).toBe(false)
    expect(fs.existsSync(path.join(dataDir, 'dropped.txt'))).toBe(false)
    // Without it (the old policy), the script is as hidden as the keys.
    const before = setup()
    fs.mkdirSync(path.join(skill(before.dataDir), 'scripts'), { recursive: true })
    fs.writeFileSync(path.join(skill(before.dataDir), 'scripts', 'hello.sh'), 'echo hello from the skill\n')
    expect((await runTool(bash, { command: `bash ${skill(before.dataDir)}/scripts/hello.sh` }, before.ctx)).output).not.toContain('hello from the skill')
  })

  it('a folder the person made writable is writable', async () => {
    const extra = makeTempDir('agentry-writable-')
    dirs.push(extra)
    const { ctx } = setup({ writable: [extra] })
    await runTool(bash, { command: `echo cache > ${extra}/c` }, ctx)
    expect(fs.readFileSync(path.join(extra, 'c'), 'utf8')).toBe('cache\n')
  })
})

describe('without a sandbox', () => {
  it('says why and runs the command under the watchdog', async () => {
    const prepared = await prepareCommand('true', { workdir: os.tmpdir(), policy: { enabled: true, network: false, readOnly: [], hidden: [], writable: [] }, env: { PATH: '/nonexistent' } })
    expect(prepared.state.mode).toBe(process.platform === 'darwin' ? 'seatbelt' : 'unavailable')
    if (process.platform === 'linux') {
      expect(prepared.state.reason).toBe('bubblewrap (bwrap) is not installed; install the "bubblewrap" package')
      expect(prepared).toMatchObject({ file: 'sh', watchdog: true })
    }
    prepared.cleanup()
  })
})

describe('the macOS Seatbelt profile', () => {
  it('denies writes outside the workspace and temp, keeps protected paths read-only, hides the data dir, and cuts the network', () => {
    const policy: SandboxPolicy = { enabled: true, network: false, readOnly: ['/w/.agents', '/w/.git/config'], hidden: ['/data'], writable: ['/cache'] }
    const profile = seatbeltProfile({ workdir: '/w', tmp: '/private/tmp/run', policy })
    expect(profile).toBe(
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write*)',
        '(allow file-write* (subpath "/w") (subpath "/private/tmp/run") (subpath "/cache") (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr") (literal "/dev/tty") (regex #"^/dev/fd/"))',
        '(deny file-write* (subpath "/w/.agents") (subpath "/w/.git/config"))',
        '(deny file-read* file-write* (subpath "/data"))',
        '(deny network*)',
        '',
      ].join('\n'),
    )
    expect(seatbeltProfile({ workdir: '/w', tmp: '/t', policy: { ...policy, network: true } })).not.toContain('network')
    // A skill folder in the data dir is read again after the deny (the last matching rule wins); writes stay denied.
    const shown = seatbeltProfile({ workdir: '/w', tmp: '/t', policy: { ...policy, shown: ['/data/skills/pdf', '/elsewhere'] } })
    expect(shown).toContain('(deny file-read* file-write* (subpath "/data"))\n(allow file-read* (subpath "/data/skills/pdf"))\n')
    expect(shown).not.toContain('/elsewhere')
  })
})
