import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { McpServerConfig } from '../../src-shared'
import type { McpServerEntry } from '../config'
import { groupAlive, runTool, type ToolDef } from '../tools'
import { makeContext, makeTempDir } from '../tools/testing/test-context'
import { McpPool } from './index'
import { BAD_SCHEMA_SERVER, EVERYTHING, EXITING_SERVER, filesystemServer, SILENT_SERVER, startHttpServer, type HttpServer } from './testing/servers'

const workdir = makeTempDir('agentry-mcp-work-')
const pools: McpPool[] = []
const dirs: string[] = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.dispose()))
})
afterAll(() => {
  for (const d of [workdir, ...dirs]) fs.rmSync(d, { recursive: true, force: true })
})

/** A host's pool; each with a data dir of its own unless given (a shared one would offer cached tool lists). */
function pool(env: NodeJS.ProcessEnv = process.env, dir = makeTempDir('agentry-mcp-data-')): McpPool {
  dirs.push(dir)
  const p = new McpPool({ dataDir: dir, env })
  pools.push(p)
  return p
}

function entry(name: string, config: McpServerConfig, o: Partial<McpServerEntry> = {}): McpServerEntry {
  return { name, config, source: { file: '/home/me/config.yaml', scope: 'user' }, needsTrust: false, errors: [], notes: [], ...o }
}

async function call(tools: ToolDef[], name: string, input: unknown, ctx = makeContext({ workdir })) {
  const def = tools.find((t) => t.name === name)
  if (!def) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`)
  return { ...(await runTool(def, input, ctx)), ctx }
}

describe('MCP servers from the npm registry, over stdio', () => {
  it('server-everything: lists its tools as mcp__everything__*, with the schema as given, and calls them', async () => {
    const { tools, unavailable } = await pool().toolsFor(workdir, [entry('everything', EVERYTHING)])
    expect(unavailable).toEqual(new Map())
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-tiny-image']))
    const sum = tools.find((t) => t.name === 'mcp__everything__get-sum')!
    expect(sum.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] })

    const echo = await call(tools, 'mcp__everything__echo', { message: 'hi there' })
    expect(echo).toMatchObject({ ok: true, output: 'Echo: hi there', metadata: { mcp: { server: 'everything', tool: 'echo' } } })
    // The permission gate sees the tool by its full name, with the server's tool name as the subject.
    expect(echo.ctx.asks).toEqual([{ ask: { kind: 'name', subjects: ['echo'] }, display: { summary: 'MCP server "everything", tool "echo"' } }])
    expect((await call(tools, 'mcp__everything__get-sum', { a: 2, b: 40 })).output).toMatch(/42/)
  })

  it('arguments are checked against the server’s schema before any approval or call', async () => {
    const { tools } = await pool().toolsFor(workdir, [entry('everything', EVERYTHING)])
    const r = await call(tools, 'mcp__everything__get-sum', { a: 'two' })
    expect(r.ok).toBe(false)
    expect(r.output).toBe('Invalid arguments for mcp__everything__get-sum: b: required; a: must be number. Send {a, b}.')
    expect(r.ctx.asks).toEqual([])
  })

  it('results: an image becomes an attachment, resource links are named with their URI', async () => {
    const { tools } = await pool().toolsFor(workdir, [entry('everything', EVERYTHING)])
    const image = await call(tools, 'mcp__everything__get-tiny-image', {})
    expect(image.ok).toBe(true)
    expect(image.output).toMatch(/\[image 1: image\/png, \d+(\.\d)? (B|KB)\]/)
    const attachments = (image.metadata as { attachments: { type: string; mediaType: string; data: string }[] }).attachments
    expect(attachments).toHaveLength(1)
    expect(attachments[0]).toMatchObject({ type: 'image', mediaType: 'image/png' })
    expect(Buffer.from(attachments[0].data, 'base64').subarray(1, 4).toString()).toBe('PNG')
    const links = await call(tools, 'mcp__everything__get-resource-links', { count: 2 })
    expect(links.output).toMatch(/\[resource link: .+ <demo:\/\/resource\/[^>]+>/)
  })

  it('server-filesystem scoped to a folder: lists and reads there; an access outside is the server’s error, as a tool error', async () => {
    const scope = makeTempDir('agentry-mcp-fs-')
    fs.writeFileSync(path.join(scope, 'notes.txt'), 'remember the milk\n')
    try {
      const { tools } = await pool().toolsFor(workdir, [entry('fs', filesystemServer(scope))])
      expect((await call(tools, 'mcp__fs__list_directory', { path: scope })).output).toContain('[FILE] notes.txt')
      expect((await call(tools, 'mcp__fs__read_text_file', { path: path.join(scope, 'notes.txt') })).output).toBe('remember the milk\n')
      const outside = await call(tools, 'mcp__fs__read_text_file', { path: '/etc/hostname' })
      expect(outside.ok).toBe(false)
      expect(outside.output).toMatch(/Access denied|outside allowed directories/i)
    } finally {
      fs.rmSync(scope, { recursive: true, force: true })
    }
  })

  it('a tool whose schema is not JSON Schema is skipped and reported; the server’s other tools work; isError is a tool error', async () => {
    const p = pool()
    const e = entry('odd', BAD_SCHEMA_SERVER)
    const { tools } = await p.toolsFor(workdir, [e])
    expect(tools.map((t) => t.name)).toEqual(['mcp__odd__grow', 'mcp__odd__fine', 'mcp__odd__fails'])
    expect(p.list(workdir, [e])[0].problems).toEqual([expect.stringMatching(/^tool broken skipped: its input schema is not valid JSON Schema \(.*type.*\)/)])
    expect((await call(tools, 'mcp__odd__fine', { n: 3 })).output).toBe('fine: {"n":3}')
    expect(await call(tools, 'mcp__odd__fails', {})).toMatchObject({ ok: false, output: 'the database is locked' })
  })
})

it('tools/list_changed: the new list is read and the next run is offered the new tool', async () => {
  const p = pool()
  const e = entry('odd', BAD_SCHEMA_SERVER)
  const { tools } = await p.toolsFor(workdir, [e])
  expect(tools.map((t) => t.name)).not.toContain('mcp__odd__extra')
  expect((await call(tools, 'mcp__odd__grow', {})).output).toBe('grown')
  const end = Date.now() + 10_000
  while (!p.list(workdir, [e])[0].tools.some((t) => t.name === 'extra') && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
  expect((await p.toolsFor(workdir, [e])).tools.map((t) => t.name)).toContain('mcp__odd__extra')
})

describe('starting', () => {
  it('a server that never answers initialize fails after its start timeout, with its stderr tail', async () => {
    const started = Date.now()
    const { unavailable } = await pool().toolsFor(workdir, [entry('silent', { ...SILENT_SERVER, startTimeoutSeconds: 1 })])
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(unavailable.get('silent')).toMatch(/^MCP server "silent" \(.+\) did not answer initialize within 1 s \(startTimeoutSeconds\); it was stopped\.\nLast stderr lines \(.+silent-[0-9a-f]{8}\.log\):\n {2}warming up the cache$/)
  })

  it('a server that exits at once: its exit code and last stderr lines; the log file keeps them', async () => {
    const p = pool()
    const e = entry('exits', EXITING_SERVER)
    const { unavailable } = await p.toolsFor(workdir, [e])
    expect(unavailable.get('exits')).toMatch(/exited with code 3 before it answered initialize\.\nLast stderr lines .*\n {2}config file missing: \/nope\.json/)
    const info = p.list(workdir, [e])[0]
    expect(info).toMatchObject({ status: 'error', lastError: unavailable.get('exits') })
    expect(fs.readFileSync(info.logFile!, 'utf8')).toMatch(/--- .* start: .* -e .*\nconfig file missing: \/nope\.json\n/)
  })

  it('${VAR} in env: set → passed; missing → that server only is unavailable, naming the variable', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, AGENTRY_TEST_GREETING: 'hello from env' }
    delete env.AGENTRY_TEST_MISSING
    const getEnv = entry('env', { ...EVERYTHING, env: { GREETING: '${AGENTRY_TEST_GREETING}', OTHER: '${AGENTRY_TEST_MISSING:-fallback}' } })
    const broken = entry('broken', { ...EVERYTHING, env: { TOKEN: '${AGENTRY_TEST_MISSING}' } })
    const { tools, unavailable } = await pool(env).toolsFor(workdir, [getEnv, broken])
    expect(unavailable.get('broken')).toBe('MCP server "broken" (/home/me/config.yaml) cannot start: the environment variable AGENTRY_TEST_MISSING (in env.TOKEN) is not set; set it where Agentry starts (or give a default: ${NAME:-value})')
    const out = (await call(tools, 'mcp__env__get-env', {})).output
    expect(out).toContain('"GREETING": "hello from env"')
    expect(out).toContain('"OTHER": "fallback"')
    // Agentry's own secrets are not inherited: only the safe list and what the definition names.
    expect(out).not.toContain('AGENTRY_TEST_GREETING')
  })

  it('a workspace server without trust, a disabled one and a malformed one are never started, each saying why', async () => {
    const p = pool()
    const entries = [
      entry('theirs', EVERYTHING, { needsTrust: true, source: { file: path.join(workdir, '.mcp.json'), scope: 'workspace' } }),
      entry('off', { ...EVERYTHING, disabled: true }),
      entry('bad', null as unknown as McpServerConfig, { errors: ['/home/me/config.yaml: mcp.bad.command: required'] }),
    ]
    const { tools, unavailable } = await p.toolsFor(workdir, entries)
    expect(tools).toEqual([])
    expect(unavailable.get('theirs')).toMatch(new RegExp(`defined in ${path.join(workdir, '.mcp.json')}, a workspace file you have not trusted, so it is not started \\(it would run: .*server-everything.*\\)\\. If that is what you want, run "agentry trust --workdir ${workdir}"`))
    expect(unavailable.get('off')).toBe('MCP server "off" is disabled in /home/me/config.yaml (disabled: true)')
    expect(unavailable.get('bad')).toBe('MCP server "bad" cannot be used: /home/me/config.yaml: mcp.bad.command: required')
    expect(p.list(workdir, entries).map((s) => [s.name, s.status, s.pid])).toEqual([['theirs', 'needs_trust', null], ['off', 'disabled', null], ['bad', 'invalid', null]])
  })
})

describe('lifecycle', () => {
  it('the tool list is cached: a new host offers the tools without starting the server; the first call starts it', async () => {
    const dir = makeTempDir('agentry-mcp-cache-')
    try {
      const e = entry('everything', EVERYTHING)
      await pool(process.env, dir).toolsFor(workdir, [e])
      const fresh = pool(process.env, dir)
      const { tools } = await fresh.toolsFor(workdir, [e])
      expect(tools.map((t) => t.name)).toContain('mcp__everything__echo')
      expect(fresh.list(workdir, [e])[0]).toMatchObject({ status: 'idle', pid: null })
      expect((await call(tools, 'mcp__everything__echo', { message: 'x' })).output).toBe('Echo: x')
      expect(fresh.list(workdir, [e])[0]).toMatchObject({ status: 'running', pid: expect.any(Number) })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('the server killed mid-call: that call is a tool error naming the server and the crash; the next call restarts it', async () => {
    const p = pool()
    const e = entry('everything', EVERYTHING)
    const { tools } = await p.toolsFor(workdir, [e])
    const pid = p.list(workdir, [e])[0].pid!
    const pending = call(tools, 'mcp__everything__trigger-long-running-operation', { duration: 30, steps: 30 })
    await new Promise((r) => setTimeout(r, 300))
    process.kill(pid, 'SIGKILL')
    const r = await pending
    expect(r.ok).toBe(false)
    expect(r.output).toMatch(/^MCP server "everything" exited \(killed by SIGKILL\) unexpectedly\.[\s\S]*The call to trigger-long-running-operation did not complete; the server is being restarted — call the tool again\.$/)
    expect((await call(tools, 'mcp__everything__echo', { message: 'again' })).output).toBe('Echo: again')
    const after = p.list(workdir, [e])[0]
    expect(after.pid).not.toBe(pid)
    expect(after.restarts).toBeGreaterThanOrEqual(1)
  })

  it('a call that outlives timeoutSeconds is cancelled with a tool error saying which setting', async () => {
    const { tools } = await pool().toolsFor(workdir, [entry('slow', { ...EVERYTHING, timeoutSeconds: 1 })])
    const r = await call(tools, 'mcp__slow__trigger-long-running-operation', { duration: 20, steps: 2 })
    expect(r.output).toBe('MCP server "slow" did not answer trigger-long-running-operation within 1 s (timeoutSeconds in its definition, /home/me/config.yaml); the call was cancelled.')
  })

  it('the run’s abort cancels a call in flight', async () => {
    const { tools } = await pool().toolsFor(workdir, [entry('everything', EVERYTHING)])
    const ctx = makeContext({ workdir })
    const started = Date.now()
    setTimeout(() => ctx.controller.abort(), 300)
    const r = await call(tools, 'mcp__everything__trigger-long-running-operation', { duration: 30, steps: 3 }, ctx)
    expect(r).toMatchObject({ ok: false, metadata: { aborted: true } })
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('dispose (host stop) ends the server and everything in its process group', async () => {
    const p = pool()
    const e = entry('everything', EVERYTHING)
    await p.toolsFor(workdir, [e])
    const pid = p.list(workdir, [e])[0].pid!
    expect(groupAlive(pid)).toBe(true)
    await p.dispose()
    expect(groupAlive(pid)).toBe(false)
  })

  it('stop from Settings keeps it stopped (calls say so) until started again', async () => {
    const p = pool()
    const e = entry('everything', EVERYTHING)
    const { tools } = await p.toolsFor(workdir, [e])
    expect((await p.control(workdir, e, 'stop')).status).toBe('stopped')
    expect((await call(tools, 'mcp__everything__echo', { message: 'x' })).output).toMatch(/MCP server "everything" was stopped \(Settings › MCP servers or agentry mcp\); start it there/)
    expect((await p.control(workdir, e, 'start')).status).toBe('running')
    expect((await call(tools, 'mcp__everything__echo', { message: 'x' })).output).toBe('Echo: x')
    const restarted = await p.control(workdir, e, 'restart')
    expect(restarted).toMatchObject({ status: 'running', restarts: 1 })
  })
})

describe('Streamable HTTP', () => {
  let server: HttpServer
  beforeAll(async () => {
    server = await startHttpServer('tok-123')
  })
  afterAll(() => server.close())

  it('the SDK’s own HTTP server on loopback, with a token from the environment in a header', async () => {
    const env = { ...process.env, LOOPBACK_TOKEN: 'tok-123' }
    const { tools, unavailable } = await pool(env).toolsFor(workdir, [entry('web', { url: server.url, headers: { Authorization: 'Bearer ${LOOPBACK_TOKEN}' } })])
    expect(unavailable).toEqual(new Map())
    expect((await call(tools, 'mcp__web__whoami', { name: 'ada' })).output).toBe('hello ada, from loopback')
    expect(new Set(server.authorizations)).toEqual(new Set(['Bearer tok-123']))
  })

  it('a wrong token: that server is unavailable with the HTTP error', async () => {
    const { unavailable } = await pool().toolsFor(workdir, [entry('web', { type: 'http', url: server.url, headers: { Authorization: 'Bearer wrong' } })])
    expect(unavailable.get('web')).toMatch(/^MCP server "web" \(http:\/\/127\.0\.0\.1:\d+\/mcp\) failed to start: .*unauthorized.*$/)
  })
})
