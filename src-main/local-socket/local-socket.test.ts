import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, SubscriptionMessage } from '../../src-shared'
import { createBridgeClient } from '../../src-shared/bridge-client'
import { createMemoryHostApi } from '../bridge/testing'
import { connectLocalSocket, localSocketPath, serveLocalSocket } from './index'
import { ensurePrivateDir } from './socket-path'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})
function tempDataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-sock-'))
  dirs.push(d)
  return d
}
const delta = (n: number): AgentEvent => ({ type: 'content_delta', sessionId: 's', at: n, messageId: 'm', partId: 'p', partType: 'text', delta: `d${n}` })

describe('localSocketPath', () => {
  it('is a socket in the data dir, a private temp folder when that path is too long, and a named pipe on Windows', () => {
    expect(localSocketPath('/home/me/.local/share/agentry', 'linux')).toBe('/home/me/.local/share/agentry/run/host.sock')
    const long = `/tmp/${'x'.repeat(120)}`
    const fallback = localSocketPath(long, 'linux')
    expect(Buffer.byteLength(fallback)).toBeLessThan(100)
    expect(path.basename(path.dirname(fallback))).toMatch(/^agentry-\w+-[0-9a-f]{16}$/)
    expect(localSocketPath('C:\\Users\\me\\agentry', 'win32')).toMatch(/^\\\\\.\\pipe\\agentry-[0-9a-f]{16}$/)
    // Two data dirs never share a pipe.
    expect(localSocketPath('C:\\a', 'win32')).not.toBe(localSocketPath('C:\\b', 'win32'))
  })
})

describe('ensurePrivateDir', () => {
  it('creates 0700, tightens a loose existing folder, and refuses a symlink', () => {
    const root = tempDataDir()
    const made = path.join(root, 'run')
    ensurePrivateDir(made)
    expect(fs.statSync(made).mode & 0o777).toBe(0o700)
    fs.chmodSync(made, 0o755)
    ensurePrivateDir(made)
    expect(fs.statSync(made).mode & 0o777).toBe(0o700)
    const link = path.join(root, 'link')
    fs.symlinkSync(made, link)
    expect(() => ensurePrivateDir(link)).toThrow(/must be a folder owned by you/)
  })

  it.runIf(process.getuid?.() === 0)('refuses a folder owned by another user (checked as root by handing it to nobody)', () => {
    const foreign = path.join(tempDataDir(), 'run')
    fs.mkdirSync(foreign, { mode: 0o700 })
    fs.chownSync(foreign, 65534, 65534)
    expect(() => ensurePrivateDir(foreign)).toThrow(/owned by you/)
  })
})

describe('serveLocalSocket / connectLocalSocket', () => {
  it('speaks the bridge protocol as JSON lines: calls, a replay of 5,000 events in order, and detach on close', async () => {
    const dataDir = tempDataDir()
    const api = createMemoryHostApi({ calls: { 'workspaces.list': async () => ({ recent: [], defaultRoot: '/home' }) } })
    for (let i = 1; i <= 5000; i++) api.emit('s', delta(i))
    const server = await serveLocalSocket({ api, dataDir, validateOutput: true })
    const conn = await connectLocalSocket(dataDir)
    expect(conn).toBeDefined()
    const client = createBridgeClient(conn!)
    expect(await client.calls['workspaces.list']({})).toEqual({ recent: [], defaultRoot: '/home' })
    const seqs: number[] = []
    await new Promise<void>((resolve) =>
      client.subscribe({ sessionId: 's', afterSeq: 0 }, (m: SubscriptionMessage) => {
        if (m.kind === 'event') seqs.push(m.event.seq)
        if (seqs.length === 5000) resolve()
      }),
    )
    expect(seqs).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1))
    expect(server.clients).toBe(1)
    client.close()
    await server.whenNoClients()
    expect(api.subscriberCount).toBe(0)
    await server.close()
    expect(fs.existsSync(server.path)).toBe(false)
  })

  it('finds no host when nothing listens, takes over a stale socket file, and refuses a second server', async () => {
    const dataDir = tempDataDir()
    expect(await connectLocalSocket(dataDir)).toBeUndefined()
    // A socket file left by a host that was killed: nothing answers on it.
    const file = localSocketPath(dataDir)
    ensurePrivateDir(path.dirname(file))
    const orphan = spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(file)}, () => process.exit(0))`])
    expect(orphan.status).toBe(0)
    expect(fs.existsSync(file)).toBe(true)
    expect(await connectLocalSocket(dataDir)).toBeUndefined()
    const server = await serveLocalSocket({ api: createMemoryHostApi(), dataDir })
    await expect(serveLocalSocket({ api: createMemoryHostApi(), dataDir })).rejects.toThrow(/already serving/)
    await server.close()
  })

  it('disconnects a peer that sends something other than JSON lines', async () => {
    const dataDir = tempDataDir()
    const server = await serveLocalSocket({ api: createMemoryHostApi(), dataDir })
    const raw = net.connect(server.path)
    await new Promise((r) => raw.once('connect', r))
    raw.write('not json\n')
    await new Promise((r) => raw.once('close', r))
    await server.whenNoClients()
    await server.close()
  })
})
