import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createMemoryHostApi, type MemoryHostApi } from '../bridge/testing'
import { startDaemon, type Daemon } from './start-daemon'

let root: string
let rendererDir: string
const open: Daemon[] = []

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-daemon-'))
  rendererDir = path.join(root, 'renderer')
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true })
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Agentry</title><script type="module" src="/assets/app.js"></script>')
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("app")')
  fs.writeFileSync(path.join(root, 'secret.txt'), 'TOP-SECRET')
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(rendererDir, 'assets', 'leak.txt'))
})

afterEach(async () => {
  await Promise.all(open.splice(0).map((d) => d.close()))
})

async function start(api: MemoryHostApi = hostWithList()): Promise<Daemon> {
  const d = await startDaemon({ api, rendererDir, validateOutput: true })
  open.push(d)
  return d
}

function hostWithList(): MemoryHostApi {
  return createMemoryHostApi({ calls: { 'workspaces.list': async () => ({ recent: [], defaultRoot: '/home/me' }) } })
}

/** Raw GET so the path reaches the server exactly as written (no client-side normalisation). */
function get(port: number, rawPath: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Resolves with the open socket, or with the HTTP status the upgrade was refused with. */
function connect(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ ws?: WebSocket; refused?: number }>((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.once('open', () => resolve({ ws }))
    ws.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode })
      res.resume()
    })
    ws.once('error', (err) => reject(err))
  })
}

function bridgeUrl(d: Daemon, token = d.token, host = '127.0.0.1'): string {
  return `ws://${host}:${d.port}/bridge?token=${encodeURIComponent(token)}`
}

function nextMessage(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))))
}

describe('daemon: serving the UI', () => {
  it('listens on 127.0.0.1 only and prints a URL carrying a fresh token', async () => {
    const a = await start()
    const b = await start()
    expect(a.url).toBe(`http://127.0.0.1:${a.port}/?token=${a.token}`)
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(a.token).not.toBe(b.token)
    // Nothing answers on another local address.
    const other = os.networkInterfaces()
    const external = Object.values(other).flat().find((i) => i && i.family === 'IPv4' && !i.internal)
    if (external) {
      await expect(
        new Promise((resolve, reject) => http.get({ host: external.address, port: a.port, timeout: 1000 }, resolve).on('error', reject)),
      ).rejects.toThrow()
    }
  })

  it('serves the page only with the right token, with CSP and no-referrer', async () => {
    const d = await start()
    const ok = await get(d.port, `/?token=${d.token}`, { Host: `127.0.0.1:${d.port}` })
    expect(ok.status).toBe(200)
    expect(ok.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(ok.headers['content-security-policy']).toContain("script-src 'self'")
    expect(ok.headers['content-security-policy']).toContain(`connect-src 'self' ws://127.0.0.1:${d.port}`)
    expect(ok.headers['referrer-policy']).toBe('no-referrer')
    expect(ok.body).toContain('<title>Agentry</title>')

    expect((await get(d.port, '/', { Host: `127.0.0.1:${d.port}` })).status).toBe(403)
    expect((await get(d.port, '/?token=wrong', { Host: `127.0.0.1:${d.port}` })).status).toBe(403)
    // A client-side route falls back to index.html, still behind the token.
    expect((await get(d.port, `/sessions/abc?token=${d.token}`, { Host: `localhost:${d.port}` })).body).toContain('Agentry')
    expect((await get(d.port, '/sessions/abc', { Host: `localhost:${d.port}` })).status).toBe(403)
  })

  it('serves assets with the right MIME type and 404s missing ones instead of sending the page', async () => {
    const d = await start()
    const js = await get(d.port, '/assets/app.js', { Host: `127.0.0.1:${d.port}` })
    expect(js.status).toBe(200)
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(js.body).toBe('console.log("app")')
    expect((await get(d.port, '/assets/nope.js', { Host: `127.0.0.1:${d.port}` })).status).toBe(404)
    expect((await get(d.port, '/assets/app.js', { Host: `127.0.0.1:${d.port}` }, 'POST')).status).toBe(405)
  })

  it('never serves a file outside the renderer folder', async () => {
    const d = await start()
    for (const p of ['/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/leak.txt', '/%00', '/..\\secret.txt']) {
      const r = await get(d.port, p, { Host: `127.0.0.1:${d.port}` })
      expect(r.status, p).toBe(404)
      expect(r.body, p).not.toContain('TOP-SECRET')
    }
  })

  it('refuses HTTP requests with a non-loopback Host or a foreign Origin', async () => {
    const d = await start()
    const rebinding = await get(d.port, `/?token=${d.token}`, { Host: 'evil.example' })
    expect(rebinding.status).toBe(403)
    expect(rebinding.body).toContain('Host header')
    expect((await get(d.port, `/?token=${d.token}`, { Host: `127.0.0.1:${d.port + 1}` })).status).toBe(403)
    expect((await get(d.port, '/assets/app.js', { Host: `127.0.0.1:${d.port}`, Origin: 'http://evil.example' })).status).toBe(403)
  })

  it('explains how to build the UI when it is missing, while the bridge still works', async () => {
    const d = await startDaemon({ api: hostWithList(), rendererDir: path.join(root, 'not-built') })
    open.push(d)
    const r = await get(d.port, `/?token=${d.token}`, { Host: `127.0.0.1:${d.port}` })
    expect(r.status).toBe(503)
    expect(r.body).toContain('npm run build')
    const { ws } = await connect(bridgeUrl(d))
    expect(ws).toBeDefined()
    ws?.close()
  })

  it('reports a busy port clearly', async () => {
    const d = await start()
    await expect(startDaemon({ api: hostWithList(), rendererDir, port: d.port })).rejects.toThrow(/Port \d+ on 127.0.0.1 is already in use/)
  })
})

describe('daemon: the WebSocket bridge', () => {
  it('refuses upgrades without the token, with a wrong token, from a foreign Origin or a rebinding Host', async () => {
    const d = await start()
    expect((await connect(`ws://127.0.0.1:${d.port}/bridge`)).refused).toBe(403)
    expect((await connect(bridgeUrl(d, 'x'.repeat(32)))).refused).toBe(403)
    expect((await connect(bridgeUrl(d, d.token.slice(0, -1)))).refused).toBe(403)
    expect((await connect(bridgeUrl(d), { Origin: 'http://evil.example' })).refused).toBe(403)
    expect((await connect(bridgeUrl(d), { Origin: `http://127.0.0.1:${d.port + 1}` })).refused).toBe(403)
    expect((await connect(bridgeUrl(d), { Host: 'evil.example' })).refused).toBe(403)
    expect((await connect(`ws://127.0.0.1:${d.port}/other?token=${d.token}`)).refused).toBe(404)
  })

  it('with the right token (and a same-site Origin) a call works end to end', async () => {
    const d = await start()
    for (const [host, origin] of [
      ['127.0.0.1', `http://127.0.0.1:${d.port}`],
      ['localhost', `http://localhost:${d.port}`],
    ]) {
      const { ws } = await connect(bridgeUrl(d, d.token, host), { Origin: origin })
      if (!ws) throw new Error('expected the upgrade to be accepted')
      ws.send(JSON.stringify({ t: 'call', id: 1, name: 'workspaces.list', input: {} }))
      expect(await nextMessage(ws)).toEqual({ t: 'result', id: 1, result: { ok: true, data: { recent: [], defaultRoot: '/home/me' } } })
      ws.send(JSON.stringify({ t: 'call', id: 2, name: 'sessions.get', input: { sessionId: 5 } }))
      expect(await nextMessage(ws)).toMatchObject({ t: 'result', id: 2, result: { ok: false, error: { code: 'invalid_request' } } })
      ws.close()
    }
  })

  it('a dropped socket releases its subscriptions; the host keeps running', async () => {
    const api = hostWithList()
    const d = await start(api)
    const { ws } = await connect(bridgeUrl(d))
    if (!ws) throw new Error('expected the upgrade to be accepted')
    ws.send(JSON.stringify({ t: 'subscribe', id: 's', input: { sessionId: 's1' } }))
    expect(await nextMessage(ws)).toMatchObject({ t: 'sub', id: 's', msg: { kind: 'snapshot', lastSeq: 0 } })
    expect(api.subscriberCount).toBe(1)
    ws.terminate()
    await new Promise((r) => setTimeout(r, 50))
    expect(api.subscriberCount).toBe(0)
    expect(() => api.emit('s1', { type: 'status_change', sessionId: 's1', at: 1, status: 'busy' })).not.toThrow()
  })

  it('closes a socket that sends something other than JSON, with a reason', async () => {
    const d = await start()
    const { ws } = await connect(bridgeUrl(d))
    if (!ws) throw new Error('expected the upgrade to be accepted')
    const closed = new Promise<[number, string]>((r) => ws.once('close', (code, reason) => r([code, reason.toString()])))
    ws.send('not json')
    expect(await closed).toEqual([1007, 'bridge messages must be JSON'])
  })

  it('close() ends open sockets and frees the port', async () => {
    const d = await startDaemon({ api: hostWithList(), rendererDir })
    const { ws } = await connect(bridgeUrl(d))
    const closed = new Promise<number>((r) => ws?.once('close', (code) => r(code)))
    await d.close()
    expect(await closed).toBe(1001)
    const again = await startDaemon({ api: hostWithList(), rendererDir, port: d.port })
    open.push(again)
    expect(again.port).toBe(d.port)
  })
})
