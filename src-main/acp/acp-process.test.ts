import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { methods } from '@agentclientprotocol/sdk/unstable'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SessionSummary } from '../../src-shared'
import { AGENTRY_BIN, agentry, buildCli, cliEnv, spawnAgentry } from '../cli/testing/cli-process'
import { acpScene, initialize, say } from './testing/acp-client'
import { fold } from './testing/fold'

/**
 * `agentry acp` as a process: whatever arrives on stdin, every request gets a JSON-RPC answer on stdout (and nothing
 * else goes there); it attaches to a running host, and carries on with a host of its own when that one goes away.
 */
beforeAll(() => buildCli(), 60_000)

const scenes: { remove(): Promise<void> }[] = []
afterAll(async () => Promise.all(scenes.map((s) => s.remove())))
const SCRIPT = { agents: { build: [{ text: 'Hello from the editor agent.', repeat: true }], '*': [{ text: 'Title', repeat: true }] } }

type Frame = [label: string, frame: string, id: number | null, code: number]

describe('malformed input', () => {
  it('30 broken frames: each answered with its JSON-RPC error, the process keeps serving, stdout is protocol only', async () => {
    const s = acpScene(SCRIPT, { 'a-file.txt': 'not a folder\n' }, 'acp-fuzz')
    scenes.push(s)
    const file = path.join(s.work, 'a-file.txt')
    const req = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params })
    const beforeInit: Frame[] = [
      ['truncated object', '{', null, -32700],
      ['not JSON', 'nope', null, -32700],
      ['binary garbage', '\u0000\u0001garbage', null, -32700],
      ['cut-off request', '{"jsonrpc":"2.0","id":1,"method":"initialize","params":', null, -32700],
      ['empty batch', '[]', null, -32600],
      ['batch', '[{"jsonrpc":"2.0","id":2,"method":"initialize"}]', null, -32600],
      ['a number', '42', null, -32600],
      ['a string', '"str"', null, -32600],
      ['null', 'null', null, -32600],
      ['JSON-RPC 1.0', '{"jsonrpc":"1.0","id":3,"method":"initialize","params":{"protocolVersion":1}}', null, -32600],
      ['no jsonrpc field', '{"id":4,"method":"initialize","params":{"protocolVersion":1}}', null, -32600],
      ['object id', '{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}', null, -32600],
      ['numeric method', '{"jsonrpc":"2.0","id":5,"method":42}', null, -32600],
      ['before initialize', req(6, 'session/new', { cwd: s.work, mcpServers: [] }), 6, -32600],
      ['initialize without version', req(7, 'initialize', {}), 7, -32602],
      ['initialize with a string version', req(8, 'initialize', { protocolVersion: 'one' }), 8, -32602],
    ]
    const afterInit = (sessionId: string): Frame[] => [
      ['unknown method', req(9, 'frobnicate', {}), 9, -32601],
      ['a client method sent to the agent', req(10, 'fs/read_text_file', { sessionId, path: '/etc/passwd' }), 10, -32601],
      ['prompt without params', req(11, 'session/prompt', {}), 11, -32602],
      ['prompt to an unknown session', req(12, 'session/prompt', { sessionId: 'ses_nope', prompt: [{ type: 'text', text: 'hi' }] }), 12, -32002],
      ['prompt as a string', req(13, 'session/prompt', { sessionId, prompt: 'hi' }), 13, -32602],
      ['an audio prompt (not offered)', req(14, 'session/prompt', { sessionId, prompt: [{ type: 'audio', data: '', mimeType: 'audio/wav' }] }), 14, -32602],
      ['an empty prompt', req(15, 'session/prompt', { sessionId, prompt: [] }), 15, -32602],
      ['cwd is a number', req(16, 'session/new', { cwd: 42, mcpServers: [] }), 16, -32602],
      ['cwd does not exist', req(17, 'session/new', { cwd: '/definitely/not/here', mcpServers: [] }), 17, -32002],
      ['cwd is a file', req(18, 'session/new', { cwd: file, mcpServers: [] }), 18, -32602],
      ['cwd is relative', req(19, 'session/new', { cwd: 'relative/dir', mcpServers: [] }), 19, -32602],
      ['load an unknown session', req(20, 'session/load', { sessionId: 'ses_nope', cwd: s.work, mcpServers: [] }), 20, -32002],
      ['mode of an unknown session', req(21, 'session/set_mode', { sessionId: 'ses_nope', modeId: 'plan' }), 21, -32002],
      ['a list cursor we never gave', req(22, 'session/list', { cursor: 'abc' }), 22, -32602],
    ]

    const child = spawn(process.execPath, [AGENTRY_BIN, 'acp'], { cwd: s.work, env: cliEnv(s.home, s.env), stdio: ['pipe', 'pipe', 'pipe'] })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const lines: string[] = []
    let buffered = ''
    let stderr = ''
    const waiters = new Set<() => void>()
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString()
      const parts = buffered.split('\n')
      buffered = parts.pop() ?? ''
      lines.push(...parts.filter((l) => l.trim()))
      for (const w of [...waiters]) w()
    })
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    type Message = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } }
    const messages = (): Message[] => lines.map((l) => JSON.parse(l) as Message)
    const until = (test: () => boolean, what: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!test()) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(() => reject(new Error(`no ${what}; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`)), 60_000)
        waiters.add(check)
        check()
      })
    const answer = async (id: number) => {
      await until(() => messages().some((m) => m.id === id), `answer to ${id}`)
      return messages().find((m) => m.id === id)!
    }

    for (const [, frame] of beforeInit) child.stdin.write(`${frame}\n`)
    child.stdin.write(`${req(100, 'initialize', { protocolVersion: 1, clientCapabilities: {} })}\n`)
    expect((await answer(100)).result).toMatchObject({ protocolVersion: 1 })
    child.stdin.write(`${req(101, 'session/new', { cwd: s.work, mcpServers: [] })}\n`)
    const sessionId = String((await answer(101)).result?.sessionId)
    const after = afterInit(sessionId)
    for (const [, frame] of after) child.stdin.write(`${frame}\n`)
    // A notification nobody answers, and a stray response: neither gets (or needs) an answer, neither hurts.
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'ses_nope' } })}\n`)
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 999, result: {} })}\n`)
    child.stdin.write(`${req(102, 'session/prompt', { sessionId, prompt: [{ type: 'text', text: 'still there?' }] })}\n`)
    expect((await answer(102)).result).toEqual({ stopReason: 'end_turn' })

    const frames = [...beforeInit, ...after]
    expect(frames).toHaveLength(30)
    for (const [label, , id, code] of frames.filter((f) => f[2] !== null)) {
      const m = await answer(id!)
      expect([label, m.error?.code, typeof m.error?.message]).toEqual([label, code, 'string'])
    }
    const anonymous = messages().filter((m) => m.id === null)
    expect(anonymous.map((m) => m.error?.code)).toEqual(frames.filter((f) => f[2] === null).map((f) => f[3]))
    // The host's own words reach the editor.
    expect((await answer(17)).error?.message).toContain('Folder /definitely/not/here does not exist')
    expect((await answer(18)).error?.message).toContain('is a file, not a folder')
    // Every stdout line is a JSON-RPC message: answers to requests, and the updates of the one real prompt.
    for (const m of messages()) expect(m).toMatchObject({ jsonrpc: '2.0' })
    expect(child.exitCode).toBe(null)
    child.stdin.end()
    expect(await exited).toBe(0)
  }, 120_000)
})

describe('attached to a running host', () => {
  it('works on the daemon’s host, and on a host of its own once the daemon is gone', async () => {
    const s = acpScene(SCRIPT, {}, 'acp-attach')
    scenes.push(s)
    const daemon = spawnAgentry(['serve', '--port', '0'], { home: s.home, cwd: s.work, env: s.env })
    await daemon.waitFor(/running at http/)
    const { p, sessionId } = await s.open()
    expect((await say(p, sessionId, 'hello')).stopReason).toBe('end_turn')
    await p.waitFor(() => (/attached to the running Agentry host/.test(p.stderr()) ? true : undefined), 'the attach note')
    // The daemon's host has the session: its lock, its database.
    expect(fs.readFileSync(path.join(s.home, 'agentry.lock'), 'utf8').trim()).toBe(String(daemon.child.pid))
    const listed = (await agentry(['sessions', '--json'], { home: s.home, cwd: s.work, env: s.env })).stdout.trim().split('\n').map((l) => JSON.parse(l) as SessionSummary)
    expect(listed.map((x) => x.id)).toContain(sessionId)

    daemon.child.kill('SIGINT')
    expect(await daemon.exited).toBe(0)
    await p.waitFor(() => (/running the Agentry host in this process again/.test(p.stderr()) ? true : undefined), 'the takeover')
    const from = p.updates.length
    expect((await say(p, sessionId, 'hello again')).stopReason).toBe('end_turn')
    expect(fold(p.updates.slice(from)).messages.map((m) => m.text)).toEqual(['Hello from the editor agent.'])
    expect(fs.readFileSync(path.join(s.home, 'agentry.lock'), 'utf8').trim()).toBe(String(p.child.pid))
    expect(await p.close()).toBe(0)
    expect(fs.existsSync(path.join(s.home, 'agentry.lock'))).toBe(false)
  }, 120_000)

  it('a second `agentry acp` attaches to the first one’s host; both serve their editors', async () => {
    const s = acpScene(SCRIPT, {}, 'acp-two')
    scenes.push(s)
    const first = await s.open()
    const second = await s.open()
    const [a, b] = await Promise.all([say(first.p, first.sessionId, 'one'), say(second.p, second.sessionId, 'two')])
    expect([a.stopReason, b.stopReason]).toEqual(['end_turn', 'end_turn'])
    expect(second.p.stderr()).toMatch(/attached to the running Agentry host/)
    // The second sees the first's session too (one data dir, one host).
    const listed = await second.p.agent.request(methods.agent.session.list, {})
    expect(listed.sessions.map((x) => x.sessionId)).toEqual(expect.arrayContaining([first.sessionId, second.sessionId]))
    expect(await second.p.close()).toBe(0)
    expect(await first.p.close()).toBe(0)
  }, 120_000)
})

it('`agentry acp` refuses arguments and a missing --workdir with a usage error (exit 2)', async () => {
  const s = acpScene(SCRIPT, {}, 'acp-usage')
  scenes.push(s)
  const bad = await agentry(['acp', 'extra'], { home: s.home, cwd: s.work })
  expect([bad.code, bad.stdout]).toEqual([2, ''])
  expect(bad.stderr).toContain('agentry acp takes no arguments')
  const missing = await agentry(['acp', '--workdir', path.join(s.work, 'nope')], { home: s.home, cwd: s.work })
  expect(missing.code).toBe(2)
  expect(missing.stderr).toContain('not a folder')
  // initialize is what editors send first; a client that never sends anything just closes stdin: exit 0
  const p = s.start()
  await initialize(p)
  expect(await p.close()).toBe(0)
})
