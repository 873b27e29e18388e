import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import type { HostApi } from '../../src-shared'
import { serveConnection, type DispatchOptions } from '../bridge'
import { socketConnection } from './socket-connection'
import { ensurePrivateDir, localSocketPath } from './socket-path'

export interface LocalSocketServer {
  readonly path: string
  /** clients attached right now */
  readonly clients: number
  /** Resolves when no client is attached (at once if none is). */
  whenNoClients(): Promise<void>
  /**
   * Takes the socket off the file system, so that new clients find no host (and start their own once this one has
   * stopped), then lets connections already queued in the socket's backlog arrive: they count as clients.
   */
  stopAccepting(): Promise<void>
  /** Stops accepting, disconnects every client and removes the socket file. */
  close(): Promise<void>
}

/**
 * The host's door for other processes of the same user (the CLI): the bridge protocol as JSON lines on a Unix socket
 * (0600, in a 0700 folder of the data dir) or a named pipe. It serves whichever host holds the data dir — the
 * desktop app, `agentry serve`, or an `agentry` command running its own host — so a second command attaches to it
 * instead of being refused. Each client gets its own subscriptions; closing it detaches only those.
 */
export async function serveLocalSocket(o: { api: HostApi; dataDir: string } & DispatchOptions): Promise<LocalSocketServer> {
  const file = localSocketPath(o.dataDir)
  const isPipe = process.platform === 'win32'
  if (!isPipe) {
    ensurePrivateDir(path.dirname(file))
    await removeStale(file)
  }
  const sockets = new Set<net.Socket>()
  const idle = new Set<() => void>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.once('close', () => {
      sockets.delete(socket)
      if (sockets.size === 0) for (const resolve of [...idle]) resolve()
    })
    serveConnection(o.api, socketConnection(socket), { validateOutput: o.validateOutput })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(file, () => {
      server.off('error', reject)
      resolve()
    })
  })
  if (!isPipe) fs.chmodSync(file, 0o600)
  server.on('error', (err) => console.error(`[agentry] local socket ${file}: ${err.message}`))

  let closing: Promise<void> | undefined
  return {
    path: file,
    get clients() {
      return sockets.size
    },
    whenNoClients() {
      if (sockets.size === 0) return Promise.resolve()
      return new Promise<void>((resolve) => {
        const done = () => {
          idle.delete(done)
          resolve()
        }
        idle.add(done)
      })
    },
    async stopAccepting() {
      if (isPipe) return // a pipe has no file; close() stops it
      fs.rmSync(file, { force: true })
      // Two turns of the event loop: connections queued before the file went away are accepted in between. One that
      // still loses the race is reset, and its command starts over.
      for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r))
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      })
      return closing
    },
  }
}

/** A socket file left by a host that died is removed; one that still answers means another host serves it. */
async function removeStale(file: string): Promise<void> {
  if (!fs.existsSync(file)) return
  const live = await new Promise<boolean>((resolve) => {
    const probe = net.connect(file)
    probe.once('connect', () => {
      probe.destroy()
      resolve(true)
    })
    probe.once('error', () => resolve(false))
  })
  if (live) throw new Error(`Another Agentry host is already serving ${file}.`)
  fs.rmSync(file, { force: true })
}
