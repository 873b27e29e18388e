import fs from 'node:fs'
import http from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { serveConnection, type DispatchOptions } from '../bridge'
import type { HostApi } from '../../src-shared'
import { ATTACHMENTS_TOTAL_MAX_BYTES, PROMPT_MAX_CHARS } from '../../src-shared/limits'
import { checkOrigin, createToken, tokenFrom, tokenMatches, type Refusal } from './access-check'
import { resolveStatic, sendFile } from '../renderer-files'
import { wsConnection } from './ws-connection'

export interface DaemonOptions extends DispatchOptions {
  api: HostApi
  /** Called with the port as soon as it is known, before anything is served (the host keeps its tools off it). */
  protectPort?(port: number): void
  /** 0 or omitted: a random free port. */
  port?: number
  /** The built renderer (`out/renderer`). */
  rendererDir: string
  /** Loopback only, by design: the token is the only credential and it travels in plain HTTP. */
  host?: '127.0.0.1'
  /**
   * Reuse a token chosen by the user (`agentry serve --token`, or AGENTRY_TOKEN) so open tabs reconnect after a
   * daemon restart. Never stored by us. Default: a new random token per start.
   */
  token?: string
}

export interface Daemon {
  /** What to open in a browser: includes the per-start token. */
  url: string
  token: string
  port: number
  close(): Promise<void>
}

export const BRIDGE_PATH = '/bridge'
const HEARTBEAT_MS = 30_000
const VALID_TOKEN = /^[A-Za-z0-9_-]{16,256}$/
/**
 * Large enough for the biggest valid prompt (PROMPT_MAX_CHARS, JSON-escaped: up to 6 bytes a character, and its
 * attachments, base64), small enough to bound memory.
 */
const MAX_PAYLOAD = 6 * PROMPT_MAX_CHARS + Math.ceil(ATTACHMENTS_TOTAL_MAX_BYTES / 3) * 4 + 1024 * 1024

/** The headless daemon: the built UI and the WebSocket bridge on 127.0.0.1, guarded by a per-start token. */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const host = options.host ?? '127.0.0.1'
  if (options.token !== undefined && !VALID_TOKEN.test(options.token)) {
    throw new Error('--token / AGENTRY_TOKEN must be at least 16 characters of letters, digits, "-" or "_" (it is the only credential).')
  }
  const token = options.token ?? createToken()
  const realRoot = realDir(options.rendererDir)
  let port = 0

  const server = http.createServer((req, res) => {
    const refusal = checkOrigin(req, port) ?? checkMethod(req)
    if (refusal) return refuse(res, refusal)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname === BRIDGE_PATH) return refuse(res, { status: 404, reason: 'The bridge speaks WebSocket only.' })
    if (!realRoot) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end(`The Agentry UI is not built (no ${options.rendererDir}). Run "npm run build", then restart "agentry serve".\n`)
      return
    }
    const target = resolveStatic(realRoot, url.pathname)
    if (target.kind === 'bad_path') return refuse(res, { status: 404, reason: 'Not found.' })
    if (target.kind === 'not_found') return refuse(res, { status: 404, reason: `Not found: ${url.pathname.slice(0, 200)}` })
    // The page needs the token; scripts and styles are the public build and are loaded without it.
    if (target.isHtml && !tokenMatches(token, url.searchParams.get('token'))) {
      return refuse(res, { status: 403, reason: 'Forbidden: open the exact URL printed by "agentry serve" (it includes ?token=…).' })
    }
    sendFile(req, res, target.file, securityHeaders(port, target.isHtml))
  })
  server.on('clientError', (_err, socket) => socket.destroy())

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD })
  const sockets = new Set<WebSocket>()
  server.on('upgrade', (req, socket: Duplex, head) => {
    socket.on('error', () => socket.destroy()) // a peer resetting mid-handshake is not our error
    const refusal = checkUpgrade(req, port, token)
    if (refusal) return refuseUpgrade(socket, refusal)
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws)
      ws.on('close', () => sockets.delete(ws))
      ws.on('error', (err) => console.error(`[agentry] bridge socket error: ${err.message}`))
      keepAlive(ws)
      serveConnection(options.api, wsConnection(ws), { validateOutput: options.validateOutput })
    })
  })

  await listen(server, options.port ?? 0, host)
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('The daemon did not get a TCP port.')
  port = address.port
  // No tool call (web_fetch) may reach this server, whatever its permission rules allow: the host is told at once.
  options.protectPort?.(port)

  let closing: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    token,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const ws of sockets) ws.close(1001, 'daemon stopping')
        wss.close()
        server.close(() => resolve())
        server.closeAllConnections()
        // Sockets that do not finish the close handshake promptly are cut.
        setTimeout(() => {
          for (const ws of sockets) ws.terminate()
        }, 500).unref()
      })
      return closing
    },
  }
}

function checkUpgrade(req: http.IncomingMessage, port: number, token: string): Refusal | undefined {
  const refusal = checkOrigin(req, port)
  if (refusal) return refusal
  if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== BRIDGE_PATH) return { status: 404, reason: `The bridge is at ${BRIDGE_PATH}.` }
  if (!tokenMatches(token, tokenFrom(req))) return { status: 403, reason: 'Forbidden: missing or wrong token.' }
  return undefined
}

function checkMethod(req: http.IncomingMessage): Refusal | undefined {
  return req.method === 'GET' || req.method === 'HEAD' ? undefined : { status: 405, reason: 'Only GET and HEAD are served.' }
}

function refuse(res: http.ServerResponse, r: Refusal): void {
  res.writeHead(r.status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
  res.end(`${r.reason}\n`)
}

function refuseUpgrade(socket: Duplex, r: Refusal): void {
  const body = `${r.reason}\n`
  const text = r.status === 403 ? 'Forbidden' : r.status === 404 ? 'Not Found' : 'Method Not Allowed'
  socket.end(
    `HTTP/1.1 ${r.status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

/** The CSP allows only our own scripts and our own bridge socket; the referrer policy keeps the token in the URL from leaking. */
function securityHeaders(port: number, isHtml: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
  }
  if (!isHtml) return headers
  return {
    ...headers,
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      // Inline style attributes are how React applies dynamic sizes; scripts stay strictly 'self'.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  }
}

/** Dead peers (sleeping laptop, pulled cable) are noticed and their subscriptions released. */
function keepAlive(ws: WebSocket): void {
  let alive = true
  ws.on('pong', () => (alive = true))
  const timer = setInterval(() => {
    if (!alive) return ws.terminate()
    alive = false
    ws.ping()
  }, HEARTBEAT_MS)
  timer.unref()
  ws.on('close', () => clearInterval(timer))
}

/** The port cannot be listened on (in use, not allowed): the person picks another, a configuration error. */
export class ListenError extends Error {
  override readonly name = 'ListenError'
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      if (err.code === 'EADDRINUSE') {
        reject(new ListenError(`Port ${port} on ${host} is already in use. Pick another with --port N, or omit --port for a random free port.`))
      } else if (err.code === 'EACCES') {
        reject(new ListenError(`Not allowed to listen on port ${port} on ${host}. Use a port above 1023, or omit --port.`))
      } else reject(err)
    }
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve()
    })
  })
}

function realDir(dir: string): string | undefined {
  try {
    return fs.realpathSync(dir)
  } catch (err) {
    // Not built yet is a state we explain on every page load; other errors are real.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}
