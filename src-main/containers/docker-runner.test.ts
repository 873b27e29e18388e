import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDockerRunner } from './docker-runner'
import { dockerOptions, engineUrl } from './engine'
import { ContainerError, type ContainerHandle, type ContainerRunner, type ContainerSpec, type ExecOptions } from './runner'
import { containersWithLabel, podmanCli, podmanEngine, type TestEngine } from './testing/podman'

// The real engine: Podman's Docker-compatible service (testing/podman.ts). CI installs podman (.ci/run), so there a
// missing engine fails these tests instead of skipping them.
const found = await podmanEngine()
const engine: TestEngine | undefined = 'url' in found ? found : undefined
if (!engine && process.env.CI) throw new Error(`CI has no container engine for the container tests: ${'reason' in found ? found.reason : ''}`)
const skip = !engine

const owner = `test-${randomUUID().slice(0, 8)}`
let workspace: string
let runner: ContainerRunner
const handles: ContainerHandle[] = []

function spec(over: Partial<ContainerSpec> = {}): ContainerSpec {
  const sessionId = over.sessionId ?? randomUUID()
  return {
    sessionId,
    rootSessionId: 'root-1',
    owner,
    image: engine!.image,
    mounts: [{ path: workspace }],
    workdir: workspace,
    network: false,
    limits: { cpus: 1, memoryMb: 256, pids: 128 },
    ...over,
  }
}

async function start(over: Partial<ContainerSpec> = {}): Promise<ContainerHandle> {
  const h = await runner.start(spec(over))
  handles.push(h)
  return h
}

function opts(over: Partial<ExecOptions> = {}): ExecOptions {
  return { cwd: workspace, timeoutMs: 30_000, signal: new AbortController().signal, maxChars: 100_000, ...over }
}

const containersOf = containersWithLabel

beforeAll(() => {
  if (skip) return
  workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-ct-')))
  runner = createDockerRunner({ engine: engine!.url, image: engine!.image }, {})
})

afterAll(async () => {
  if (skip) return
  await Promise.all(handles.map((h) => h.remove().catch(() => {})))
  for (const name of containersOf(`agentry.owner=${owner}`)) podmanCli(['rm', '-f', name])
  fs.rmSync(workspace, { recursive: true, force: true })
})

describe.skipIf(skip)('the Docker runner on a real engine (Podman)', () => {
  it('says what the engine is and whether the image is there', async () => {
    const s = await runner.status()
    expect(s).toMatchObject({ ok: true, kind: 'podman', image: { name: engine!.image, present: true } })
    const other = await createDockerRunner({ engine: engine!.url, image: 'localhost/no-such-image:1' }, {}).status()
    expect(other).toMatchObject({ ok: true, image: { present: false } })
  })

  it('runs commands: exit codes, output with stderr interleaved, cwd in the mount, files back on the host', async () => {
    const h = await start()
    expect(h.name).toMatch(/^agentry-/)
    const seen: string[] = []
    const r = await h.exec('echo one; echo two >&2; sleep 0.1; echo three; exit 3', opts({ onData: (t) => seen.push(t) }))
    expect(r).toMatchObject({ exitCode: 3, output: 'one\ntwo\nthree\n', dropped: 0 })
    expect(seen.join('')).toBe('one\ntwo\nthree\n')
    expect((await h.exec('pwd', opts())).output).toBe(`${workspace}\n`)
    expect((await h.exec('echo "$FOO"', opts({ env: { FOO: 'bar baz' } }))).output).toBe('bar baz\n')
    fs.mkdirSync(path.join(workspace, 'sub'), { recursive: true })
    expect((await h.exec('pwd', opts({ cwd: path.join(workspace, 'sub') }))).output).toBe(`${path.join(workspace, 'sub')}\n`)
    const r2 = await h.exec('echo made inside > inside.txt && [ -n "$BASH_VERSION" ] && echo bash', opts())
    expect(r2).toMatchObject({ exitCode: 0, output: 'bash\n' })
    expect(fs.readFileSync(path.join(workspace, 'inside.txt'), 'utf8')).toBe('made inside\n')
    const st = fs.statSync(path.join(workspace, 'inside.txt'))
    expect(st.uid).toBe(process.getuid!())
    const big = await h.exec('seq 1 20000', opts({ maxChars: 1000 }))
    expect(big.output.length).toBe(1000)
    expect(big.dropped).toBe(seq(20000).length - 1000)
  })

  it('has no network unless asked', async () => {
    const h = await start()
    expect((await h.exec('ls /sys/class/net', opts())).output.trim()).toBe('lo')
    const r = await h.exec('exec 3<>/dev/tcp/1.1.1.1/80 && echo connected', opts({ timeoutMs: 10_000 }))
    expect(r.exitCode).not.toBe(0)
    expect(r.output).not.toContain('connected')
  })

  it('stops a fork bomb at the pids limit; the container survives and is removed', async () => {
    const h = await start({ limits: { cpus: 1, memoryMb: 256, pids: 64 } })
    const r = await h.exec('b() { b | b & }; b; sleep 2; echo still-here', opts({ timeoutMs: 20_000 }))
    expect(r.killed ?? 'none').not.toBe('oom')
    // it may end by itself or by its timeout; the container still answers afterwards
    const after = await h.exec('echo alive', opts({ timeoutMs: 20_000 }))
    expect(after).toMatchObject({ exitCode: 0, output: 'alive\n' })
    await h.remove()
    expect(containersOf(`agentry.session=${h.name.slice('agentry-'.length)}`)).toEqual([])
  })

  it('kills a memory hog at the memory limit: killed oom', async () => {
    const h = await start({ limits: { cpus: 1, memoryMb: 64, pids: 64 } })
    const r = await h.exec('echo start; dd if=/dev/zero of=/dev/null bs=300M count=1', opts())
    expect(r.killed === 'oom' || r.exitCode === 137).toBe(true)
    expect(r.killed).toBe('oom')
    expect(r.output).toContain('start')
    expect((await h.exec('echo ok', opts())).output).toBe('ok\n')
  })

  it('ends a long command at its timeout, and on abort, with its children', async () => {
    const h = await start()
    let t = Date.now()
    const r = await h.exec('sleep 30 & sleep 31; echo never', opts({ timeoutMs: 500 }))
    expect(r).toMatchObject({ exitCode: null, killed: 'timeout' })
    expect(Date.now() - t).toBeLessThan(5_000)
    const ac = new AbortController()
    t = Date.now()
    setTimeout(() => ac.abort(), 300)
    const a = await h.exec('echo before; sleep 30', opts({ signal: ac.signal }))
    expect(a).toMatchObject({ exitCode: null, killed: 'abort', output: 'before\n' })
    expect(Date.now() - t).toBeLessThan(5_000)
    // nothing of either is left running
    const ps = await h.exec('for s in /proc/[0-9]*/stat; do read -r l < $s; echo "$l"; done | grep -c "(sleep)" || true', opts())
    // the init's own sleep is the only one
    expect(ps.output.trim()).toBe('1')
    const pre = new AbortController()
    pre.abort()
    expect(await h.exec('echo x', opts({ signal: pre.signal }))).toMatchObject({ exitCode: null, killed: 'abort' })
  })

  it('runs two containers at once, each with its own files and processes', async () => {
    const [a, b] = await Promise.all([start(), start()])
    expect(a.id).not.toBe(b.id)
    const [ra, rb] = await Promise.all([a.exec('echo a > /tmp/who; sleep 0.5; cat /tmp/who', opts()), b.exec('echo b > /tmp/who; sleep 0.5; cat /tmp/who', opts())])
    expect(ra.output).toBe('a\n')
    expect(rb.output).toBe('b\n')
  })

  it('remove leaves nothing and may be called twice', async () => {
    const s = spec()
    const h = await runner.start(s)
    expect(containersOf(`agentry.session=${s.sessionId}`)).toEqual([h.name])
    await Promise.all([h.remove(), h.remove()])
    await h.remove()
    expect(containersOf(`agentry.session=${s.sessionId}`)).toEqual([])
    await expect(h.exec('true', opts())).rejects.toThrow(ContainerError)
  })

  it('sweeps a crashed host: its containers not kept are removed, another owner is untouched', async () => {
    const crashed = `crashed-${randomUUID().slice(0, 8)}`
    const other = `other-${randomUUID().slice(0, 8)}`
    // a second runner stands for the host that crashed: its handles are dropped, never removed
    const before = createDockerRunner({ engine: engine!.url, image: engine!.image }, {})
    const lost = await before.start(spec({ owner: crashed }))
    const kept = await before.start(spec({ owner: crashed }))
    const others = await before.start(spec({ owner: other }))
    try {
      const keepId = kept.name.slice('agentry-'.length)
      const r = await runner.sweep(crashed, (id) => id === keepId)
      expect(r).toEqual({ removed: [lost.name], failed: [] })
      expect(containersOf(`agentry.owner=${crashed}`)).toEqual([kept.name])
      expect(containersOf(`agentry.owner=${other}`)).toEqual([others.name])
      expect((await runner.sweep(crashed, () => false)).removed).toEqual([kept.name])
    } finally {
      await Promise.all([lost, kept, others].map((h) => h.remove()))
    }
  })

  it('replaces a leftover container of the same session and owner', async () => {
    const s = spec()
    await runner.start(s)
    const again = await start({ sessionId: s.sessionId })
    expect((await again.exec('echo ok', opts())).output).toBe('ok\n')
  })

  it('runs commands in sh when the image has no bash, and still ends them at their timeout', async () => {
    const h = await start({ image: engine!.shImage })
    expect(await h.exec('echo "${BASH_VERSION:-none}"; echo err >&2; exit 4', opts())).toMatchObject({ exitCode: 4, output: 'none\nerr\n' })
    const t = Date.now()
    expect(await h.exec('sleep 30', opts({ timeoutMs: 500 }))).toMatchObject({ exitCode: null, killed: 'timeout' })
    expect(Date.now() - t).toBeLessThan(5_000)
    expect((await h.exec('echo ok', opts())).output).toBe('ok\n')
  })

  it("replaces the image's own entrypoint and command", async () => {
    const image = 'localhost/agentry-test-entrypoint:1'
    if (!podmanCli(['images', '-q', image]).trim()) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-ep-'))
      fs.writeFileSync(path.join(dir, 'Containerfile'), `FROM ${engine!.image}\nENTRYPOINT ["/bin/false"]\nCMD ["x"]\n`)
      podmanCli(['build', '-q', '-t', image, dir])
      fs.rmSync(dir, { recursive: true })
    }
    const h = await start({ image })
    expect(await h.exec('echo ok', opts())).toMatchObject({ exitCode: 0, output: 'ok\n' })
  })

  it('names a missing image in one sentence', async () => {
    const err = await runner.start(spec({ image: 'localhost/agentry-missing:0' })).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ContainerError)
    expect((err as Error).message).toMatch(/^The image localhost\/agentry-missing:0 is not on the container engine at unix:\/\/.*: build it .*pull it/)
    expect((err as Error).message).not.toMatch(/\n|at .*\.js/)
  })
})

describe('engine problems, without an engine', () => {
  it('a missing engine is one sentence naming how to start one', async () => {
    const url = `unix://${path.join(os.tmpdir(), `no-engine-${randomUUID()}.sock`)}`
    const r = createDockerRunner({ engine: url, image: 'x' }, {})
    const err = await r.start({ sessionId: 's', rootSessionId: 'r', owner: 'o', image: 'x', mounts: [], workdir: '/', network: false, limits: { cpus: 1, memoryMb: 64, pids: 64 } }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ContainerError)
    expect((err as Error).message).toBe(`No container engine at ${url}: start Docker, or run \`podman system service --time=0 unix:///run/podman/podman.sock\`, or set containers.engine in config.yaml.`)
    expect(await r.status()).toEqual({ ok: false, engine: url, message: (err as Error).message })
    await expect(r.sweep('o', () => false)).rejects.toThrow(/^No container engine at/)
  })

  it('takes the engine from settings, then DOCKER_HOST; tcp with TLS and ssh become dockerode options', () => {
    expect(engineUrl({ engine: 'unix:///x.sock' }, { DOCKER_HOST: 'tcp://h:1' })).toBe('unix:///x.sock')
    expect(engineUrl({}, { DOCKER_HOST: 'tcp://h:1' })).toBe('tcp://h:1')
    expect(dockerOptions('unix:///x.sock', {}, { DOCKER_HOST: 'tcp://elsewhere:2375' })).toMatchObject({ socketPath: '/x.sock', host: undefined })
    expect(dockerOptions('tcp://h:2375', {}, {})).toMatchObject({ host: 'h', port: '2375', protocol: 'http' })
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-tls-'))
    for (const f of ['ca.pem', 'cert.pem', 'key.pem']) fs.writeFileSync(path.join(dir, f), f)
    const tls = dockerOptions('tcp://h:2376', {}, { DOCKER_CERT_PATH: dir })
    expect(tls).toMatchObject({ host: 'h', protocol: 'https' })
    expect(String(tls.ca)).toBe('ca.pem')
    expect(() => dockerOptions('tcp://h:2376', { tls: { ca: path.join(dir, 'none.pem') } }, {})).toThrow(/^Cannot read the TLS file .*none\.pem/)
    fs.rmSync(dir, { recursive: true })
    expect(dockerOptions('ssh://me@box:2222', {}, { SSH_AUTH_SOCK: '/agent' })).toMatchObject({ protocol: 'ssh', host: 'box', port: '2222', username: 'me', sshOptions: { agent: '/agent' } })
    expect(() => dockerOptions('ftp://x', {}, {})).toThrow(ContainerError)
  })
})

function seq(n: number): string {
  let s = ''
  for (let i = 1; i <= n; i++) s += `${i}\n`
  return s
}
